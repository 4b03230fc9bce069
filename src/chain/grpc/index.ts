/** svc.chain.v1.ChainService: SubmitTx and StreamTx on the node's one gRPC server. */
export { CHAIN_PROTO, CHAIN_SERVICE, loadChainPackage, chainServiceDefinition } from './proto.js';
export {
  chainDefinition,
  createChainHandlers,
  grpcStatusOf,
  MAX_TX_STREAMS,
  MAX_TX_STREAMS_PER_PEER,
  type ChainBackend,
  type ChainServiceOptions,
  type ChainServiceHandlers,
} from './service.js';
export { PeerRateLimiter } from './rate-limit.js';
export { TxFeed, DEFAULT_TX_FEED } from './tx-feed.js';
export { serveTxStream, TX_STREAM_QUEUE } from './stream-tx.js';
export { encodeTxBatch, encodeSubmitTxResponse } from './encode.js';
export { signedCancelAllRequest } from './client.js';
export {
  ChainClient,
  signedOrderRequest,
  signedCancelRequest,
  type SubmitTxRequest,
  type WireSubmitTxResponse,
  type WireSubmitTxBatchResult,
  type WireTxBatch,
  type WireExplorerTransaction,
} from './client.js';
