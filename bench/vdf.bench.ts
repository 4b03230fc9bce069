/**
 * VDF engine benchmarks (`npm run bench:vdf`; figures go to docs/benchmarks.md):
 * 1. microseconds per 2048-bit modular squaring, WASM vs V8 BigInt `(a*a) % N`, rounds
 *    interleaved in one run, medians and ratio;
 * 2. tick VDF time (hash-to-group + evaluate + prove, as the clock does it) at
 *    DEFAULT_BUSY_ITERATIONS and neighbours: p50 / p99;
 * 3. verification throughput for 1,000 and 10,000 ticks, busy (default T) and heartbeat
 *    (T for ~100 ms of squaring): individual on one thread vs batch on one thread vs
 *    batch on the pool (as many threads as the machine has, or BENCH_VDF_THREADS);
 * 4. batch verification scaling: the largest tick set verified on pools of 1, 2, 4, ...
 *    and all threads, ticks/s and the ratio to individual verification on one thread.
 * Single-thread figures are CPU time (the machine is shared), pool figures wall time.
 * Ends with ONE JSON line of the figures. `--quick` shrinks the tick counts.
 */
import { availableParallelism, loadavg } from 'node:os';
import { createPool } from '../src/pool/index.js';
import { DEFAULT_BUSY_ITERATIONS, N } from '../src/vdf/constants.js';
import { bigIntToBytes, bytesToBigInt } from '../src/vdf/bytes.js';
import { GENESIS_OUTPUT } from '../src/vdf/hashing.js';
import type { VdfTickInput } from '../src/vdf/interface.js';
import { loadWasmVdfEngine } from '../src/vdf/node.js';
import { evaluateAndProveOnPool, verifyBatchOnPool } from '../src/vdf/pool.js';

const quick = process.argv.includes('--quick');
const THREADS = Number(process.env.BENCH_VDF_THREADS ?? availableParallelism());
/** 1, 2, 4, ... up to THREADS, and THREADS itself. */
const threadSteps = (): number[] => {
  const out: number[] = [];
  for (let k = 1; k < THREADS; k *= 2) out.push(k);
  out.push(THREADS);
  return out;
};
const now = (): number => performance.now();
/**
 * Process CPU time in ms (user + system; their split is tick-based on Linux, the sum is
 * precise to ~1 us). The machine is shared: single-thread figures are taken in CPU time so
 * that being descheduled by other work does not count; pool figures are wall time.
 */
const cpuNow = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const median = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const pct = (xs: number[], p: number): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const round = (x: number, d = 2): number => Number(x.toFixed(d));
const log = (s: string): void => {
  process.stderr.write(`${s}\n`);
};

function randomBatchHash(i: number): Uint8Array {
  const b = new Uint8Array(32);
  new DataView(b.buffer).setUint32(0, i);
  b[31] = 0x5a;
  return b;
}

