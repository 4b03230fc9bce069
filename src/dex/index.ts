/**
 * The door of the order book's runtime (spec/2): the runtime built once per node (runtime.ts:
 * engine, applier, signature pool, receipt signer, order entry), the service its HTTP face
 * calls (service.ts), and the order entry's checks, views and answers that every face shares
 * (the HTTP face, the gateway processes, ChainService SubmitTx). The pure engine has its own
 * door (engine/index.ts); the faces theirs (api/index.ts).
 */
export { TickApplier } from './applier.js';
export { FairShare } from './fair-share.js';
export { OrderEntry, digestNonce, type Submitted } from './order-entry.js';
export { startOrderBook, type OrderBookRuntime } from './runtime.js';
export { DexService } from './service.js';
export { DexRefusal, type DexRefusalCode, ClientGoneError } from './errors.js';
export { bookView, marketView, tradeView } from './views.js';
export { loadOrCreateNodeKey, type NodeKey } from './node-key.js';
export { receiptJson } from './receipts.js';
export { parseCancel, parseCancelAll, parseCreateMarket, parsePlaceOrder, uuid } from './validate.js';
export { cancelAllFields, type CancelAllSubmitted } from './cancel-all.js';
export {
  checkBatchSize,
  parseBatch,
  cancelsOfBatchOrders,
  enterBatch,
  itemError,
  placeBatch,
  MAX_BATCH_BYTES,
  type BatchItem,
} from './batch.js';
