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
 * Ready ticks that are all empty wait until this long after the previous commit, so
 * linger ticks (one every ~0.3 ms) are written a few per LevelDB write instead of one
 * each; a tick with transactions never waits (docs/sequencer.md "Commit").
 */
export const EMPTY_COMMIT_GAP_MS = 1;
/**
 * Requests waiting in the arrival line (their intake on a worker not done, or one ahead of
 * them not done): beyond this a submission is refused with RESOURCE_EXHAUSTED at once,
 * so a flood of large batches cannot pile up memory before the queue-capacity check.
 */
export const MAX_ARRIVALS_WAITING = 256;
/**
 * Linger (see clock-loop.ts and docs/sequencer.md "Cadence"): after a tick with
 * transactions, LINGER_TICKS empty ticks always close trivially (about 127 squarings,
 * ~0.3 ms each); while traffic is steady (busy ticks at most LINGER_MAX_MS apart) empty
 * ticks close trivially for LINGER_MAX_MS after each busy tick. Trivial ticks bridge gaps without a pool
 * proof per gap (a long segment's proof costs the pool about T/8 + 512 multiplications
 * and delays the next tick by as much); the bound keeps what an isolated transaction
 * costs to at most one truncated heartbeat, its own tick and LINGER_TICKS empty ticks.
 * (Before issue 8 linger was one second after any transaction: ~2,650 empty ticks.)
 */
export const LINGER_TICKS = 8;
export const LINGER_MAX_MS = 250;


/** SubmitErrors are answers, not bugs: skip the stack capture (costly under overload). */
export function refusal(code: SubmitError['code'], message: string): SubmitError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new SubmitError(code, message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export function checkOption(name: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw new RangeError(`sequencer option ${name} must be an integer >= ${min}, got ${String(v)}`);
  }
  return v;
}
