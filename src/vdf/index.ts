/**
 * Public surface of the VDF engine (docs/vdf.md): engines, constants, genesis, errors
 * and byte helpers. Node-only pieces (the WASM loader reading build/vdf.wasm, the pool
 * helpers) are exported here too; the browser verifier has its own entry (browser.ts).
 */
export type { BatchVerdict, BatchTickError, VdfClaim, VdfEngine, VdfEvaluator, VdfTickInput } from './interface.js';
export {
  N,
  HALF_N,
  ELEMENT_BYTES,
  BATCH_HASH_BYTES,
  DEFAULT_BUSY_ITERATIONS,
  MAX_ITERATIONS,
  MIN_ITERATIONS,
  TRIVIAL_PROOF_MAX_T,
  PRIME_BITS,
} from './constants.js';
export { VdfError, isVdfError, type VdfErrorCode } from './errors.js';
export { bytesToHex, hexToBytes, bytesToBigInt, bigIntToBytes, bytesEqual } from './bytes.js';
export { GENESIS_OUTPUT, hashToPrime } from './hashing.js';
export { referenceVdfEngine, ReferenceVdfEngine } from './reference.js';
export { loadVdfEngine, loadWasmVdfEngine, vdfWasmModule, wasmPath } from './node.js';
export { WasmVdfEngine, createWasmVdfEngine, ONE_BYTES } from './wasm-engine.js';
export { proveOnPool, proveFromCheckpointsOnPool, verifyBatchOnPool, evaluateAndProveOnPool } from './pool.js';
export { parseRestTick, unwrapRestTick, type RestTick, type RestTickLookup, type RestVdfProof } from './rest-tick.js';
export { restTick, restVdfProof } from './rest-tick-writer.js';
export { checkChain, type ChainCheck, type ChainFailure, type ChainFailureCode, type ChainGap } from './chain.js';
export { TICK_FORMAT, ingestionDigest, tickHeaderDigest, vdfInputOfTick } from './binding.js';
