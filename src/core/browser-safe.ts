/**
 * The part of src/core a browser may load (no Node built-ins): the transaction and tick
 * types and the transaction's Borsh bytes, the order book's signed messages and its API's
 * answers, the book checksum. Hashing a transaction needs SHA-256, which the
 * node takes from node:crypto: browser code hashes with its own.
 */
export { decodeTransactionBytes, transactionBytes } from './tx-bytes.js';
export { BorshReader, BorshWriter, I64_MAX, I64_MIN, U64_MAX } from './borsh.js';
export * from './order-messages.js';
export { marketIdOf, UUID_RE } from './market-id.js';
export type * from './api-views.js';
export * from './book-checksum.js';
