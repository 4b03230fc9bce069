/**
 * `npm run bench:tick`: tick time of the real sequencer (real clock worker with the WASM
 * VDF engine, real LevelDB in a temp dir, one pool thread) under steady in-process load.
 *
 * Load: open loop, a submitBatch every 2 ms sized for the target rate (no waiting for
 * acknowledgements), for BENCH_SECONDS (default 5) after a 1 s warm-up, at each rate
 * of BENCH_RATES (default 10000,50000 tx/s). Tick time = a tick's duration, the
 * interval between its timestamp and the previous tick's, during the measured window:
 * for busy ticks (those carrying transactions, the design's "under load" ticks) and for
 * all ticks (heartbeat ticks included). The clock's own compute per busy tick
 * is reported beside it from a direct loop without threads (hashToGroup + vdfIterations
 * squarings + trivial proof) at 1, 25 and 100 transactions per tick, with the batcher's
 * cost per batch (leaf hashes + Merkle root, on its own thread) beside it.
 *
 * Then the engine's ingestion ceiling in-process: closed loop, BENCH_IN_FLIGHT (default 4)
 * submitBatch calls of 1,000 fresh ~200-byte transactions in flight for BENCH_SECONDS
 * after a 1 s warm-up: acknowledged and ticked tx/s, and the main thread's own CPU time
 * per ticked transaction (Linux /proc per-thread counters, so time the thread spends
 * descheduled on a loaded machine does not count). The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { threadCpuMs } from './support/cpu.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClockLoop } from '../src/clock/clock-loop.js';
import { BatchFormer } from '../src/clock/batch-former.js';
import { BATCH_SLOT_BYTES, ClockControl, TICK_SLOT_BYTES, TX_SLOT_BYTES, writeTxSlot } from '../src/clock/protocol.js';
import { RingQueue } from '../src/clock/ring.js';
import { openDatabase } from '../src/db/index.js';
import { createPool } from '../src/pool/index.js';
import { SubmitError } from '../src/sequencer/interface.js';
import { TickSequencer } from '../src/sequencer/sequencer.js';
import type { Transaction } from '../src/core/types.js';
import { DEFAULT_BUSY_ITERATIONS, GENESIS_OUTPUT, TRIVIAL_PROOF_MAX_T, loadVdfEngine } from '../src/vdf/index.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RATES = (process.env.BENCH_RATES ?? '10000,50000').split(',').map(Number);
const PERIOD_MS = 2;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const r1 = (x: number): number => Math.round(x * 10) / 10;

/**
 * The clock's compute per busy tick, in-process, no threads (the floor of tick time):
 * hashToGroup + vdfIterations squarings + trivial proof + the tick slot, for ticks of 1,
 * 25 and 100 transactions (issue 8: it must not grow with the transactions a tick
 * carries, since the batcher hashes the batch), interleaved tick by tick so the three
 * are measured side by side. Beside it the batcher's cost to form each batch (leaf
 * hashes + Merkle root), which runs on its own thread while the clock squares.
 */
function clockCost(): Record<
  string,
  { clock_us_p50: number; clock_us_p99: number; batcher_us_p50: number; batcher_us_per_tx: number }
> {
  const engine = loadVdfEngine();
  const sizes = [1, 25, 100];
  const txRing = RingQueue.create(1024, TX_SLOT_BYTES);
  const batchRing = RingQueue.create(1, BATCH_SLOT_BYTES);
  const tickRing = RingQueue.create(16, TICK_SLOT_BYTES);
  const loop = new ClockLoop(engine, batchRing, tickRing, new ClockControl(), {
    startTick: 1,
    previousOutput: GENESIS_OUTPUT,
    vdfIterations: DEFAULT_BUSY_ITERATIONS,
    idleTickMs: 1000,
    lastTimestamp: 0,
    maxTxPerTick: 8192,
    trivialProofMaxT: TRIVIAL_PROOF_MAX_T,
    bridgeGapMs: 0,
    bridgeSpan: 0,
    laggingGapMs: 0,
  });
  const former = new BatchFormer(txRing, batchRing, 8192);
  const hash = new Uint8Array(32).fill(1);
  const clock = new Map<number, number[]>(sizes.map((n) => [n, []]));
  const batcher = new Map<number, number[]>(sizes.map((n) => [n, []]));
  let seq = 1;
  for (let i = 0; i < 3000; i++) {
    for (const n of sizes) {
      for (let k = 0; k < n; k++) writeTxSlot(txRing, k, seq + k, seq + k, hash);
      txRing.publish(n);
      seq += n;
      const t0 = performance.now();
      former.formOnce();
      const t1 = performance.now();
      loop.step();
      const t2 = performance.now();
      tickRing.release(1);
      if (i >= 200) {
        batcher.get(n)!.push((t1 - t0) * 1000);
        clock.get(n)!.push((t2 - t1) * 1000);
      }
    }
  }
  const out: ReturnType<typeof clockCost> = {};
  for (const n of sizes) {
    const c = clock.get(n)!.sort((a, b) => a - b);
    const b = batcher.get(n)!.sort((a, b) => a - b);
    out[`tx_per_tick_${n}`] = {
      clock_us_p50: r1(percentile(c, 50)),
      clock_us_p99: r1(percentile(c, 99)),
      batcher_us_p50: r1(percentile(b, 50)),
      batcher_us_per_tx: Math.round((percentile(b, 50) / n) * 100) / 100,
    };
  }
  return out;
}

