/**
 * The door of the chain's faces (spec/3): the explorer REST and WS /ws/blocks on --rpc-addr
 * (server.ts) with its hooks (interface.ts), the gRPC ChainService (grpc/; its client and
 * .proto are the client part, client/index.ts, which loads no server), the explorer page
 * (web/), the explorer API's refusal and its HTTP answer (errors.ts), the faces' metrics. The chain they serve is the runtime's (../index.ts).
 */
export type { RpcRouteHook, RpcUpgradeRoute } from './interface.js';
export { startRpcFace } from './server.js';
export { explorerOpenApi } from './openapi.js';
export {
  chainDefinition,
  createChainHandlers,
  startSubmitTxEntry,
  submitTxAnswer,
  type ChainBackend,
  type EntryReply,
  type EntryRequest,
  type SubmitTxEntry,
} from './grpc/index.js';
export { parseHeight, BLOCKS_LIMIT, EVENTS_LIMIT } from './rest.js';
export { ChainRefusal, corsAndErrors, sendJson, type ChainRefusalCode } from './errors.js';
export { registerChainMetrics } from './metrics.js';
export { explorerPage } from './web/index.js';
