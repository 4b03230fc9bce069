/**
 * Compact binary form of a tick for the in-memory window (design.md: "not one JS object
 * with hex strings per tick"). One record is a run of bytes inside a larger chunk:
 *
 *   0 u32 record bytes | 4 u32 flags | 8 f64 tick number | 16 f64 timestamp
 *  24 f64 iterations | 32 f64 first sequence number | 40 u32 tx count | 44 u32 0
 *  48 [32] batch hash | 80 [256] input | 336 [256] output
 *  then [256] proof unless FLAG_TRIVIAL_PROOF (proof = the identity element 1) or
 *       FLAG_PROOF_APART (the disk store keeps it under its own key)
 *  then [256] previous output if FLAG_PREV_INLINE (otherwise it is the output of the
 *       previous record, which the store keeps next to it)
 *  then per transaction: f64 ingestion timestamp | the transaction body of
 *       src/core/tx-record.ts (nonce, client timestamp, full hash, lengths, bytes),
 *       unless FLAG_TXS_APART: then the record ends here and the transactions are kept
 *       elsewhere (the disk store keeps them one key each, src/store/disk-store.ts)
 * The disk layout (`apart`) sets FLAG_TXS_APART always and FLAG_PROOF_APART for a
 * non-trivial proof, so each byte of a tick is written once even when its proof comes
 * later (docs/storage.md).
 * Sequence numbers within a tick are consecutive (the clock takes a prefix of the
 * queue), so only the first is stored. All numbers little-endian.
 */
import type { OrderedTransaction, Tick, TickSummary } from '../core/index.js';
import { readTxBody, txBodyLength, writeTxBody } from '../core/index.js';

export const FLAG_TRIVIAL_PROOF = 1;
export const FLAG_PREV_INLINE = 2;
export const FLAG_TXS_APART = 4;
export const FLAG_PROOF_APART = 8;
const HEADER = 80;
const ELEMENT = 256;

const encoder = new TextEncoder();

/** The group's identity as a 256-byte element: the proof of every trivial segment. */
export const ONE_ELEMENT: Uint8Array = (() => {
  const b = new Uint8Array(ELEMENT);
  b[ELEMENT - 1] = 1;
  return b;
})();

function isOne(b: Uint8Array): boolean {
  if (b.length !== ELEMENT || b[ELEMENT - 1] !== 1) return false;
  for (let i = 0; i < ELEMENT - 1; i++) if (b[i] !== 0) return false;
  return true;
}

/**
 * A tick, with each transaction's body (src/core/tx-record.ts) when the caller has it
 * written already (the sequencer's intake does: then packing is a copy per transaction).
 */
export interface PackInput {
  tick: Tick;
  bodies?: readonly Uint8Array[];
}

/** Bytes the packed record will take. */
export function packedSize(input: PackInput, prevInline: boolean, apart = false): number {
  const { tick } = input;
  let size = HEADER + 2 * ELEMENT;
  if (!apart && !isOne(tick.vdfProof.proof)) size += ELEMENT;
  if (prevInline) size += ELEMENT;
  if (apart) return size;
  for (let i = 0; i < tick.transactions.length; i++) {
    if (input.bodies) {
      size += 8 + input.bodies[i]!.length;
      continue;
    }
    const tx = tick.transactions[i]!.transaction;
    size += 8 + txBodyLength(tx, encoder.encode(tx.txId).length);
  }
  return size;
}

/** Write the record at `off` of `buf` (which must have packedSize() bytes free). */
export function writePacked(
  buf: Uint8Array,
  view: DataView,
  off: number,
  input: PackInput,
  prevInline: boolean,
  apart = false,
): number {
  const { tick } = input;
  const trivial = isOne(tick.vdfProof.proof);
  const txs = tick.transactions;
  const firstSeq = txs.length > 0 ? txs[0]!.sequenceNumber : 0;
  const start = off;
  const flags =
    (trivial ? FLAG_TRIVIAL_PROOF : apart ? FLAG_PROOF_APART : 0) |
    (prevInline ? FLAG_PREV_INLINE : 0) |
    (apart ? FLAG_TXS_APART : 0);
  view.setUint32(off + 4, flags, true);
  view.setFloat64(off + 8, tick.tickNumber, true);
  view.setFloat64(off + 16, tick.timestamp, true);
  view.setFloat64(off + 24, tick.vdfProof.iterations, true);
  view.setFloat64(off + 32, firstSeq, true);
  view.setUint32(off + 40, txs.length, true);
  view.setUint32(off + 44, 0, true);
  buf.set(tick.batchHash, off + 48);
  buf.set(tick.vdfProof.input, off + 80);
  buf.set(tick.vdfProof.output, off + 336);
  off += HEADER + 2 * ELEMENT;
  if (!trivial && !apart) {
    buf.set(tick.vdfProof.proof, off);
    off += ELEMENT;
  }
  if (prevInline) {
    buf.set(tick.previousOutput, off);
    off += ELEMENT;
  }
  for (let i = 0; i < txs.length; i++) {
    const o = txs[i]!;
    if (o.sequenceNumber !== firstSeq + i)
      throw new Error(`tick ${tick.tickNumber}: sequence numbers are not consecutive`);
    if (apart) continue;
    view.setFloat64(off, o.ingestionTimestamp, true);
    const body = input.bodies?.[i];
    if (body) {
      buf.set(body, off + 8);
      off += 8 + body.length;
    } else off = writeTxBody(buf, view, off + 8, o.transaction, encoder.encode(o.transaction.txId), o.txHash);
  }
  view.setUint32(start, off - start, true);
  return off - start;
}

