/**
 * Proofs a user can hold (docs/proofs.md): transaction inclusion proofs and order state
 * proofs, their builders (from what the node holds) and their verifiers (pure,
 * browser-safe, never throwing on hostile input).
 */
export type * from './interface.js';
export {
  buildChainTransactionProof,
  buildInclusionProof,
  verifyChainTransactionProof,
  verifyInclusion,
} from './inclusion.js';
export {
  attachUsedId,
  buildOrderStateProof,
  usedIdMemberFromLeaves,
  verifyOrderState,
  type OrderStateRequest,
  type UsedIdMember,
} from './order-state.js';
export { combineStateRootBytes, usedIdLeaf } from './order-leaves.js';
export {
  TransactionProofClient,
  ProofApiError,
  checkTransactionProof,
  isProofHash,
  type InclusionResult,
  type ProofCandidate,
  type ProofClientOptions,
  type TransactionProofAnswer,
  type WaitOptions,
} from './client.js';
