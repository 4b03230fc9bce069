/**
 * Intake's pure half (issue 8 point 2, docs/sequencer.md "Intake"): everything a
 * submitted transaction needs before it gets its place in the order, none of which
 * depends on that order:
 *
 *   validation (validate.ts) -> Borsh bytes -> SHA-256 (the full hash) -> the stored
 *   body (src/core/tx-record.ts: write-ahead log, tick store and memory window) -> the
 *   (public_key, nonce) replay key -> both replay keys' fingerprints (fingerprint.ts).
 *
 * It runs on an intake worker (workers/intake.worker.ts) when the node has intake
 * threads, inline otherwise; either way the main thread then only orders (replay check,
 * sequence number, queue) and copies bytes that are already written.
 *
 * One PreparedBatch holds a whole request in one buffer, so a worker hands it over
 * without a copy (two ArrayBuffers moved, a short error list cloned):
 *
 *   bytes   the bodies | the (public_key, nonce) replay keys, back to back
 *   layout  per item LAYOUT_STRIDE int32: bodyAt, bodyEnd, keyAt, keyEnd, then the
 *           fingerprints (lo, hi) of the tx_id and of the pair (0, 0 without one);
 *           bodyAt = -1 marks an invalid item, whose message is in `errors`
 *   errors  { index, message } of the invalid items (INVALID_ARGUMENT), in index order
 *
 * The pair is kept exactly as it sits in the Borsh bytes: u32 LE length | public_key |
 * u64 LE nonce (replay-keys.ts); empty when public_key is. The tx_id's bytes are the
 * body's.
 */
import { sha256 } from '../crypto/index.js';
import { TX_BODY_HEADER, writeTxBody } from '../core/index.js';
import { transactionBytesLength, writeTransactionBytesFromText } from '../core/index.js';
import type { Transaction } from '../core/index.js';
import { SubmitError, type PreparedBatch } from './interface.js';
import { fingerprint } from './fingerprint.js';
import type { ReplayKeys } from './replay-keys.js';
import { checkTransaction } from './validate.js';

export type { PreparedBatch };

export const LAYOUT_STRIDE = 8;

let scratch = new Uint8Array(64 * 1024);

/** Validate, hash and encode `txs` (whatever a client sent: invalid items are named, not thrown). */
export function prepareTransactions(txs: readonly unknown[]): PreparedBatch {
  const count = txs.length;
  const layout = new Int32Array(count * LAYOUT_STRIDE);
  const errors: PreparedBatch['errors'] = [];
  const idLengths = new Int32Array(count);
  let bodyTotal = 0;
  let keyTotal = 0;
  for (let i = 0; i < count; i++) {
    try {
      idLengths[i] = checkTransaction(txs[i]);
    } catch (err) {
      if (!(err instanceof SubmitError)) throw err;
      idLengths[i] = -1;
      layout[i * LAYOUT_STRIDE] = -1;
      errors.push({ index: i, message: err.message });
      continue;
    }
    const tx = txs[i] as Transaction;
    bodyTotal += TX_BODY_HEADER + idLengths[i]! + tx.payload.length + tx.signature.length + tx.publicKey.length;
    if (tx.publicKey.length > 0) keyTotal += tx.publicKey.length + 12;
  }

  const bytes = new Uint8Array(bodyTotal + keyTotal);
  const view = new DataView(bytes.buffer);
  let bodyAt = 0;
  let keyAt = bodyTotal;
  for (let i = 0; i < count; i++) {
    const idLength = idLengths[i]!;
    if (idLength < 0) continue;
    const tx = txs[i] as Transaction;
    const borshLength = transactionBytesLength(tx, idLength);
    if (scratch.length < borshLength) scratch = new Uint8Array(Math.max(borshLength, scratch.length * 2));
    const borsh = scratch.subarray(0, borshLength);
    const [, , publicKeyAt] = writeTransactionBytesFromText(borsh, tx, idLength);
    const fullHash = sha256(borsh);
    const bodyEnd = writeTxBody(bytes, view, bodyAt, tx, borsh.subarray(4, 4 + idLength), fullHash);
    const o = i * LAYOUT_STRIDE;
    fingerprint(borsh, 4, 4 + idLength, layout, o + 4);
    let keyEnd = keyAt;
    if (tx.publicKey.length > 0) {
      keyEnd = keyAt + tx.publicKey.length + 12;
      bytes.set(borsh.subarray(publicKeyAt - 4, publicKeyAt + tx.publicKey.length + 8), keyAt);
      fingerprint(bytes, keyAt, keyEnd, layout, o + 6);
    }
    layout[o] = bodyAt;
    layout[o + 1] = bodyEnd;
    layout[o + 2] = keyAt;
    layout[o + 3] = keyEnd;
    bodyAt = bodyEnd;
    keyAt = keyEnd;
  }

  return { count, bytes, layout, errors };
}

