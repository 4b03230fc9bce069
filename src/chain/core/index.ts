/**
 * The chain's core: blocks cut from the order book's applied ticks (builder.ts), the chain
 * store (store.ts) and the Chain that writes before it shows (chain.ts), record ids
 * (ids.ts), the open block's records of a snapshot (open-records.ts) and a snapshot's
 * restore (restore.ts). Pure of faces: the explorer, gRPC, WebSocket and message queue
 * stand on it (src/chain), and so does a full node's roots check (src/follow).
 */
export type * from './interface.js';
export { DEFAULT_BLOCK_MS, DEFAULT_SNAPSHOT_TICKS, DEFAULT_SNAPSHOT_TXS } from './interface.js';
export { Chain, detailJson, type BlockStateCallback, type ChainTickHook } from './chain.js';
export {
  OrderRecords,
  END_CODES,
  STORED_NODE_HEIGHT,
  ORDER_RECORDS_FORMAT,
  type EndName,
  type OrderEnding,
  type OrderPlacement,
} from './order-records.js';
export { BlockBuilder, batchEntry, type BuilderState, type BuildStep, type BuiltBatch } from './builder.js';
export { ChainStore, type ChainOp, type StoredSnapshot, RECORDS_FORMAT } from './store.js';
export { formatId, parseId, heightKey, recordKey, u64Key } from './ids.js';
export { openRecordOps, readOpenRecords } from './open-records.js';
export { restoreSnapshot } from './restore.js';
export { MAX_HEIGHT } from './ids.js';
export { decodeStoredSnapshot, encodeStoredSnapshot } from './store.js';
