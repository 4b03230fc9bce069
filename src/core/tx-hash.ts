/**
 * Transaction hashing (design.md "Transactions and hashes"): the full hash is SHA-256 of
 * the transaction's Borsh bytes (tx-bytes.ts); `tx_hash` on the wire is the first 4
 * bytes of that hash as 8 lowercase hex characters.
 */
import { sha256 } from '../crypto/index.js';
import { bytesToHex } from '../crypto/index.js';
import { transactionBytes } from './tx-bytes.js';
import type { Transaction } from './types.js';

export {
  TRANSACTION_SCHEMA,
  transactionBytes,
  transactionBytesLength,
  transactionBytesWithId,
  writeTransactionBytes,
  writeTransactionBytesFromText,
} from './tx-bytes.js';

/** Full transaction hash: SHA-256 of the Borsh bytes, 32 bytes. */
export function transactionHash(tx: Transaction): Uint8Array {
  return sha256(transactionBytes(tx));
}

/** The wire form: first 4 bytes of the full hash as 8 lowercase hex characters (the one short hash of the tree). */
export function shortHash(fullHash: Uint8Array): string {
  return bytesToHex(fullHash.subarray(0, 4));
}

/** True for exactly 8 lowercase or uppercase hex characters. */
export function isShortHash(s: string): boolean {
  return /^[0-9a-fA-F]{8}$/.test(s);
}

/**
 * A served transaction's full hash, recomputed from its bytes and checked against the
 * 8-hex tx_hash a node served with it (either case): the hash, or the mismatch in words,
 * naming the transaction by its place in its tick. `svc verify` and a full node check
 * every transaction of a fetched tick with it.
 */
export function checkServedTxHash(
  tx: Transaction,
  served: string,
  index: number,
): { hash: Uint8Array } | { mismatch: string } {
  const hash = transactionHash(tx);
  const short = shortHash(hash);
  if (short === served.toLowerCase()) return { hash };
  return { mismatch: `transaction ${index} (${tx.txId}) has tx_hash ${served}, but its bytes hash to ${short}` };
}
