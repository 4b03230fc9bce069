/**
 * The chain node (spec/3): blocks cut from the order book's applied ticks (builder.ts),
 * their persistence (store.ts), the Chain that writes before it shows (chain.ts), the
 * explorer REST and WS /ws/blocks on --rpc-addr (server.ts), and the gRPC ChainService
 * (grpc/). The node opens it through openChainRuntime (runtime.ts).
 * Surface for the rest of the node: the types, the ChainReader and the hooks (interface.ts).
 */
export * from './interface.js';
export { Chain, detailJson } from './chain.js';
export { BlockBuilder, batchEntry, type BuilderState, type BuildStep, type BuiltBatch } from './builder.js';
export { ChainStore } from './store.js';
export { openChainRuntime, type ChainRuntime, type ChainRuntimeDeps } from './runtime.js';
export { startRpcFace, type RpcFace, type RpcFaceOptions } from './server.js';
export { formatId, parseId } from './ids.js';
export { explorerOpenApi } from './openapi.js';
export { BlockSocket, WS_PATH, CLOSE_TOO_SLOW, CLOSE_UNSUPPORTED_DATA, CLOSE_GOING_AWAY } from './ws.js';
