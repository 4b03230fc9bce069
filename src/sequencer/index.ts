/**
 * The tick sequencer's public surface (spec/1): `createSequencer()` plus the types,
 * limits and hashing helpers the front-ends, the order book and the chain node use.
 */
export type { OrderedTicks, Sequencer, SequencerOptions, SubmitErrorCode, TickListener } from './interface.js';
export { SubmitError } from './interface.js';
export type * from '../core/index.js';
export * from './limits.js';
export { TRANSACTION_SCHEMA, isShortHash, shortHash, transactionBytes, transactionHash } from '../core/index.js';
export { validateTransaction } from './validate.js';
export { encodeArchiveRecord, decodeArchiveRecord } from '../store/index.js';
export { createSequencer, TickSequencer, MAX_TX_PER_TICK, DEFAULT_REPLAY_WINDOW } from './sequencer.js';

export { RateMeter } from './rate.js';
export type { PreparedBatch } from './prepare.js';
