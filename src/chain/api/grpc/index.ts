/** svc.chain.v1.ChainService: SubmitTx and StreamTx on the node's one gRPC server. */
export { chainDefinition, createChainHandlers, type ChainBackend } from './service.js';
export {
  startSubmitTxEntry,
  submitTxAnswer,
  type EntryReply,
  type EntryRequest,
  type SubmitTxEntry,
} from './entry.js';
