/**
 * spec/1's "Archived tick record" as stored in LevelDB (design.md "Durability"): JSON,
 * byte fields as arrays of integers, VDF proof fields as 0x-prefixed lowercase hex.
 *
 * {"tick_number":7,
 *  "vdf_proof":{"input":"0x..","output":"0x..","proof":"0x..","iterations":20},
 *  "transactions":[{"tx_id":"..","tx_hash":[32 ints],"payload":[..],"signature":[..],
 *                   "public_key":[..],"nonce":5,"timestamp":1700000000000000,
 *                   "sequence_number":1,"ingestion_timestamp":1700000000000123}],
 *  "batch_hash":[32 ints],"timestamp":1700000000000456,"previous_vdf_output":[256 ints]}
 *
 * `timestamp` inside a transaction (the client's timestamp) is not in spec/1's list but
 * is part of the hashed bytes, so a record must carry it for anyone to recompute tx_hash.
 * u64 values (nonce, client timestamp) are written as exact JSON integers even above
 * 2^53; the decoder reads those two fields as text so they survive as bigint. The
 * fields a transaction had before it was sequenced come first, so that part can be
 * written at intake (writeArchiveTxPrefix); a reader must not depend on the order.
 */
import type { OrderedTransaction, Tick, Transaction } from '../core/index.js';

import { JsonWriter } from './json-writer.js';

const writer = new JsonWriter();
const textDecoder = new TextDecoder();

/** JSON array of the byte values: [1,2,255]. */
export function bytesToJsonArray(b: Uint8Array): string {
  const w = new JsonWriter(2 + b.length * 4);
  w.byteArray(b);
  return textDecoder.decode(w.take());
}

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);
const F_TX_ID = ascii('{"tx_id":');
const F_TX_HASH = ascii(',"tx_hash":');
const F_SEQUENCE = ascii(',"sequence_number":');
const F_PAYLOAD = ascii(',"payload":');
const F_SIGNATURE = ascii(',"signature":');
const F_PUBLIC_KEY = ascii(',"public_key":');
const F_NONCE = ascii(',"nonce":');
const F_TIMESTAMP = ascii(',"timestamp":');
const F_INGESTION = ascii(',"ingestion_timestamp":');
const F_TICK_NUMBER = ascii('{"tick_number":');
const F_INPUT = ascii(',"vdf_proof":{"input":"0x');
const F_OUTPUT = ascii('","output":"0x');
const F_PROOF = ascii('","proof":"0x');
const F_ITERATIONS = ascii('","iterations":');
const F_TRANSACTIONS = ascii('},"transactions":[');
const F_BATCH_HASH = ascii('],"batch_hash":');
const F_PREVIOUS = ascii(',"previous_vdf_output":');
const COMMA = ascii(',');
const CLOSE = ascii('}');

/**
 * The part of a transaction's archived object that does not depend on where it was
 * sequenced: `{"tx_id":..,"tx_hash":..,"payload":..,"signature":..,"public_key":..,
 * "nonce":..,"timestamp":..` (no closing brace). Intake computes it off the main thread
 * (src/sequencer/prepare.ts) and the commit only appends the suffix.
 */
export function writeArchiveTxPrefix(w: JsonWriter, tx: Transaction, txHash: Uint8Array): void {
  w.raw(F_TX_ID);
  w.string(tx.txId);
  w.raw(F_TX_HASH);
  w.byteArray(txHash);
  w.raw(F_PAYLOAD);
  w.byteArray(tx.payload);
  w.raw(F_SIGNATURE);
  w.byteArray(tx.signature);
  w.raw(F_PUBLIC_KEY);
  w.byteArray(tx.publicKey);
  w.raw(F_NONCE);
  w.bigint(tx.nonce);
  w.raw(F_TIMESTAMP);
  w.bigint(tx.timestamp);
}

