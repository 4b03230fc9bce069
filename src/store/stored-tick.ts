/**
 * The two binary values the disk store keeps per tick (docs/storage.md "Tick sequencer"):
 *
 *   ticks <n>    the tick's packed record (./packed.ts) in the disk layout: header, batch
 *                hash, input, output, the previous output only when no record is before
 *                it (tick 1, the first tick of a store seeded from a snapshot); 592 bytes
 *   proofs <n>   the tick's proof (256 bytes) unless trivial, written with the tick or
 *                when the pool has it, so nothing is written twice
 *   txs <seq>    one transaction:  0 f64 tick number | 8 f64 ingestion timestamp |
 *                16 the body of src/core/tx-record.ts (nonce, client timestamp, full hash,
 *                lengths, tx_id, payload, signature, public_key); little-endian
 *
 * So a tick on disk costs about its content (a 2048-bit input, output and proof are 768
 * bytes), and reading one transaction reads that transaction alone. The spec/1 JSON
 * record (./archive.ts) is produced from these on demand. No I/O.
 */
import type { OrderedTransaction, Tick } from '../core/index.js';
import { readTxBody, txBodyLength, writeTxBody } from '../core/index.js';
import { FLAG_PROOF_APART, packedSize, readCounts, readPacked, writePacked } from './packed.js';

const encoder = new TextEncoder();
const TX_PREFIX = 16;

/** The `ticks` value of a tick; `prevInline` when the tick before it is not stored. */
export function encodeStoredTick(tick: Tick, prevInline: boolean): Uint8Array {
  const buf = new Uint8Array(packedSize({ tick }, prevInline, true));
  writePacked(buf, new DataView(buf.buffer), 0, { tick }, prevInline, true);
  return buf;
}

/** First sequence number and count of a `ticks` value, and whether its proof is under `proofs`, without decoding it. */
export function storedTickCounts(value: Uint8Array): { firstSequence: number; txCount: number; proofApart: boolean } {
  const { flags, firstSequence, txCount } = readCounts(
    new DataView(value.buffer, value.byteOffset, value.byteLength),
    0,
  );
  return { firstSequence, txCount, proofApart: (flags & FLAG_PROOF_APART) !== 0 };
}

/**
 * Decode a `ticks` value with its transactions (from `txs`), its proof (from `proofs`;
 * undefined: not stored yet, decoded as the pending all-zero proof) and, unless inline,
 * the previous tick's output.
 */
export function decodeStoredTick(
  value: Uint8Array,
  previousOutput: Uint8Array | undefined,
  transactions: OrderedTransaction[],
  proof: Uint8Array | undefined,
): Tick {
  return readPacked(value, new DataView(value.buffer, value.byteOffset, value.byteLength), 0, previousOutput, {
    transactions,
    proof,
  });
}

/** The output element of a `ticks` value, as a view (no copy). */
export function storedTickOutput(value: Uint8Array): Uint8Array {
  return value.subarray(336, 592);
}

/** The `txs` value of a transaction; `body` is its tx-record body when intake wrote it already. */
export function encodeStoredTx(tickNumber: number, o: OrderedTransaction, body?: Uint8Array): Uint8Array {
  const idBytes = body ? undefined : encoder.encode(o.transaction.txId);
  const bodyLength = body ? body.length : txBodyLength(o.transaction, idBytes!.length);
  const buf = new Uint8Array(TX_PREFIX + bodyLength);
  const view = new DataView(buf.buffer);
  if (body) writeStoredTx(buf, view, 0, tickNumber, o, body);
  else {
    writeStoredTxPrefix(view, 0, tickNumber, o);
    writeTxBody(buf, view, TX_PREFIX, o.transaction, idBytes!, o.txHash);
  }
  return buf;
}

/** Bytes of the `txs` value of a transaction whose body intake wrote. */
export function storedTxLength(body: Uint8Array): number {
  return TX_PREFIX + body.length;
}

/** The `txs` value of a transaction whose body intake wrote, into `buf` at `at`; returns the offset after it. */
export function writeStoredTx(
  buf: Uint8Array,
  view: DataView,
  at: number,
  tickNumber: number,
  o: OrderedTransaction,
  body: Uint8Array,
): number {
  writeStoredTxPrefix(view, at, tickNumber, o);
  buf.set(body, at + TX_PREFIX);
  return at + TX_PREFIX + body.length;
}

function writeStoredTxPrefix(view: DataView, at: number, tickNumber: number, o: OrderedTransaction): void {
  view.setFloat64(at, tickNumber, true);
  view.setFloat64(at + 8, o.ingestionTimestamp, true);
}

/** Decode a `txs` value (the sequence number is its key). */
export function decodeStoredTx(
  value: Uint8Array,
  sequenceNumber: number,
): { tickNumber: number; transaction: OrderedTransaction } {
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const body = readTxBody(value, view, TX_PREFIX);
  return {
    tickNumber: view.getFloat64(0, true),
    transaction: {
      transaction: body.tx,
      sequenceNumber,
      txHash: body.fullHash,
      ingestionTimestamp: view.getFloat64(8, true),
    },
  };
}
