/**
 * The door of the order book (spec/2): the runtime built once per node (runtime.ts: engine,
 * applier, signature pool, receipt signer, order entry), its HTTP face (start.ts: `startDex`,
 * on the node's runtime or, alone, on one of its own), and the order entry's checks and
 * answers that the gateway processes and ChainService SubmitTx share. The pure engine has
 * its own door (engine/index.ts).
 */
export type { DexDeps } from './interface.js';
export { TickApplier } from './applier.js';
export { FairShare } from './fair-share.js';
export { OrderEntry, digestNonce, type Submitted } from './order-entry.js';
export { startOrderBook, type OrderBookRuntime } from './runtime.js';
export { DexRefusal, type DexRefusalCode, ClientGoneError } from './errors.js';
export { tradeView } from './views.js';
export { loadOrCreateNodeKey, type NodeKey } from './node-key.js';
export { listenAddress, startDex } from './start.js';
export { DEFAULT_BODY_LIMIT, readJsonBody, sendError, sendJsonText } from './http-json.js';
export { receiptJson } from './receipts.js';
export { parseCancel, parseCancelAll, parsePlaceOrder } from './validate.js';
export { cancelAllFields, type CancelAllSubmitted } from './cancel-all.js';
export {
  checkBatchSize,
  parseBatch,
  cancelsOfBatchOrders,
  enterBatch,
  itemError,
  MAX_BATCH_BYTES,
  type BatchItem,
} from './batch.js';
