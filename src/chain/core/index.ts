/**
 * The chain's core: blocks cut from the order book's applied ticks (builder.ts), the chain
 * store (store.ts) and the Chain that writes before it shows (chain.ts), record ids
 * (ids.ts), the open block's records of a snapshot (open-records.ts) and a snapshot's
 * restore (restore.ts). Pure of faces: the explorer, gRPC, WebSocket and message queue
 * stand on it (src/chain), and so does a full node's roots check (src/follow).
 */
export type {
  BlockRecord,
  ExplorerTransaction,
  MarketCreation,
  ExplorerEvent,
  BlockDetail,
  ChainStatus,
  TransactionBatch,
  OpenRecords,
  Unsubscribe,
  RecordFeed,
  ChainReader,
} from './interface.js';
export { Chain, detailJson, type ChainTickHook } from './chain.js';
export { OrderRecords, ORDER_RECORDS_FORMAT } from './order-records.js';
export { BlockBuilder, batchEntry, type BuilderState } from './builder.js';
export { ChainStore, type ChainOp, type StoredSnapshot, decodeStoredSnapshot, encodeStoredSnapshot } from './store.js';
export { formatId, parseId, recordKey, MAX_HEIGHT } from './ids.js';
export { openRecordOps, readOpenRecords } from './open-records.js';
export { restoreSnapshot } from './restore.js';
