/**
 * The part of src/vdf a browser may load (no Node built-ins): the WASM engine, the
 * reference checks, tick parsing from the REST form, chaining, SHA-256 in pure code. The
 * standalone browser verifier (src/browser) and the proof verifiers import this door.
 */
export { bytesToHex } from './bytes.js';
export { checkChain, type ChainGap } from './chain.js';
export { VdfError, isVdfError } from './errors.js';
export { GENESIS_OUTPUT } from './hashing.js';
export { parseRestTick } from './rest-tick.js';
export { WasmVdfEngine } from './wasm-engine.js';
export { sha256 } from './sha256.js';
