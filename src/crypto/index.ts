/**
 * Cryptography and the byte helpers it needs, shared by every layer: SHA-256 (node:crypto),
 * Merkle roots and audit paths, ed25519 signing and verification with the encoding rules
 * the order book enforces (node:crypto on the hot path, @noble/ed25519 for keys and single
 * signatures), hex, Base58 and byte arrays. Browser code imports browser-safe.ts: the
 * same minus what needs Node.
 */
export { bytesToHex, fromHex } from './hex.js';
export { fromBase58Key, toBase58, toBase58Key } from './base58.js';
export { sha256 } from './sha256.js';
export { keyPairOfSeed, signBatch, type VerifyItem, verifyOne } from './ed25519.js';
export { EMPTY_ROOT, leafHash, merkleRoot, nodeHash, rootOfLeafHashes } from './merkle.js';
export { ed25519EncodingViolation } from './ed25519-rules.js';
export { merkleRootWith, rootOfLeafHashesWith } from './merkle-root.js';
export { bytesEqual, concatBytes } from './bytes.js';
export * from './keys.js';
export { leafHashWith, nodeHashWith } from './merkle-path.js';
