/**
 * Standalone browser verifier (bundled by scripts/build-browser.mjs into
 * dist/browser/svc-vdf.js + svc-vdf.wasm; package entry `svc/browser`): its door. The
 * verifier of ticks (verifier.ts: createVerifier, its verdicts), the VDF pieces it is built
 * from, and the proofs a user can hold (docs/proofs.md), which take it as `tickVerifier`.
 * No Node built-ins anywhere in its imports.
 */
export { GENESIS_OUTPUT, bytesToHex, checkChain, parseRestTick, VdfError, WasmVdfEngine } from '../vdf/browser-safe.js';
export type { ChainCheck, ChainFailure, ChainFailureCode, ChainGap } from '../vdf/index.js';
export type { RestTick, RestTickLookup } from '../vdf/index.js';
export { verifyChainTransactionProof, verifyInclusion } from '../proofs/index.js';
export { verifyOrderState } from '../proofs/index.js';
export type * from '../proofs/index.js';
export {
  createVerifier,
  type BrowserVerifier,
  type TickFailure,
  type TickVerdict,
  type TicksVerdict,
  type VerifyTicksOptions,
} from './verifier.js';