export function recordLength(view: DataView, off: number): number {
  return view.getUint32(off, true);
}
export function recordTickNumber(view: DataView, off: number): number {
  return view.getFloat64(off + 8, true);
}

/** The record's flags, first sequence number and transaction count, without decoding it. */
export function readCounts(view: DataView, off: number): { flags: number; firstSequence: number; txCount: number } {
  // flags & FLAG_PROOF_APART: the proof is stored apart
  return {
    flags: view.getUint32(off + 4, true),
    firstSequence: view.getFloat64(off + 32, true),
    txCount: view.getUint32(off + 40, true),
  };
}

/** The summary fields without decoding the record. */
export function readSummary(view: DataView, off: number): TickSummary {
  return {
    tickNumber: view.getFloat64(off + 8, true),
    timestamp: view.getFloat64(off + 16, true),
    transactionCount: view.getUint32(off + 40, true),
  };
}

/** View (no copy) of the record's output element. */
export function outputView(buf: Uint8Array, off: number): Uint8Array {
  return buf.subarray(off + 336, off + 336 + ELEMENT);
}

/** What a disk record keeps apart: its transactions in order, and its proof (undefined: not stored yet). */
export interface KeptApart {
  transactions: OrderedTransaction[];
  proof: Uint8Array | undefined;
}

/**
 * Decode a record; `previousOutput` is needed unless the record carries it inline, and
 * `apart` when the record keeps its transactions or proof apart. A proof kept apart and
 * not stored yet decodes as the all-zero element (a pending proof).
 */
export function readPacked(
  buf: Uint8Array,
  view: DataView,
  off: number,
  previousOutput?: Uint8Array,
  apart?: KeptApart,
): Tick {
  const flags = view.getUint32(off + 4, true);
  const tickNumber = view.getFloat64(off + 8, true);
  const timestamp = view.getFloat64(off + 16, true);
  const iterations = view.getFloat64(off + 24, true);
  const firstSeq = view.getFloat64(off + 32, true);
  const count = view.getUint32(off + 40, true);
  const batchHash = buf.slice(off + 48, off + 80);
  const input = buf.slice(off + 80, off + 336);
  const output = buf.slice(off + 336, off + 592);
  let p = off + HEADER + 2 * ELEMENT;
  let proof: Uint8Array;
  if (flags & FLAG_TRIVIAL_PROOF) proof = ONE_ELEMENT.slice();
  else if (flags & FLAG_PROOF_APART) proof = apart?.proof?.slice() ?? new Uint8Array(ELEMENT);
  else {
    proof = buf.slice(p, p + ELEMENT);
    p += ELEMENT;
  }
  let prev: Uint8Array;
  if (flags & FLAG_PREV_INLINE) {
    prev = buf.slice(p, p + ELEMENT);
    p += ELEMENT;
  } else {
    if (!previousOutput) throw new Error(`tick ${tickNumber}: previous output not available`);
    prev = previousOutput.slice();
  }
  let transactions: OrderedTransaction[];
  if (flags & FLAG_TXS_APART) {
    if (!apart || apart.transactions.length !== count)
      throw new Error(`tick ${tickNumber}: ${count} transactions expected, ${apart?.transactions.length ?? 0} found`);
    transactions = apart.transactions;
  } else transactions = new Array<OrderedTransaction>(count);
  for (let i = 0; i < count && !(flags & FLAG_TXS_APART); i++) {
    const ingestionTimestamp = view.getFloat64(p, true);
    const body = readTxBody(buf, view, p + 8);
    p = body.end;
    transactions[i] = {
      transaction: body.tx,
      sequenceNumber: firstSeq + i,
      txHash: body.fullHash,
      ingestionTimestamp,
    };
  }
  return {
    tickNumber,
    vdfProof: { input, output, proof, iterations },
    transactions,
    batchHash,
    timestamp,
    previousOutput: prev,
  };
}
