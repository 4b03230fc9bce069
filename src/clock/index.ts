/**
 * The clock: the SharedArrayBuffer ring queues between the main thread and the clock and
 * batcher workers, the batch former and the clock loop they run, and the clock thread's
 * handle on the main thread (docs/sequencer.md "Clock cadence").
 */
export type { ClockTick } from './protocol.js';
export { ClockThread } from './clock-thread.js';
export { PROOFS_FAR_BEHIND, PROOFS_LAGGING, PROOFS_ON_TIME, type ProofsLevel } from './protocol.js';
