/**
 * The door of the tick sequencer (spec/1): `createSequencer()` plus the types, limits and
 * rate meter the front-ends, the order book and the chain node use. Transactions, ticks and
 * their hashes are src/core's; the stored forms src/store's.
 */
export {
  type Sequencer,
  type SequencerOptions,
  type SubmitErrorCode,
  type TickListener,
  type OrderedTicks,
  SubmitError,
} from './interface.js';
export { MAX_BATCH_TRANSACTIONS } from './limits.js';
export { WARM_TICKS } from './options.js';
export { createSequencer } from './sequencer.js';
export { RateMeter } from './rate.js';
export type { PreparedBatch } from './prepare.js';
