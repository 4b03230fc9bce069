/**
 * The chain node (spec/3): its core (core/: blocks cut from the order book's applied
 * ticks, their store, the Chain that writes before it shows), the explorer REST and WS /ws/blocks on --rpc-addr (server.ts), and the gRPC ChainService
 * (grpc/). The node opens it through openChainRuntime (runtime.ts).
 * Surface for the rest of the node: the types, the ChainReader and the hooks (interface.ts).
 */
export * from './interface.js';
export * from './core/index.js';
export { openChainRuntime, type ChainPart, type ChainRuntime, type ChainRuntimeDeps } from './runtime.js';
export { startRpcFace, type RpcFace, type RpcFaceOptions } from './server.js';
export { explorerOpenApi } from './openapi.js';
export { BlockSocket, WS_PATH, CLOSE_TOO_SLOW, CLOSE_UNSUPPORTED_DATA, CLOSE_GOING_AWAY } from './ws.js';
export { ChainClient, signedCancelRequest, signedOrderRequest, type WireTxBatch } from './grpc/client.js';
export {
  CHAIN_SERVICE,
  chainDefinition,
  createChainHandlers,
  loadChainPackage,
  type ChainBackend,
} from './grpc/index.js';
export { mqConsumer, natsServerOptions, redact } from './mq/index.js';
export { parseHeight, BLOCKS_LIMIT, EVENTS_LIMIT } from './rest.js';
export { ChainRefusal, clip, corsAndErrors, sendJson, type ChainRefusalCode } from './errors.js';
export { registerChainMetrics } from './metrics.js';
export { explorerPage } from './web/index.js';
