/**
 * The sequencer's tunables and option checks, and its refusals: the constants the facade
 * (sequencer.ts), the clock's parameters and the tests share.
 */
import { SubmitError } from './interface.js';

export const DEFAULT_REPLAY_WINDOW = 100_000;
/** Most transactions one tick carries (bounds a tick record; the rest wait one tick). */
export const MAX_TX_PER_TICK = 8192;
/**
 * Ticks read back into memory on start (the rest of the window fills as ticks come);
 * fewer if they already hold a replay window's worth of transactions.
 */
export const WARM_TICKS = 10_000;
export const TX_RING_SLOTS = 65_536;
export const TICK_RING_SLOTS = 16_384;
export const MAX_TICKS_PER_COMMIT = 1024;
/**
 * Bridging under dense traffic (clock-loop.ts, docs/sequencer.md "Clock cadence"): while
 * busy ticks come at most BRIDGE_GAP_MS apart on average, empty ticks close trivially
 * (127 squarings, no pool proof) for up to BRIDGE_SPAN average gaps after a busy tick.
 * A cut heartbeat's pool proof costs 1.5-3 ms of CPU however short it is (hash to prime,
 * combining 256 buckets, the proof's own check); at 1,000 arrivals a second every gap
 * would cost that, more than the core the clock leaves. A trickle (100 tx/s: 10 ms apart) never bridges, so it costs at most
 * two ticks per transaction.
 */
export const BRIDGE_GAP_MS = 2;
export const BRIDGE_SPAN = 4;
/**
 * Pool proofs in flight (started, not yet written) above which the pool is lagging: an idle
 * node has at most one in flight, a trickle of 100 tx/s one or two. While it lags, a batch
 * cuts an empty tick only once that tick ran LAGGING_GAP_MS, so the clock asks at most one
 * proof per LAGGING_GAP_MS (~2 ms of pool CPU each: 0.1 of a core at most) and transactions
 * wait up to that much longer, in fewer, fuller ticks. Above MAX_PROOFS_FAR_BEHIND it makes
 * no proof work at all (empty ticks close trivially, as bridge ticks) until the pool
 * catches up: the bound on proofs, and their checkpoints (~T/8 x 256 bytes each, a heartbeat's
 * at most ~1.3 MB), held at once whatever the traffic. Bridging as soon as the pool lags (the
 * rule before) closed an empty tick every ~0.3 ms of squaring while it lagged, each a commit
 * and an apply on the main thread: under CPU contention 340 empty ticks per busy tick
 * (docs/benchmarks.md "Lagging proofs").
 */
export const MAX_PROOFS_IN_FLIGHT = 8;
export const MAX_PROOFS_FAR_BEHIND = 32;
export const LAGGING_GAP_MS = 20;

/**
 * A long segment's pool proof starts this long after its tick leaves the clock. A cut
 * heartbeat's proof (a few ms to ~20 ms of CPU) would otherwise start on the one core the
 * clock leaves free at the very moment the transaction that cut it is committed, applied
 * and answered there. Measured with `npm run bench:latency` on 2 cores, one request at a
 * time, alternating runs: SubmitTx p50 9.7-10.0 -> 5.2-5.4 ms, POST /orders p50 8.5-8.9 ->
 * 4.1-4.5 ms; a transaction's tick reaches StreamTicks ~7 ms later (p50 20 -> 28 ms), which
 * waits for that proof anyway (docs/benchmarks.md).
 */
export const PROOF_START_DELAY_MS = 8;

/** A refusal of a submission (SubmitError is stackless: an answer, not a bug). */
export function refusal(code: SubmitError['code'], message: string): SubmitError {
  return new SubmitError(code, message);
}

export function checkOption(name: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw new RangeError(`sequencer option ${name} must be an integer >= ${min}, got ${String(v)}`);
  }
  return v;
}
