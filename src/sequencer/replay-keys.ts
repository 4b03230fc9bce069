/**
 * A transaction's keys in the replay window (docs/sequencer.md "Replay protection"), as
 * places in a buffer plus their fingerprints (fingerprint.ts), so the ordering thread
 * checks them without making a string:
 *
 *   tx_id              its UTF-8 bytes
 *   (public_key, nonce) u32 LE length | public_key | u64 LE nonce, i.e. the pair exactly
 *                      as it sits in the transaction's Borsh bytes; none when public_key
 *                      is empty (an anonymous client never clashes on nonce)
 *   full hash          the SHA-256 of the Borsh bytes (the same transaction again)
 *
 * Intake writes them into its prepared request (prepare.ts: PreparedTx is a ReplayKeys);
 * replayKeysOf() makes them from a transaction's fields (restart: the stored ticks and the
 * write-ahead log). Both give the same bytes and fingerprints.
 */
import type { Transaction } from '../core/index.js';
import { fingerprint } from './fingerprint.js';

export interface ReplayKeys {
  fullHash: Uint8Array; // 32 bytes
  keyBytes: Uint8Array; // holds the tx_id and the (public_key, nonce) pair
  idAt: number;
  idEnd: number;
  pkNonceAt: number;
  pkNonceEnd: number; // == pkNonceAt: no pair (empty public_key)
  idPrintLo: number; // the tx_id's fingerprint, as two int32
  idPrintHi: number;
  pkNoncePrintLo: number; // the pair's (0, 0 when there is none)
  pkNoncePrintHi: number;
}

const encoder = new TextEncoder();

/** The keys of `tx` from its fields, in a buffer of their own. */
export function replayKeysOf(tx: Transaction, fullHash: Uint8Array): ReplayKeys {
  const id = encoder.encode(tx.txId);
  const pkLength = tx.publicKey.length;
  const bytes = new Uint8Array(id.length + (pkLength > 0 ? 4 + pkLength + 8 : 0));
  bytes.set(id, 0);
  if (pkLength > 0) {
    const view = new DataView(bytes.buffer);
    view.setUint32(id.length, pkLength, true);
    bytes.set(tx.publicKey, id.length + 4);
    view.setBigUint64(id.length + 4 + pkLength, tx.nonce, true);
  }
  const prints = new Int32Array(4);
  fingerprint(bytes, 0, id.length, prints, 0);
  if (pkLength > 0) fingerprint(bytes, id.length, bytes.length, prints, 2);
  return {
    fullHash,
    keyBytes: bytes,
    idAt: 0,
    idEnd: id.length,
    pkNonceAt: id.length,
    pkNonceEnd: bytes.length,
    idPrintLo: prints[0]!,
    idPrintHi: prints[1]!,
    pkNoncePrintLo: prints[2]!,
    pkNoncePrintHi: prints[3]!,
  };
}
