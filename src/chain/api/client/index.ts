/**
 * The door of the chain's client side: the gRPC client of svc.chain.v1.ChainService
 * (client.ts) with its signed requests and wire shapes, and the .proto it and the server load
 * (proto.ts). It loads no server, so `svc chain` loads only this; the faces (../index.ts)
 * stand above it and take the .proto from here.
 */
export {
  ChainClient,
  signedCancelAllRequest,
  signedCancelRequest,
  signedOrderRequest,
  type SubmitTxRequest,
  type WireExplorerTransaction,
  type WireMarketCreation,
  type WireSubmitTxBatchResult,
  type WireSubmitTxResponse,
  type WireTxBatch,
} from './client.js';
export { CHAIN_PROTO, CHAIN_SERVICE, chainServiceDefinition, loadChainPackage } from './proto.js';
