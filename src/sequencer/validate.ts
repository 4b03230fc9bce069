/**
 * Validation of a submitted transaction against the limits in ./limits.ts. Pure: it
 * either returns the tx_id's UTF-8 bytes (needed for hashing anyway) or throws a
 * SubmitError('INVALID_ARGUMENT') whose message names the field. It also checks types,
 * since the front-ends hand over whatever a client sent.
 */
import { SubmitError } from './interface.js';
import {
  MAX_PAYLOAD_BYTES,
  MAX_PUBLIC_KEY_BYTES,
  MAX_SIGNATURE_BYTES,
  MAX_TX_ID_BYTES,
  MAX_U64,
} from './limits.js';
import type { Transaction } from './types.js';

const encoder = new TextEncoder();

function invalid(message: string): never {
  throw new SubmitError('INVALID_ARGUMENT', message);
}

function checkBytes(v: unknown, field: string, max: number): void {
  if (!(v instanceof Uint8Array)) invalid(`${field} must be bytes`);
  if (v.length > max) invalid(`${field} is ${v.length} bytes; at most ${max} allowed`);
}

function checkU64(v: unknown, field: string): void {
  if (typeof v !== 'bigint') invalid(`${field} must be a u64 (bigint)`);
  if (v < 0n || v > MAX_U64) invalid(`${field} is out of the u64 range`);
}

/** Validate `tx`; returns the UTF-8 bytes of its tx_id. */
export function validateTransaction(tx: unknown): Uint8Array {
  if (typeof tx !== 'object' || tx === null) invalid('transaction is missing');
  const t = tx as Partial<Transaction>;
  if (typeof t.txId !== 'string') invalid('tx_id must be a string');
  if (t.txId.length === 0) invalid('tx_id is empty; 1 to 128 bytes of UTF-8 required');
  if (t.txId.length > MAX_TX_ID_BYTES) invalid(`tx_id is longer than ${MAX_TX_ID_BYTES} bytes`);
  if (!(t.txId as unknown as { isWellFormed(): boolean }).isWellFormed()) invalid('tx_id is not valid UTF-8 (lone surrogate)');
  const id = encoder.encode(t.txId);
  if (id.length > MAX_TX_ID_BYTES) invalid(`tx_id is ${id.length} bytes of UTF-8; at most ${MAX_TX_ID_BYTES} allowed`);
  checkBytes(t.payload, 'payload', MAX_PAYLOAD_BYTES);
  checkBytes(t.signature, 'signature', MAX_SIGNATURE_BYTES);
  checkBytes(t.publicKey, 'public_key', MAX_PUBLIC_KEY_BYTES);
  checkU64(t.nonce, 'nonce');
  checkU64(t.timestamp, 'timestamp');
  return id;
}

/** A private copy of the transaction, so later changes to the caller's buffers cannot alter it. */
export function copyTransaction(tx: Transaction): Transaction {
  return {
    txId: tx.txId,
    payload: new Uint8Array(tx.payload),
    signature: new Uint8Array(tx.signature),
    publicKey: new Uint8Array(tx.publicKey),
    nonce: tx.nonce,
    timestamp: tx.timestamp,
  };
}
