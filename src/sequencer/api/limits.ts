/**
 * Front-end limits (docs/api.md). Field limits of a transaction (tx_id, payload,
 * signature, public_key) are the sequencer's and are checked there; these are the
 * limits of the transport.
 */

/** gRPC: largest request message the server accepts (a full batch of ~200-byte transactions is ~2.5 MB). */
export const MAX_RECEIVE_MESSAGE_BYTES = 8 * 1024 * 1024;

/** SubmitBatch: most transactions per call (the sequencer's batch limit). */
export { MAX_BATCH_TRANSACTIONS } from '../index.js';

/** GetChainState tick_limit: default and maximum. */
export const DEFAULT_TICK_LIMIT = 10;
export const MAX_TICK_LIMIT = 100;

/** StreamTicks: most streams open at once; more answer RESOURCE_EXHAUSTED. */
export const MAX_TICK_STREAMS = 1024;

/** GetChainState: most entries in tx_to_tick_sample. */
export const TX_SAMPLE_SIZE = 100;

/** REST /ticks/recent: limit default and maximum, offset maximum. */
export const DEFAULT_RECENT_LIMIT = 20;
export const MAX_RECENT_LIMIT = 100;
export const MAX_RECENT_OFFSET = 1_000_000_000;
