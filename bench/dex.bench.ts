/**
 * `npm run bench:dex`: the order book's figures (docs/benchmarks.md "Order book").
 *   1. matching engine orders/s on a fixed flow of 300,000 limit orders vs nodejs-order-book
 *   2. ed25519 verification: @noble/ed25519 vs node:crypto, one thread and the pool
 *   3. end to end: signed POST /orders from a separate load process against the real
 *      sequencer + order book in this process; receipts out; orders/s and p50/p99
 * Options (env): DEX_BENCH_ORDERS (300000), DEX_E2E_ORDERS (20000), DEX_E2E_CONCURRENCY (512).
 * Ends with one JSON line of all figures.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/db/index.js';
import { createPool } from '../src/pool/index.js';
import { createSequencer } from '../src/sequencer/index.js';
import { startDex } from '../src/dex/index.js';
import { DexClient, toBase58 } from '../src/sdk/index.js';
import { benchEngine } from './dex-engine.js';
import { benchVerify } from './dex-verify.js';

const log = (msg: string) => process.stderr.write(msg + '\n');
const VDF_ITERATIONS = Number(process.env.DEX_E2E_VDF_ITERATIONS ?? 2000);

async function benchE2e(orders: number, concurrency: number): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-dex-bench-'));
  const db = await openDatabase(dir);
  const pool = createPool();
  const sequencer = createSequencer({ db, pool, retainTicks: 100_000, vdfIterations: VDF_ITERATIONS, idleTickMs: 100, queueCapacity: 100_000 });
  await sequencer.start();
  const dex = await startDex({ db, pool, sequencer, dbPath: dir, addr: '127.0.0.1:0' });
  try {
    const url = `http://${dex.address}`;
    const base = toBase58(new Uint8Array(32).fill(0xb1));
    const quote = toBase58(new Uint8Array(32).fill(0xb2));
    await new DexClient(url).createMarket({ base_mint: base, quote_mint: quote, name: 'BENCH/USD' });
    const script = fileURLToPath(new URL('./dex-load.js', import.meta.url));
    const child = spawn(process.execPath, [script, url, String(orders), String(concurrency), base, quote], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
    if (code !== 0) throw new Error(`load process exited with ${code}`);
    const lines = out.trim().split('\n');
    return { ...(JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>), ticks: sequencer.status().currentTick };
  } finally {
    await dex.close();
    await sequencer.stop();
    await pool.destroy();
    await db.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
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

const e2eOrders = Number(process.env.DEX_E2E_ORDERS ?? 20_000);
const e2eConc = Number(process.env.DEX_E2E_CONCURRENCY ?? 512);
log(`end to end: ${e2eOrders} signed orders, ${e2eConc} in flight, from a separate load process`);
const e2e = await benchE2e(e2eOrders, e2eConc);
log(JSON.stringify(e2e));

console.log(JSON.stringify({ bench: 'dex', engine, verify, e2e }));
