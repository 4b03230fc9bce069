/**
 * `npm run bench:ordering`: what a raw transaction costs the ordering thread once intake
 * is elsewhere (issue 25 point 3). The real sequencer in this process (real clock and
 * batcher workers, WASM VDF, LevelDB in a temp dir, one pool thread) takes SubmitBatch-sized
 * requests that were prepared beforehand, exactly as the intake threads hand them over
 * (src/sequencer/prepare.ts: validated, Borsh, hashed, stored body written), so the
 * figure is the main thread's own part: arrival line, replay checks, sequence numbers,
 * the write-ahead group, the clock's ring, the tick commit (LevelDB batch, memory window)
 * and the garbage all of that makes. No gRPC: `npm run bench:ingest` measures the node
 * whole.
 *
 * Closed loop: BENCH_IN_FLIGHT (default 4) requests of 1,000 ~200-byte transactions in
 * flight, BENCH_ROUNDS (default 3) windows of BENCH_SECONDS (default 3) after a 1 s warm-up.
 * CPU is the main thread's own counter (/proc/self/task/<pid>/schedstat, nanoseconds), so
 * time spent waiting for a core on a loaded machine does not count; per ticked
 * transaction, each window drained (every acknowledged transaction in a shown tick), median
 * over the rounds. Then the account: each step alone (bench/support/ordering-steps.ts),
 * BENCH_STEP_REQUESTS (default 100) requests of 1,000, median of BENCH_ROUNDS; and the heap
 * a full replay window keeps per transaction (`--expose-gc`, which the npm script passes).
 * `node --cpu-prof dist/bench/ordering.bench.js` profiles the same loop. The last line is
 * one JSON object.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/index.js';
import { createPool } from '../src/pool/index.js';
import { TickSequencer } from '../src/sequencer/sequencer.js';
import { prepareTransactions, type PreparedBatch } from '../src/sequencer/prepare.js';
import { SubmitError } from '../src/sequencer/interface.js';
import { DEFAULT_BUSY_ITERATIONS } from '../src/vdf/index.js';
import { measureSteps, replayWindowBytes, type StepCosts } from './support/ordering-steps.js';
import { benchTransaction } from './support/requests.js';
import { median, round } from './support/stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 4);
const STEP_REQUESTS = Number(process.env.BENCH_STEP_REQUESTS ?? 100);
const BATCH = 1000;
/** Requests prepared ahead: enough for every round at well above this machine's rate. */
const PREPARED = Number(process.env.BENCH_PREPARED ?? Math.ceil(((1 + SECONDS * ROUNDS) * 60_000) / BATCH));

/** The main thread's CPU so far, in nanoseconds (NaN without Linux /proc). */
function mainCpuNs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return NaN;
  }
}

async function main(): Promise<void> {
  const batches: PreparedBatch[] = Array.from({ length: PREPARED }, () =>
    prepareTransactions(Array.from({ length: BATCH }, () => benchTransaction('ordering'))),
  );
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-ordering-'));
  const db = await openDatabase(dir);
  const pool = createPool({ threads: 1 });
  const seq = new TickSequencer({
    db,
    pool,
    retainTicks: 100_000,
    vdfIterations: DEFAULT_BUSY_ITERATIONS,
    idleTickMs: 100,
    queueCapacity: 1_000_000,
  });
  await seq.start();
  let next = 0;
  let refused = 0;
  const rounds: Array<{ us_per_tx: number; ticked_tx_s: number }> = [];
  try {
    let stopAt = performance.now() + 1000;
    const worker = async (): Promise<void> => {
      while (performance.now() < stopAt && next < batches.length) {
        for (const r of await seq.submitPrepared(batches[next++]!)) if (r instanceof SubmitError) refused++;
      }
    };
    // Each window ends once every acknowledged transaction is in a shown tick, so its CPU
    // is that of its own transactions, commits included.
    const drained = async (): Promise<void> => {
      while (seq.status().pendingTransactions > 0) await new Promise((r) => setTimeout(r, 2));
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker)); // warm-up
    await drained();
    for (let r = 1; r <= ROUNDS && next < batches.length; r++) {
      const cpu0 = mainCpuNs();
      const ticked0 = seq.status().totalTransactions;
      const t0 = performance.now();
      stopAt = t0 + SECONDS * 1000;
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      await drained();
      const ticked = seq.status().totalTransactions - ticked0;
      const us = (mainCpuNs() - cpu0) / 1000 / Math.max(1, ticked);
      const rate = ticked / ((performance.now() - t0) / 1000);
      rounds.push({ us_per_tx: round(us, 2), ticked_tx_s: Math.round(rate) });
      console.log(`round ${r}: ${Math.round(rate)} tx/s ticked, main thread ${round(us, 2)} us CPU per tx`);
    }
  } finally {
    await seq.stop();
    await db.close();
    await pool.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
  if (next >= batches.length) console.log(`ran out of prepared requests (${PREPARED}): raise BENCH_PREPARED`);
  batches.length = 0;
  const stepRounds: StepCosts[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    stepRounds.push(await measureSteps(STEP_REQUESTS, mainCpuNs));
    console.log(`steps round ${r} (us CPU per tx): ${JSON.stringify(stepRounds[r - 1])}`);
  }
  const replayBytes = replayWindowBytes();
  const steps = Object.fromEntries(
    Object.keys(stepRounds[0]!).map((k) => [k, round(median(stepRounds.map((s) => s[k as keyof StepCosts])), 2)]),
  );
  console.log(
    JSON.stringify({
      bench: 'ordering',
      batch_size: BATCH,
      in_flight: IN_FLIGHT,
      seconds_per_round: SECONDS,
      rounds,
      main_cpu_us_per_tx: round(median(rounds.map((r) => r.us_per_tx)), 2),
      ticked_tx_s: Math.round(median(rounds.map((r) => r.ticked_tx_s))),
      refused,
      steps_us_per_tx: steps,
      replay_window_bytes_per_tx: replayBytes,
      target_main_cpu_us_per_tx: 3,
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