interface RateResult {
  rate: number;
  accepted_tx_s: number;
  ticks: number;
  busy_tick_time_us_p50: number;
  busy_tick_time_us_p99: number;
  all_tick_time_us_p50: number;
  all_tick_time_us_p99: number;
  tx_per_tick_mean: number;
  trivial_ticks_pct: number;
  refused: number;
}

/** A sequencer on a fresh temp database with the node's busy-tick default; close() removes it all. */
async function startBenchSequencer(): Promise<{ seq: TickSequencer; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-tick-'));
  const db = await openDatabase(dir);
  const pool = createPool({ threads: 1 });
  const seq = new TickSequencer({
    db,
    pool,
    retainTicks: 100_000,
    vdfIterations: DEFAULT_BUSY_ITERATIONS,
    idleTickMs: 100, // the node's default (--idle-tick-ms)
    queueCapacity: 1_000_000,
  });
  await seq.start();
  return {
    seq,
    async close() {
      await seq.stop();
      await db.close();
      await pool.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function runRate(rate: number): Promise<RateResult> {
  const { seq, close } = await startBenchSequencer();
  const ticks: Array<{ ts: number; it: number; n: number }> = [];
  seq.onTick((t) => ticks.push({ ts: t.timestamp, it: t.vdfProof.iterations, n: t.transactions.length }));
  const perBatch = Math.max(1, Math.round((rate * PERIOD_MS) / 1000));
  let n = 0;
  let refused = 0;
  let accepted = 0;
  const make = (): Transaction => {
    n++;
    return {
      txId: `bench-${n}`,
      payload: new Uint8Array(100).fill(n & 0xff),
      signature: new Uint8Array(64),
      publicKey: new Uint8Array(0),
      nonce: BigInt(n),
      timestamp: BigInt(n),
    };
  };
  const inflight = new Set<Promise<void>>();
  const started = performance.now();
  const warmEnd = started + 1000;
  const end = warmEnd + SECONDS * 1000;
  let measureFrom = 0;
  let measureTo = 0;
  let next = started;
  while (performance.now() < end) {
    const now = performance.now();
    if (now >= next) {
      const batch = Array.from({ length: perBatch }, make);
      const p = seq.submitBatch(batch).then((rs) => {
        for (const r of rs) {
          if (r instanceof SubmitError) refused++;
          else if (performance.now() >= warmEnd) accepted++;
        }
      });
      inflight.add(p);
      void p.then(() => inflight.delete(p));
      next += PERIOD_MS;
      if (!measureFrom && now >= warmEnd) measureFrom = Date.now() * 1000;
    }
    await new Promise((r) => setImmediate(r));
  }
  measureTo = Date.now() * 1000;
  await Promise.all(inflight);
  await close();

  const window = ticks.filter((t) => t.ts >= measureFrom && t.ts <= measureTo);
  const deltas: number[] = [];
  const busy: number[] = [];
  for (let i = 1; i < window.length; i++) {
    const d = window[i]!.ts - window[i - 1]!.ts;
    deltas.push(d);
    if (window[i]!.n > 0) busy.push(d);
  }
  deltas.sort((a, b) => a - b);
  busy.sort((a, b) => a - b);
  const txs = window.reduce((s, t) => s + t.n, 0);
  return {
    rate,
    accepted_tx_s: Math.round(accepted / SECONDS),
    ticks: window.length,
    busy_tick_time_us_p50: percentile(busy, 50),
    busy_tick_time_us_p99: percentile(busy, 99),
    all_tick_time_us_p50: percentile(deltas, 50),
    all_tick_time_us_p99: percentile(deltas, 99),
    tx_per_tick_mean: r1(txs / Math.max(1, window.length)),
    trivial_ticks_pct: r1(
      (100 * window.filter((t) => t.it <= TRIVIAL_PROOF_MAX_T).length) / Math.max(1, window.length),
    ),
    refused,
  };
}

interface CeilingResult {
  in_flight: number;
  acked_tx_s: number;
  ticked_tx_s: number;
  main_cpu_us_per_tx: number;
  main_cpu_pct: number;
}

async function ceiling(inFlight: number): Promise<CeilingResult> {
  const { seq, close } = await startBenchSequencer();
  const signature = new Uint8Array(64).fill(5);
  const publicKey = new Uint8Array(32).fill(6);
  let n = 0;
  const make = (): Transaction => {
    n++;
    const txId = `ceiling-${n}`;
    const payload = new Uint8Array(Math.max(0, 200 - (txId.length + 64 + 32 + 32)));
    payload[0] = n & 0xff;
    payload[1] = (n >> 8) & 0xff;
    return { txId, payload, signature, publicKey, nonce: BigInt(n), timestamp: BigInt(Date.now() * 1000) };
  };
  const warmEnd = performance.now() + 1000;
  const end = warmEnd + SECONDS * 1000;
  let acked = 0;
  let ackedAtStart = 0;
  let tickedAtStart = 0;
  let cpuAtStart = 0;
  let startedAt = 0;
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      if (!startedAt && performance.now() >= warmEnd) {
        startedAt = performance.now();
        ackedAtStart = acked;
        tickedAtStart = seq.status().totalTransactions;
        cpuAtStart = threadCpuMs();
      }
      const rs = await seq.submitBatch(Array.from({ length: 1000 }, make));
      for (const r of rs) if (!(r instanceof SubmitError)) acked++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = (performance.now() - startedAt) / 1000;
  const ticked = seq.status().totalTransactions - tickedAtStart;
  const cpu = threadCpuMs() - cpuAtStart;
  await close();
  return {
    in_flight: inFlight,
    acked_tx_s: Math.round((acked - ackedAtStart) / elapsed),
    ticked_tx_s: Math.round(ticked / elapsed),
    main_cpu_us_per_tx: r1((cpu * 1000) / Math.max(1, ticked)),
    main_cpu_pct: Math.round(cpu / 10 / elapsed),
  };
}

const clock = clockCost();
for (const [k, c] of Object.entries(clock)) {
  console.log(
    `clock compute per busy tick (${k.replace('tx_per_tick_', '')} tx, ${DEFAULT_BUSY_ITERATIONS} squarings): p50 ${c.clock_us_p50} us, p99 ${c.clock_us_p99} us; ` +
      `batcher ${c.batcher_us_p50} us per batch (${c.batcher_us_per_tx} us per tx, its own thread)`,
  );
}
const results: RateResult[] = [];
for (const rate of RATES) {
  const r = await runRate(rate);
  results.push(r);
  console.log(
    `load ${rate} tx/s: accepted ${r.accepted_tx_s} tx/s, ${r.ticks} ticks, busy tick time p50 ${r.busy_tick_time_us_p50} us ` +
      `p99 ${r.busy_tick_time_us_p99} us, all ticks p50 ${r.all_tick_time_us_p50} us p99 ${r.all_tick_time_us_p99} us, ` +
      `${r.tx_per_tick_mean} tx/tick, ${r.trivial_ticks_pct}% trivially proven, ${r.refused} refused`,
  );
}
const ceil = await ceiling(Number(process.env.BENCH_IN_FLIGHT ?? 4));
console.log(
  `ingestion ceiling in-process (${ceil.in_flight} x 1,000-tx batches in flight): acked ${ceil.acked_tx_s} tx/s, ` +
    `ticked ${ceil.ticked_tx_s} tx/s, main thread ${ceil.main_cpu_us_per_tx} us CPU per tx (${ceil.main_cpu_pct}% of a core)`,
);
console.log(
  JSON.stringify({
    bench: 'tick',
    vdf_iterations: DEFAULT_BUSY_ITERATIONS,
    seconds: SECONDS,
    clock_compute: clock,
    rates: results,
    ceiling: ceil,
    target_tick_time_us_p50: 100,
  }),
);
