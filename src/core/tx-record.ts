/**
 * The one binary body of a stored transaction, shared by the write-ahead log
 * (src/store/wal.ts) and the memory window (src/store/packed.ts), which only put their
 * own prefix in front of it (code-review.md: one codec per format). Little-endian:
 *
 *   0 u64 nonce | 8 u64 client timestamp | 16 [32] full hash | 48 u16 tx_id bytes |
 *  50 u16 signature bytes | 52 u16 public_key bytes | 54 u32 payload bytes |
 *  58 tx_id (UTF-8) | payload | signature | public_key
 *
 * The spec/1 JSON archive record is a different format (src/store/archive.ts).
 * No I/O, no Node built-ins.
 */
import type { Transaction } from './types.js';

export const TX_BODY_HEADER = 58;

const decoder = new TextDecoder();

/** Bytes the body of `tx` takes, its tx_id being `idLength` bytes of UTF-8. */
export function txBodyLength(tx: Transaction, idLength: number): number {
  return TX_BODY_HEADER + idLength + tx.payload.length + tx.signature.length + tx.publicKey.length;
}

/** Write the body at `off`; returns the offset after it. */
export function writeTxBody(
  buf: Uint8Array,
  view: DataView,
  off: number,
  tx: Transaction,
  txIdBytes: Uint8Array,
  fullHash: Uint8Array,
): number {
  view.setBigUint64(off, tx.nonce, true);
  view.setBigUint64(off + 8, tx.timestamp, true);
  buf.set(fullHash, off + 16);
  view.setUint16(off + 48, txIdBytes.length, true);
  view.setUint16(off + 50, tx.signature.length, true);
  view.setUint16(off + 52, tx.publicKey.length, true);
  view.setUint32(off + 54, tx.payload.length, true);
  let o = off + TX_BODY_HEADER;
  buf.set(txIdBytes, o);
  o += txIdBytes.length;
  buf.set(tx.payload, o);
  o += tx.payload.length;
  buf.set(tx.signature, o);
  o += tx.signature.length;
  buf.set(tx.publicKey, o);
  return o + tx.publicKey.length;
}

export interface TxBody {
  tx: Transaction;
  txIdBytes: Uint8Array;
  fullHash: Uint8Array;
  end: number; // offset after the body
}

/** Read the body at `off` (byte fields are copies); throws if it runs past the buffer. */
export function readTxBody(buf: Uint8Array, view: DataView, off: number): TxBody {
  if (off + TX_BODY_HEADER > buf.length) throw new RangeError('truncated transaction record');
  const nonce = view.getBigUint64(off, true);
  const timestamp = view.getBigUint64(off + 8, true);
  const fullHash = buf.slice(off + 16, off + 48);
  const idLen = view.getUint16(off + 48, true);
  const sigLen = view.getUint16(off + 50, true);
  const pkLen = view.getUint16(off + 52, true);
  const payLen = view.getUint32(off + 54, true);
  let o = off + TX_BODY_HEADER;
  if (o + idLen + payLen + sigLen + pkLen > buf.length) throw new RangeError('truncated transaction record');
  const txIdBytes = buf.slice(o, o + idLen);
  o += idLen;
  const payload = buf.slice(o, o + payLen);
  o += payLen;
  const signature = buf.slice(o, o + sigLen);
  o += sigLen;
  const publicKey = buf.slice(o, o + pkLen);
  o += pkLen;
  return {
    tx: { txId: decoder.decode(txIdBytes), payload, signature, publicKey, nonce, timestamp },
    txIdBytes,
    fullHash,
    end: o,
  };
}