/** writeArchiveTxPrefix's bytes on their own (a copy). */
export function archivePrefixBytes(tx: Transaction, txHash: Uint8Array): Uint8Array {
  const w = new JsonWriter(
    256 + 4 * (tx.payload.length + tx.signature.length + tx.publicKey.length) + 4 * tx.txId.length,
  );
  writeArchiveTxPrefix(w, tx, txHash);
  return w.take();
}

/** What follows the prefix: `,"sequence_number":..,"ingestion_timestamp":..}`. */
function writeArchiveTxSuffix(w: JsonWriter, t: OrderedTransaction): void {
  w.raw(F_SEQUENCE);
  w.number(t.sequenceNumber);
  w.raw(F_INGESTION);
  w.number(t.ingestionTimestamp);
  w.raw(CLOSE);
}

function writeTransaction(w: JsonWriter, t: OrderedTransaction, prefix: Uint8Array | undefined): void {
  if (prefix) w.raw(prefix);
  else writeArchiveTxPrefix(w, t.transaction, t.txHash);
  writeArchiveTxSuffix(w, t);
}

function writeRecord(w: JsonWriter, tick: Tick, prefixes: readonly Uint8Array[] | undefined): void {
  const p = tick.vdfProof;
  w.raw(F_TICK_NUMBER);
  w.number(tick.tickNumber);
  w.raw(F_INPUT);
  w.hex(p.input);
  w.raw(F_OUTPUT);
  w.hex(p.output);
  w.raw(F_PROOF);
  w.hex(p.proof);
  w.raw(F_ITERATIONS);
  w.number(p.iterations);
  w.raw(F_TRANSACTIONS);
  for (let i = 0; i < tick.transactions.length; i++) {
    if (i > 0) w.raw(COMMA);
    writeTransaction(w, tick.transactions[i]!, prefixes?.[i]);
  }
  w.raw(F_BATCH_HASH);
  w.byteArray(tick.batchHash);
  w.raw(F_TIMESTAMP);
  w.number(tick.timestamp);
  w.raw(F_PREVIOUS);
  w.byteArray(tick.previousOutput);
  w.raw(CLOSE);
}

/** The archived JSON record of a tick, as UTF-8 bytes (what the `ticks` keyspace holds). */
export function encodeArchiveRecordBytes(tick: Tick): Uint8Array {
  writer.reset();
  writeRecord(writer, tick, undefined);
  return writer.take();
}

/**
 * The records of several ticks (encodeArchiveRecordBytes of each), written into one
 * buffer: the results are views into a single allocation. `prefixes[i][j]`, when given,
 * is writeArchiveTxPrefix's output for transaction j of tick i, copied as it is.
 */
export function encodeArchiveRecordsBytes(
  ticks: readonly Tick[],
  prefixes?: ReadonlyArray<readonly Uint8Array[] | undefined>,
): Uint8Array[] {
  const w = writer;
  w.reset();
  const ends = new Array<number>(ticks.length);
  for (let i = 0; i < ticks.length; i++) {
    writeRecord(w, ticks[i]!, prefixes?.[i]);
    ends[i] = w.length;
  }
  const all = w.take();
  const out = new Array<Uint8Array>(ticks.length);
  let start = 0;
  for (let i = 0; i < ticks.length; i++) {
    out[i] = all.subarray(start, ends[i]!);
    start = ends[i]!;
  }
  return out;
}

/** The archived JSON record of a tick, as text. */
export function encodeArchiveRecord(tick: Tick): string {
  return textDecoder.decode(encodeArchiveRecordBytes(tick));
}

export class CorruptRecordError extends Error {
  constructor(message: string) {
    super(`corrupt archived tick record: ${message}`);
    this.name = 'CorruptRecordError';
  }
}

function need<T>(ok: boolean, value: T, what: string): T {
  if (!ok) throw new CorruptRecordError(what);
  return value;
}

function bytesField(v: unknown, what: string, length?: number): Uint8Array {
  if (!Array.isArray(v)) throw new CorruptRecordError(`${what} is not a byte array`);
  if (length !== undefined && v.length !== length)
    throw new CorruptRecordError(`${what} has ${v.length} bytes, expected ${length}`);
  const out = new Uint8Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as unknown;
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > 255)
      throw new CorruptRecordError(`${what}[${i}] is not a byte`);
    out[i] = x;
  }
  return out;
}

