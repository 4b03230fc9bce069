/**
 * The order book (spec/2): the runtime built once per node (runtime.ts: engine, applier,
 * signature pool, receipt signer, order entry) and its HTTP face, `startDex`, which serves
 * the API on the node's runtime or, alone (tests, benchmarks), on one of its own. The pure
 * engine (engine/) is exported for tests, benchmarks, the chain and full nodes.
 */

export * from './interface.js';
export * from './engine/index.js';
export { DexService } from './service.js';
export {
  TickApplier,
  type TickSource,
  type SignatureVerifier,
  type AppliedListener,
  type TickApplierOptions,
} from './applier.js';
export { CheckedSubmissions } from './checked.js';
export { FairShare, type ShedLimits } from './fair-share.js';
export { OrderEntry, digestNonce, type Submitted } from './order-entry.js';
export { startOrderBook, type OrderBookOptions, type OrderBookRuntime } from './runtime.js';
export { ApiError, type ApiErrorCode } from './errors.js';
export { BatchVerifier } from './verifier.js';
export { marketView, tradeView, bookView } from './views.js';
export { createApp, createHandler } from './http.js';
export { loadOrCreateNodeKey, NODE_KEY_FILE, type NodeKey } from './node-key.js';
export { openApiDocument } from './openapi.js';
export { listenAddress, startDex } from './start.js';

export { ClientGoneError } from './errors.js';
export { DEFAULT_BODY_LIMIT, readJsonBody, sendError, sendJsonText } from './http-json.js';
export { receiptJson } from './receipts.js';
export { parseCancel, parseCancelAll, parsePlaceOrder } from './validate.js';
export { cancelAllFields, type CancelAllSubmitted } from './cancel-all.js';
export * from './batch.js';
