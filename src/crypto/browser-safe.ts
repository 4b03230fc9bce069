/**
 * The part of src/crypto a browser may load (no Node built-ins): hex and byte helpers,
 * Merkle roots and audit paths over a caller's SHA-256, ed25519 encoding rules. The SDK,
 * the proof verifiers and the browser verifier import this door.
 */
export { bytesToHex, decodeHex, hexDigit } from './hex.js';
export { auditPath, leafHashWith, rootFromPath } from './merkle-path.js';
export { merkleRootWith, rootOfLeafHashesWith } from './merkle-root.js';
export { bytesEqual, concatBytes } from './bytes.js';
export { ed25519EncodingViolation, SMALL_ORDER_POINTS, type Ed25519Violation } from './ed25519-rules.js';
