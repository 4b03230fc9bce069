/**
 * `svc/sdk`: the browser-safe client of the order book API. Keys and signatures
 * (@noble/ed25519), the exact signing messages of spec/2 (Borsh + SHA-256 + hex), the
 * JSON bodies, a fetch client, and receipt verification; a transaction proof client
 * (docs/proofs.md). No node:* imports.
 */
export * from './bytes.js';
export * from './borsh.js';
export * from './messages.js';
export * from './keys.js';
export { ed25519EncodingViolation, SMALL_ORDER_POINTS, type Ed25519Violation } from '../crypto/browser-safe.js';
export * from './api-json.js';
export * from './client.js';
export { marketIdOf } from './market-id.js';
export * from './state-root.js';
export * from './chain-root.js';
export { UUID_RE } from './market-id.js';
export * from './exact-json.js';
export * from './channel-client.js';
