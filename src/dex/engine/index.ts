/**
 * The door of the pure order book engine: the books, the state and its commitment, the
 * transaction codec, snapshots and applying a prepared tick. It imports only the shared
 * base (core and crypto: Borsh, the signed messages, hashes), never a runtime, a face or
 * a thread pool, so the chain's builder, full nodes, tests and benchmarks use it as is.
 */
export {
  BUY,
  SELL,
  type SideCode,
  type MarketKind,
  type BookOrder,
  type Trade,
  type TickContext,
} from './interface.js';
export { OrderBook } from './book.js';
export { DexState, ownerKeyOf, type DexErrorCode, type Outcome, type Market } from './state.js';
export { encodeLeaf } from './leaf.js';
export {
  encodeCreateMarket,
  encodePlaceOrder,
  encodePlaceOrderIntent,
  encodeCancelOrder,
  encodeCancelAll,
  encodeCancelPayload,
  isDexPayload,
  decodePayload,
  toTransaction,
  type CreateMarketTx,
  type PlaceOrderTx,
  type CancelOrderTx,
  type CancelAllTx,
  type DexTx,
} from './codec.js';
export {
  OrderBookEngine,
  prepareTick,
  setVerdicts,
  type AppliedTick,
  type AppliedTx,
  type ApplyOptions,
  type PreparedTick,
  type SignatureCheck,
} from './engine.js';
export { encodeSnapshot, decodeSnapshot } from './snapshot.js';
export { encodeMarketLeaf, encodeUsedIdLeaf } from './commitment.js';