/**
 * A prepared transaction as the main thread admits it: views into the batch's buffer, and
 * its replay keys as places in that buffer with their fingerprints (no strings).
 */
export interface PreparedTx extends ReplayKeys {
  tx: Transaction;
  body: Uint8Array;
}

type Slicer = { utf8Slice(start: number, end: number): string };

/**
 * Reads a PreparedBatch's items. The body header gives every field's place, so a
 * transaction is a handful of views and its tx_id string: no copy, no parsing.
 */
export class PreparedReader {
  private readonly view: DataView;
  private readonly text: Slicer;
  private readonly errorAt = new Map<number, string>();

  constructor(readonly batch: PreparedBatch) {
    const b = batch.bytes;
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.text = Buffer.from(b.buffer, b.byteOffset, b.byteLength) as unknown as Slicer;
    for (const e of batch.errors) this.errorAt.set(e.index, e.message);
  }

  /** The validation message of item `i`, or undefined when it is valid. */
  error(i: number): string | undefined {
    return this.batch.layout[i * LAYOUT_STRIDE] === -1 ? (this.errorAt.get(i) ?? 'invalid transaction') : undefined;
  }

  /** Item `i` (valid: check error() first). */
  item(i: number): PreparedTx {
    const { bytes, layout } = this.batch;
    const o = i * LAYOUT_STRIDE;
    const at = layout[o]!;
    const v = this.view;
    const idLen = v.getUint16(at + 48, true);
    const sigLen = v.getUint16(at + 50, true);
    const pkLen = v.getUint16(at + 52, true);
    const payLen = v.getUint32(at + 54, true);
    const idAt = at + TX_BODY_HEADER;
    const payAt = idAt + idLen;
    const sigAt = payAt + payLen;
    const pkAt = sigAt + sigLen;
    const keyAt = layout[o + 2]!;
    const keyEnd = layout[o + 3]!;
    return {
      tx: {
        txId: this.text.utf8Slice(idAt, payAt),
        payload: bytes.subarray(payAt, sigAt),
        signature: bytes.subarray(sigAt, pkAt),
        publicKey: bytes.subarray(pkAt, pkAt + pkLen),
        nonce: v.getBigUint64(at, true),
        timestamp: v.getBigUint64(at + 8, true),
      },
      fullHash: bytes.subarray(at + 16, at + 48),
      body: bytes.subarray(at, layout[o + 1]!),
      keyBytes: bytes,
      idAt,
      idEnd: payAt,
      pkNonceAt: keyAt,
      pkNonceEnd: keyEnd,
      idPrintLo: layout[o + 4]!,
      idPrintHi: layout[o + 5]!,
      pkNoncePrintLo: layout[o + 6]!,
      pkNoncePrintHi: layout[o + 7]!,
    };
  }
}

/** One transaction prepared on its own (tools, tests, recovery); throws its SubmitError when invalid. */
export function prepareOne(tx: Transaction): PreparedTx {
  const batch = prepareTransactions([tx]);
  const reader = new PreparedReader(batch);
  const invalid = reader.error(0);
  if (invalid !== undefined) throw new SubmitError('INVALID_ARGUMENT', invalid);
  return reader.item(0);
}
