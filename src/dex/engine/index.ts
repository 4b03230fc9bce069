/**
 * The door of the pure order book engine: the books, the state and its commitment, the
 * transaction codec, snapshots and applying a prepared tick. It imports only the shared
 * base (core and crypto: Borsh, the signed messages, hashes), never a runtime, a face or
 * a thread pool, so the chain's builder, full nodes, tests and benchmarks use it as is.
 */
export * from './interface.js';
export { OrderBook, type Level } from './book.js';
export type { CancelledOrder } from './state.js';
export {
  DexState,
  ownerKeyOf,
  cancelledTagOf,
  closedEntry,
  TRADE_HISTORY,
  type DexErrorCode,
  type Outcome,
  type Market,
  type OwnerState,
} from './state.js';
export { SlotTree, type LeafEncoder } from './slot-tree.js';
export { encodeLeaf, LEAF_SIZE } from './leaf.js';
export * from './codec.js';
export {
  OrderBookEngine,
  prepareTick,
  setVerdicts,
  type AppliedTick,
  type AppliedTx,
  type ApplyOptions,
  type MarketActivity,
  type PreparedTick,
  type PreparedTx,
  type SignatureCheck,
} from './engine.js';
export { encodeSnapshot, decodeSnapshot } from './snapshot.js';
export {
  AppendOnlyMerkle,
  combineStateRoot,
  encodeMarketLeaf,
  encodeUsedIdLeaf,
  STATE_ROOT_PREFIX,
  USED_ID_LEAF_SIZE,
} from './commitment.js';
