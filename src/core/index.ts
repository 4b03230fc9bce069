/**
 * The core: what every layer shares and nothing below it (no I/O, no Node built-ins but
 * node:crypto's SHA-256 through src/crypto): the transaction and tick types, the
 * transaction's Borsh bytes and hashes, and the clock in microseconds (hex and byte
 * helpers are src/crypto's). src/store, src/sequencer, the faces
 * and the SDK import it; it imports none of them.
 */
export type * from './types.js';
export * from './tx-hash.js';
export * from './tx-record.js';
export * from './time.js';
export { BorshReader, BorshWriter, I64_MAX, I64_MIN, U64_MAX } from './borsh.js';
export * from './order-messages.js';
export { marketIdOf, UUID_RE } from './market-id.js';
export { StacklessError } from './stackless-error.js';
export type * from './api-views.js';
export { BookChecksum } from './book-checksum.js';
