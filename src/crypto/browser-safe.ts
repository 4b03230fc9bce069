/**
 * The part of src/crypto a browser may load (no Node built-ins): hex, Base58 and byte helpers,
 * Merkle roots and audit paths over a caller's SHA-256, ed25519 encoding rules, and ed25519
 * keys and signatures in pure JS. The SDK, the proof verifiers and the browser verifier import
 * this door.
 */
export { bytesToHex, decodeHex, fromHex, hexDigit } from './hex.js';
export {
  BASE58_KEY_MAX_CHARS,
  BASE58_KEY_MIN_CHARS,
  fromBase58,
  fromBase58Key,
  toBase58,
  toBase58Key,
} from './base58.js';
export { auditPath, leafHashWith, rootFromPath } from './merkle-path.js';
export { merkleRootWith, rootOfLeafHashesWith } from './merkle-root.js';
export { bytesEqual, concatBytes } from './bytes.js';
export { ed25519EncodingViolation, SMALL_ORDER_POINTS, type Ed25519Violation } from './ed25519-rules.js';
export * from './keys.js';