async function main(): Promise<void> {
  const engine = loadWasmVdfEngine();
  const arith = engine.arith;

  // 1. Squaring, interleaved rounds.
  const x0 = bytesToBigInt(engine.hashToGroup(1, GENESIS_OUTPUT, randomBatchHash(0)));
  arith.ensure(4);
  arith.load(0, bigIntToBytes(x0, 256));
  arith.sqrn(0, 5000); // warm-up (lets V8 tier the WASM up)
  let v = x0;
  for (let i = 0; i < 2000; i++) v = (v * v) % N;
  const K = 4000;
  const wasmUs: number[] = [];
  const bigUs: number[] = [];
  for (let r = 0; r < 9; r++) {
    let t = cpuNow();
    arith.sqrn(0, K);
    wasmUs.push(((cpuNow() - t) * 1000) / K);
    t = cpuNow();
    for (let i = 0; i < K; i++) v = (v * v) % N;
    bigUs.push(((cpuNow() - t) * 1000) / K);
  }
  const sqr = {
    wasm_us: round(median(wasmUs), 3),
    bigint_us: round(median(bigUs), 3),
    ratio: round(median(bigUs) / median(wasmUs)),
  };
  log(`squaring: WASM ${sqr.wasm_us} us, BigInt ${sqr.bigint_us} us, BigInt/WASM ${sqr.ratio}x`);

  // 2. Tick VDF time as the clock does it: hash-to-group, evaluator start + square(T) + output + prove.
  const ev = engine.evaluator();
  const tickTimes = (t: number, count: number): { cpu: number[]; wall: number[] } => {
    const cpu: number[] = [];
    const wall: number[] = [];
    let prev = GENESIS_OUTPUT;
    for (let i = 1; i <= count; i++) {
      const c0 = cpuNow();
      const t0 = now();
      const xIn = engine.hashToGroup(i, prev, randomBatchHash(i));
      ev.start(xIn);
      ev.square(t);
      const y = ev.output();
      ev.prove();
      wall.push((now() - t0) * 1000);
      cpu.push((cpuNow() - c0) * 1000);
      prev = y;
    }
    return { cpu, wall };
  };
  tickTimes(DEFAULT_BUSY_ITERATIONS, 300);
  const tick: Record<string, { p50_us: number; p99_us: number; wall_p50_us: number; wall_p99_us: number }> = {};
  for (const t of [10, DEFAULT_BUSY_ITERATIONS, 30, 40, 128, 1000]) {
    const ts = tickTimes(t, t >= 128 ? 200 : 3000);
    const r = {
      p50_us: round(pct(ts.cpu, 50), 1),
      p99_us: round(pct(ts.cpu, 99), 1),
      wall_p50_us: round(pct(ts.wall, 50), 1),
      wall_p99_us: round(pct(ts.wall, 99), 1),
    };
    tick[`T=${t}`] = r;
    log(
      `tick VDF time T=${t}: CPU p50 ${r.p50_us} us, p99 ${r.p99_us} us (wall p50 ${r.wall_p50_us}, p99 ${r.wall_p99_us})`,
    );
  }

  // 3. Verification throughput.
  const heartbeatT = Math.round(100_000 / sqr.wasm_us); // ~100 ms of squaring
  const pool = createPool({ threads: THREADS });
  const makeBusy = (count: number): VdfTickInput[] => {
    const out: VdfTickInput[] = [];
    let prev = GENESIS_OUTPUT;
    for (let i = 1; i <= count; i++) {
      const batchHash = randomBatchHash(i);
      const input = engine.hashToGroup(i, prev, batchHash);
      ev.start(input);
      ev.square(DEFAULT_BUSY_ITERATIONS);
      const output = ev.output();
      out.push({
        tickNumber: i,
        previousOutput: prev,
        header: batchHash,
        claim: { input, output, proof: ev.prove(), iterations: DEFAULT_BUSY_ITERATIONS },
      });
      prev = output;
    }
    return out;
  };
  // Heartbeat ticks cost ~100 ms each to make: DISTINCT real ones are made on the pool and
  // repeated to the tick count (every copy is verified in full, as a fresh tick would be).
  const DISTINCT = quick ? 4 : 16;
  const hb: VdfTickInput[] = [];
  {
    let prev = GENESIS_OUTPUT;
    const inputs: { tickNumber: number; prev: Uint8Array; batchHash: Uint8Array; input: Uint8Array }[] = [];
    for (let i = 1; i <= DISTINCT; i++) {
      // Not chained (each starts from genesis-derived input) so they can be made in parallel.
      const batchHash = randomBatchHash(1000 + i);
      inputs.push({ tickNumber: i, prev, batchHash, input: engine.hashToGroup(i, prev, batchHash) });
    }
    const claims = await Promise.all(inputs.map((p) => evaluateAndProveOnPool(pool, p.input, heartbeatT)));
    claims.forEach((c, i) =>
      hb.push({
        tickNumber: inputs[i].tickNumber,
        previousOutput: inputs[i].prev,
        header: inputs[i].batchHash,
        claim: c,
      }),
    );
    prev = claims[0].output;
  }
  // Warm-up: a long-running node's pool threads and main thread have run these paths before.
  {
    const warm = makeBusy(200).concat(hb);
    engine.verifyBatch(warm);
    for (const t of warm.slice(0, 50)) engine.verify(t);
    for (let i = 0; i < 3; i++) await verifyBatchOnPool(pool, warm);
  }
  const sizes = quick ? [1000] : [1000, 10000];
  const verify: Record<string, Record<string, number>> = {};
  for (const kind of ['busy', 'heartbeat'] as const) {
    for (const n of sizes) {
      const ticks = kind === 'busy' ? makeBusy(n) : Array.from({ length: n }, (_, i) => hb[i % hb.length]);
      let t0 = now();
      let c0 = cpuNow();
      let allOk = true;
      for (const t of ticks) allOk = engine.verify(t) && allOk;
      const indiv = (cpuNow() - c0) / 1000;
      const indivWall = (now() - t0) / 1000;
      c0 = cpuNow();
      const one = engine.verifyBatch(ticks);
      const batch1 = (cpuNow() - c0) / 1000;
      t0 = now();
      const pooled = await verifyBatchOnPool(pool, ticks);
      const batchPool = (now() - t0) / 1000;
      if (!allOk || !one.ok || !pooled.ok) throw new Error(`verification failed for valid ${kind} ticks`);
      const r = {
        T: kind === 'busy' ? DEFAULT_BUSY_ITERATIONS : heartbeatT,
        individual_ticks_per_s: round(n / indiv, 0),
        batch_1thread_ticks_per_s: round(n / batch1, 0),
        batch_pool_ticks_per_s: round(n / batchPool, 0),
        batch_1thread_speedup: round(indiv / batch1),
        individual_wall_ticks_per_s: round(n / indivWall, 0),
        batch_pool_speedup_wall: round(indivWall / batchPool),
      };
      verify[`${kind}_${n}`] = r;
      log(
        `verify ${n} ${kind} ticks (T=${r.T}): individual ${r.individual_ticks_per_s}/s, batch ${r.batch_1thread_ticks_per_s}/s (${r.batch_1thread_speedup}x, CPU time), pool ${r.batch_pool_ticks_per_s}/s wall (${r.batch_pool_speedup_wall}x vs individual wall ${r.individual_wall_ticks_per_s}/s)`,
      );
    }
  }
  await pool.destroy();

  // 4. Scaling of batch verification with the pool's threads (wall time).
  const scaling: Record<string, Record<string, number>> = {};
  const n = sizes[sizes.length - 1]!;
  const sets = { busy: makeBusy(n), heartbeat: Array.from({ length: n }, (_, i) => hb[i % hb.length]!) };
  for (const threads of threadSteps()) {
    const p = createPool({ threads });
    for (const kind of ['busy', 'heartbeat'] as const) {
      await verifyBatchOnPool(p, sets[kind].slice(0, 200)); // warm every thread's engine
      const t0 = now();
      const res = await verifyBatchOnPool(p, sets[kind]);
      const wall = (now() - t0) / 1000;
      if (!res.ok) throw new Error(`verification failed for valid ${kind} ticks`);
      const indiv = verify[`${kind}_${n}`]!.individual_ticks_per_s!;
      const r = { threads, ticks_per_s: round(n / wall, 0), vs_individual_1thread: round(n / wall / indiv) };
      scaling[`${kind}_${threads}`] = r;
      log(
        `scaling: ${n} ${kind} ticks on ${threads} pool thread(s): ${r.ticks_per_s}/s wall, ${r.vs_individual_1thread}x individual on one thread`,
      );
    }
    await p.destroy();
  }
  process.stdout.write(
    `${JSON.stringify({
      bench: 'vdf',
      loadavg_1m: round(loadavg()[0], 1),
      squaring: sqr,
      busy_iterations: DEFAULT_BUSY_ITERATIONS,
      tick_vdf_time: tick,
      heartbeat_iterations: heartbeatT,
      heartbeat_distinct_ticks: DISTINCT,
      pool_threads: THREADS,
      verify,
      scaling,
    })}\n`,
  );
}

await main();
