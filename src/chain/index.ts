/**
 * The door of the chain's faces (spec/3): the runtime the node opens (runtime.ts), the
 * explorer REST and WS /ws/blocks on --rpc-addr (server.ts) with its hooks (interface.ts),
 * the gRPC ChainService and its client (grpc/), the JetStream producer's parts (mq/), the
 * explorer page (web/). The chain's core (blocks, their store, the Chain that writes before
 * it shows) has its own door, core/index.ts.
 */
export type { RpcRouteHook, RpcUpgradeRoute, ChainConsumerSpec } from './interface.js';
export { openChainRuntime, type ChainPart, type ChainRuntime } from './runtime.js';
export { startRpcFace } from './server.js';
export { explorerOpenApi } from './openapi.js';
export { ChainClient, signedCancelRequest, signedOrderRequest, type WireTxBatch } from './grpc/client.js';
export {
  CHAIN_SERVICE,
  chainDefinition,
  createChainHandlers,
  loadChainPackage,
  startSubmitTxEntry,
  storedSubmitTxAnswer,
  type ChainBackend,
  type EntryReply,
  type EntryRequest,
  type SubmitTxEntry,
} from './grpc/index.js';
export { mqConsumer, natsServerOptions, redact } from './mq/index.js';
export { parseHeight, BLOCKS_LIMIT, EVENTS_LIMIT } from './rest.js';
export { ChainRefusal, corsAndErrors, sendJson, type ChainRefusalCode } from './errors.js';
export { registerChainMetrics } from './metrics.js';
export { explorerPage } from './web/index.js';