function hexField(v: unknown, what: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x([0-9a-f]{2})*$/.test(v)) throw new CorruptRecordError(`${what} is not 0x hex`);
  return new Uint8Array(Buffer.from(v.slice(2), 'hex'));
}

function intField(v: unknown, what: string): number {
  return need(typeof v === 'number' && Number.isSafeInteger(v) && v >= 0, v as number, `${what} is not a safe integer`);
}

function u64Field(v: unknown, what: string): bigint {
  if (typeof v !== 'string' || !/^[0-9]{1,20}$/.test(v)) throw new CorruptRecordError(`${what} is not a u64`);
  const b = BigInt(v);
  if (b > 0xffff_ffff_ffff_ffffn) throw new CorruptRecordError(`${what} exceeds u64`);
  return b;
}

// nonce / timestamp of transactions may exceed 2^53: quote their digits before parsing.
// An unescaped `"nonce":` cannot occur inside a JSON string, so only the fields match.
const U64_FIELDS = /"(nonce|timestamp)":([0-9]+)/g;

/** Parse an archived record (text or its UTF-8 bytes) back into a Tick (throws CorruptRecordError). */
export function decodeArchiveRecord(record: string | Uint8Array): Tick {
  const text = typeof record === 'string' ? record : textDecoder.decode(record);
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(U64_FIELDS, '"$1":"$2"'));
  } catch (e) {
    throw new CorruptRecordError(e instanceof Error ? e.message : String(e));
  }
  if (typeof raw !== 'object' || raw === null) throw new CorruptRecordError('not an object');
  const r = raw as Record<string, unknown>;
  const p = r.vdf_proof as Record<string, unknown> | undefined;
  if (typeof p !== 'object' || p === null) throw new CorruptRecordError('vdf_proof missing');
  const txsRaw = r.transactions;
  if (!Array.isArray(txsRaw)) throw new CorruptRecordError('transactions missing');
  const transactions: OrderedTransaction[] = txsRaw.map((x: unknown, i: number) => {
    if (typeof x !== 'object' || x === null) throw new CorruptRecordError(`transactions[${i}] is not an object`);
    const t = x as Record<string, unknown>;
    const txId = t.tx_id;
    if (typeof txId !== 'string') throw new CorruptRecordError(`transactions[${i}].tx_id is not a string`);
    return {
      transaction: {
        txId,
        payload: bytesField(t.payload, `transactions[${i}].payload`),
        signature: bytesField(t.signature, `transactions[${i}].signature`),
        publicKey: bytesField(t.public_key, `transactions[${i}].public_key`),
        nonce: u64Field(t.nonce, `transactions[${i}].nonce`),
        timestamp: u64Field(t.timestamp, `transactions[${i}].timestamp`),
      },
      sequenceNumber: intField(t.sequence_number, `transactions[${i}].sequence_number`),
      txHash: bytesField(t.tx_hash, `transactions[${i}].tx_hash`, 32),
      ingestionTimestamp: intField(t.ingestion_timestamp, `transactions[${i}].ingestion_timestamp`),
    };
  });
  const timestamp = r.timestamp;
  return {
    tickNumber: intField(r.tick_number, 'tick_number'),
    vdfProof: {
      input: hexField(p.input, 'vdf_proof.input'),
      output: hexField(p.output, 'vdf_proof.output'),
      proof: hexField(p.proof, 'vdf_proof.proof'),
      iterations: intField(p.iterations, 'vdf_proof.iterations'),
    },
    transactions,
    batchHash: bytesField(r.batch_hash, 'batch_hash', 32),
    // The tick's own timestamp was quoted by the u64 pre-pass too.
    timestamp: Number(u64Field(timestamp, 'timestamp')),
    previousOutput: bytesField(r.previous_vdf_output, 'previous_vdf_output'),
  };
}
