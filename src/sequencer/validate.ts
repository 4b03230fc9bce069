/**
 * Validation of a submitted transaction against the limits in ./limits.ts. Pure: it
 * either returns the tx_id's UTF-8 bytes (needed for hashing anyway) or throws a
 * SubmitError('INVALID_ARGUMENT') whose message names the field. It also checks types,
 * since the front-ends hand over whatever a client sent.
 */
import { SubmitError } from './interface.js';
import { MAX_PAYLOAD_BYTES, MAX_PUBLIC_KEY_BYTES, MAX_SIGNATURE_BYTES, MAX_TX_ID_BYTES, MAX_U64 } from './limits.js';
import type { Transaction } from '../core/index.js';

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

/** UTF-8 length of a well-formed string, without encoding it. */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 2; // a surrogate pair: 4 bytes for its 2 units
      i++;
    } else n += 2;
  }
  return n;
}

/**
 * Validate `tx`; returns the UTF-8 byte length of its tx_id (nothing allocated: the
 * sequencer encodes the tx_id straight into the transaction's Borsh bytes).
 */
export function checkTransaction(tx: unknown): number {
  if (typeof tx !== 'object' || tx === null) invalid('transaction is missing');
  const t = tx as Partial<Transaction>;
  if (typeof t.txId !== 'string') invalid('tx_id must be a string');
  if (t.txId.length === 0) invalid('tx_id is empty; 1 to 128 bytes of UTF-8 required');
  if (t.txId.length > MAX_TX_ID_BYTES) invalid(`tx_id is longer than ${MAX_TX_ID_BYTES} bytes`);
  if (!(t.txId as unknown as { isWellFormed(): boolean }).isWellFormed())
    invalid('tx_id is not valid UTF-8 (lone surrogate)');
  const idLength = utf8Length(t.txId);
  if (idLength > MAX_TX_ID_BYTES) invalid(`tx_id is ${idLength} bytes of UTF-8; at most ${MAX_TX_ID_BYTES} allowed`);
  checkBytes(t.payload, 'payload', MAX_PAYLOAD_BYTES);
  checkBytes(t.signature, 'signature', MAX_SIGNATURE_BYTES);
  checkBytes(t.publicKey, 'public_key', MAX_PUBLIC_KEY_BYTES);
  checkU64(t.nonce, 'nonce');
  checkU64(t.timestamp, 'timestamp');
  return idLength;
}

/** Validate `tx`; returns the UTF-8 bytes of its tx_id. */
export function validateTransaction(tx: unknown): Uint8Array {
  checkTransaction(tx);
  return encoder.encode((tx as Transaction).txId);
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
