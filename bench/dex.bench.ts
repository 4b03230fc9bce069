/**
 * `npm run bench:dex`: the order book's figures (docs/benchmarks.md "Order book").
 *   1. matching engine orders/s on a fixed flow of 300,000 limit orders vs nodejs-order-book
 *   2. ed25519 verification: @noble/ed25519 vs node:crypto, one thread and the pool
 *   3. end to end: signed POST /orders from a separate load process against the real
 *      sequencer + order book in this process; receipts out; orders/s and p50/p99, and
 *      the server's CPU per order (main thread; worker threads but the clock) (dex-e2e.ts)
 *   4. the same load straight into the sequencer (no HTTP, no order book): the ceiling
 *   5. gateway processes (src/dex/api/gateway) beside a no-op node:http server with as many
 *      processes and with one: max orders/s, p50/p99 at 50% and 90% of it, and the CPU per
 *      order of the sequencer thread, its workers and the gateways (dex-gateways.ts)
 *   6. gRPC SubmitTx, open loop at DEX_SUBMITTX_RATE (3,000/s): answered/s and the
 *      sequencer thread's CPU per order (dex-gateways.ts)
 * Options (env): DEX_BENCH_ORDERS (300000), DEX_E2E_ORDERS (10000), DEX_E2E_CONCURRENCY (512),
 * DEX_E2E_VDF_ITERATIONS (2000: minimum squarings of a busy tick), DEX_GATEWAYS (the cores).
 * Ends with one JSON line of all figures.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/index.js';
import { createPool } from '../src/pool/index.js';
import { createSequencer } from '../src/sequencer/index.js';
import { benchEngine } from './dex-engine.js';
import { benchVerify } from './dex-verify.js';
import { benchE2eWithCpu } from './dex-e2e.js';
import { benchGateways, benchSubmitTx } from './dex-gateways.js';

const log = (msg: string) => process.stderr.write(`${msg}\n`);
const VDF_ITERATIONS = Number(process.env.DEX_E2E_VDF_ITERATIONS ?? 2000);

/**
 * The ceiling the sequencer alone sets, same machine, same moment: `count` transactions of
 * an order's size submitted in-process with `concurrency` in flight, each waited for until
 * its tick is delivered (no HTTP, no signatures, no order book).
 */
async function benchSequencerOnly(count: number, concurrency: number): Promise<{ tx_per_s: number; p50_ms: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-dex-bench-seq-'));
  const db = await openDatabase(dir);
  const pool = createPool();
  const sequencer = createSequencer({
    db,
    pool,
    retainTicks: 100_000,
    vdfIterations: VDF_ITERATIONS,
    idleTickMs: 100,
    queueCapacity: 100_000,
    onError: (e) => log(`sequencer failed: ${e.message}`),
  });
  await sequencer.start();
  const waiters = new Map<string, () => void>();
  const off = sequencer.onTick((t) => {
    for (const o of t.transactions) waiters.get(o.transaction.txId)?.();
  });
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  // Keeps the event loop alive and reports progress should the run stall.
  const progress = setInterval(() => {
    if (performance.now() - t0 > 60_000)
      log(
        `sequencer alone: ${lat.length}/${count} after ${Math.round((performance.now() - t0) / 1000)} s, tick ${sequencer.status().currentTick}, pending ${sequencer.status().pendingTransactions}`,
      );
  }, 5_000);
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const i = next++;
          const a = performance.now();
          const done = new Promise<void>((r) => waiters.set(`s${i}`, r));
          const owner = new Uint8Array(32);
          owner[0] = i & 0xff;
          owner[1] = (i >> 8) & 0xff;
          await sequencer.submit({
            txId: `s${i}`,
            payload: new Uint8Array(197),
            signature: new Uint8Array(64),
            publicKey: owner,
            nonce: BigInt(i),
            timestamp: 0n,
          });
          await done;
          waiters.delete(`s${i}`);
          lat.push(performance.now() - a);
        }
      }),
    );
  } finally {
    clearInterval(progress);
    off();
    await sequencer.stop();
    await pool.destroy();
    await db.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
  lat.sort((x, y) => x - y);
  return {
    tx_per_s: Math.round(count / ((performance.now() - t0) / 1000)),
    p50_ms: Number(lat[lat.length >> 1]!.toFixed(1)),
  };
}

const n = Number(process.env.DEX_BENCH_ORDERS ?? 300_000);
log(`engine: ${n} limit orders, ours vs nodejs-order-book (3 interleaved runs, medians)`);
const engine = benchEngine(n);
log(JSON.stringify(engine));

log('ed25519 verification: noble vs node:crypto, one thread and the pool');
const pool = createPool();
const verify = await benchVerify(pool);
await pool.destroy();
log(JSON.stringify(verify));

const e2eOrders = Number(process.env.DEX_E2E_ORDERS ?? 10_000);
const e2eConc = Number(process.env.DEX_E2E_CONCURRENCY ?? 512);
log(`end to end: ${e2eOrders} signed orders, ${e2eConc} in flight, from a separate load process`);
const e2e = await benchE2eWithCpu(e2eOrders, e2eConc);
log(JSON.stringify(e2e));
log(
  `sequencer alone (the ceiling): ${e2eOrders} transactions, ${e2eConc} in flight, submit until the tick is delivered`,
);
const sequencerOnly = await benchSequencerOnly(e2eOrders, e2eConc);
log(JSON.stringify(sequencerOnly));
Object.assign(e2e, {
  sequencer_only_tx_per_s: sequencerOnly.tx_per_s,
  sequencer_only_p50_ms: sequencerOnly.p50_ms,
  vdf_iterations: VDF_ITERATIONS,
});

log(`gateways: ${e2eOrders} signed orders, ${e2eConc} in flight, beside the no-op server`);
const gateways = await benchGateways(e2eOrders, e2eConc);
log(JSON.stringify(gateways));
log('SubmitTx over gRPC (node process), open loop');
const submitTx = await benchSubmitTx();
log(JSON.stringify(submitTx));

console.log(JSON.stringify({ bench: 'dex', engine, verify, e2e, gateways, submit_tx: submitTx }));
