/**
 * Hand-written protobuf codec for the hot paths of svc.sequencer.v1 (proto/.../sequencer.proto):
 * decoding SubmitTransaction/SubmitBatch requests straight into domain Transactions (u64 as
 * bigint, bytes as views into the received message, no intermediate objects), and encoding
 * submit responses and Ticks once into Buffers that grpc-js sends as they are.
 * Decoders never throw: a malformed message comes back as `{ malformed: reason }`, so the
 * handler can answer INVALID_ARGUMENT (grpc-js would turn a throwing deserializer into INTERNAL).
 * Field numbers must match the .proto; test/rpc/wire.test.ts cross-checks against protobufjs.
 */
import type { SubmitResult, Tick, Transaction } from '../../sequencer/types.js';

export interface Malformed {
  malformed: string;
}

export function isMalformed(value: unknown): value is Malformed {
  return typeof value === 'object' && value !== null && 'malformed' in value;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

class WireError extends Error {}

/** Minimal protobuf reader over one message; throws WireError on malformed input. */
class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  /** Varint as a number; values above 2^53 are rejected (callers that need u64 use varint64). */
  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new WireError('truncated varint');
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) {
        if (result > Number.MAX_SAFE_INTEGER) throw new WireError('varint too large');
        return result;
      }
      mul *= 128;
    }
    throw new WireError('varint longer than 10 bytes');
  }

  /** Full unsigned 64-bit varint as a bigint (wraps like protobuf's uint64 above 2^64). */
  varint64(): bigint {
    const start = this.pos;
    let small = 0;
    let mul = 1;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw new WireError('truncated varint');
      const b = this.buf[this.pos++]!;
      small += (b & 0x7f) * mul;
      if (b < 0x80) return BigInt(small);
      mul *= 128;
    }
    this.pos = start;
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new WireError('truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
      shift += 7n;
    }
    throw new WireError('varint longer than 10 bytes');
  }

  bytes(): Uint8Array {
    const len = this.varint();
    if (len > this.end - this.pos) throw new WireError('length-delimited field runs past the end of the message');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint64();
        return;
      case 1:
        this.advance(8);
        return;
      case 2:
        this.bytes();
        return;
      case 5:
        this.advance(4);
        return;
      default:
        throw new WireError(`unsupported wire type ${wireType}`);
    }
  }

  private advance(n: number): void {
    if (n > this.end - this.pos) throw new WireError('truncated fixed-width field');
    this.pos += n;
  }
}

function expectType(field: string, wireType: number, expected: number): void {
  if (wireType !== expected) throw new WireError(`field ${field} has wire type ${wireType}, expected ${expected}`);
}

const EMPTY = new Uint8Array(0);

function readTransaction(r: Reader, end: number): Transaction {
  const tx: Transaction = { txId: '', payload: EMPTY, signature: EMPTY, publicKey: EMPTY, nonce: 0n, timestamp: 0n };
  const sub = new Reader(r.buf, r.pos, end);
  while (sub.pos < end) {
    const tag = sub.varint();
    const field = tag >>> 3;
    const wt = tag & 7;
    switch (field) {
      case 1: {
        expectType('tx_id', wt, 2);
        const b = sub.bytes();
        try {
          tx.txId = utf8.decode(b);
        } catch {
          throw new WireError('tx_id is not valid UTF-8');
        }
        break;
      }
      case 2:
        expectType('payload', wt, 2);
        tx.payload = sub.bytes();
        break;
      case 3:
        expectType('signature', wt, 2);
        tx.signature = sub.bytes();
        break;
      case 4:
        expectType('public_key', wt, 2);
        tx.publicKey = sub.bytes();
        break;
      case 5:
        expectType('nonce', wt, 0);
        tx.nonce = sub.varint64();
        break;
      case 6:
        expectType('timestamp', wt, 0);
        tx.timestamp = sub.varint64();
        break;
      default:
        if (field === 0) throw new WireError('field number 0');
        sub.skip(wt);
    }
  }
  r.pos = end;
  return tx;
}

function embedded(r: Reader): number {
  const len = r.varint();
  if (len > r.end - r.pos) throw new WireError('embedded message runs past the end of the message');
  return r.pos + len;
}

/** SubmitTransactionRequest: the transaction, or undefined when the field is absent. */
export function decodeSubmitTransactionRequest(buf: Uint8Array): { transaction?: Transaction } | Malformed {
  try {
    const r = new Reader(buf);
    let transaction: Transaction | undefined;
    while (r.pos < r.end) {
      const tag = r.varint();
      const field = tag >>> 3;
      const wt = tag & 7;
      if (field === 1) {
        expectType('transaction', wt, 2);
        transaction = readTransaction(r, embedded(r));
      } else {
        if (field === 0) throw new WireError('field number 0');
        r.skip(wt);
      }
    }
    return transaction ? { transaction } : {};
  } catch (err) {
    if (err instanceof WireError) return { malformed: `malformed SubmitTransactionRequest: ${err.message}` };
    throw err;
  }
}

/** SubmitBatchRequest: the transactions in order; more than maxItems is refused while decoding. */
export function decodeSubmitBatchRequest(buf: Uint8Array, maxItems: number): { transactions: Transaction[] } | Malformed {
  try {
    const r = new Reader(buf);
    const transactions: Transaction[] = [];
    while (r.pos < r.end) {
      const tag = r.varint();
      const field = tag >>> 3;
      const wt = tag & 7;
      if (field === 1) {
        expectType('transactions', wt, 2);
        if (transactions.length >= maxItems) {
          return { malformed: `batch holds more than ${maxItems} transactions` };
        }
        transactions.push(readTransaction(r, embedded(r)));
      } else {
        if (field === 0) throw new WireError('field number 0');
        r.skip(wt);
      }
    }
    return { transactions };
  } catch (err) {
    if (err instanceof WireError) return { malformed: `malformed SubmitBatchRequest: ${err.message}` };
    throw err;
  }
}

/** Growable output buffer with protobuf primitives. */
export class Writer {
  private buf: Buffer;
  private pos = 0;
  constructor(initial = 256) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  varint(value: number): this {
    this.ensure(10);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.pos++] = v;
    return this;
  }

  varint64(value: bigint): this {
    if (value <= 0x1fffffffffffffn) return this.varint(Number(value));
    this.ensure(10);
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
    return this;
  }

  /** Field with a varint value; zero is omitted (proto3 default). */
  uint(field: number, value: number): this {
    if (value === 0) return this;
    return this.varint(field << 3).varint(value);
  }

  uint64(field: number, value: bigint): this {
    if (value === 0n) return this;
    return this.varint(field << 3).varint64(value);
  }

  bool(field: number, value: boolean): this {
    if (!value) return this;
    return this.varint(field << 3).varint(1);
  }

  double(field: number, value: number): this {
    if (value === 0) return this;
    this.varint((field << 3) | 1);
    this.ensure(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    if (value.length === 0) return this;
    this.varint((field << 3) | 2).varint(value.length);
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
    return this;
  }

  /** Field that is always written, even when empty (embedded messages that must be present). */
  message(field: number, value: Uint8Array): this {
    this.varint((field << 3) | 2).varint(value.length);
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
    return this;
  }

  string(field: number, value: string): this {
    if (value.length === 0) return this;
    const len = Buffer.byteLength(value, 'utf8');
    this.varint((field << 3) | 2).varint(len);
    this.ensure(len);
    this.buf.write(value, this.pos, len, 'utf8');
    this.pos += len;
    return this;
  }

  /** Embedded message written by `fill` into this buffer, length prefixed (one pass, no copy). */
  nested(field: number, fill: (w: Writer) => void): this {
    this.varint((field << 3) | 2);
    // Reserve 3 bytes for the length (messages < 2 MiB); move the body if the length needs more.
    this.ensure(3);
    const lenPos = this.pos;
    this.pos += 3;
    fill(this);
    const bodyLen = this.pos - lenPos - 3;
    const lenBytes = varintSize(bodyLen);
    if (lenBytes !== 3) {
      this.ensure(lenBytes);
      this.buf.copy(this.buf, lenPos + lenBytes, lenPos + 3, this.pos);
      this.pos += lenBytes - 3;
    }
    let v = bodyLen;
    for (let i = 0; i < lenBytes; i++) {
      this.buf[lenPos + i] = i === lenBytes - 1 ? v : (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    return this;
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** First 4 bytes of the full hash as 8 lowercase hex characters (the wire tx_hash). */
export function shortHash(fullHash: Uint8Array): string {
  return hex(fullHash.subarray(0, 4));
}

function writeResult(w: Writer, r: SubmitResult): void {
  w.uint(1, r.sequenceNumber).uint(2, r.expectedTick).string(3, r.txHash);
}

export function encodeSubmitTransactionResponse(r: SubmitResult): Buffer {
  const w = new Writer(32);
  writeResult(w, r);
  return w.finish();
}

/** Failed items (undefined) keep their place as an empty response: sequence_number 0, tx_hash "". */
export function encodeSubmitBatchResponse(results: ReadonlyArray<SubmitResult | undefined>): Buffer {
  const w = new Writer(16 + results.length * 24);
  for (const r of results) {
    if (r) w.nested(1, (inner) => writeResult(inner, r));
    else w.message(1, EMPTY);
  }
  return w.finish();
}

export function writeTransaction(w: Writer, tx: Transaction): void {
  w.string(1, tx.txId).bytes(2, tx.payload).bytes(3, tx.signature).bytes(4, tx.publicKey).uint64(5, tx.nonce).uint64(6, tx.timestamp);
}

export function writeOrderedTransaction(w: Writer, o: Tick['transactions'][number]): void {
  w.nested(1, (inner) => writeTransaction(inner, o.transaction));
  w.uint(2, o.sequenceNumber).string(3, shortHash(o.txHash)).uint(4, o.ingestionTimestamp);
}

export function writeTick(w: Writer, tick: Tick): void {
  w.uint(1, tick.tickNumber);
  w.nested(2, (p) => {
    p.string(1, hex(tick.vdfProof.input)).string(2, hex(tick.vdfProof.output)).string(3, hex(tick.vdfProof.proof));
    p.uint(4, tick.vdfProof.iterations);
  });
  for (const o of tick.transactions) w.nested(3, (inner) => writeOrderedTransaction(inner, o));
  w.string(4, hex(tick.batchHash)).uint(5, tick.timestamp).string(6, hex(tick.previousOutput));
}

/** One Tick message, encoded once and shared by every stream and query that sends it. */
export function encodeTick(tick: Tick): Buffer {
  const w = new Writer(1024 + tick.transactions.length * 320);
  writeTick(w, tick);
  return w.finish();
}

/** GetTickResponse around an already encoded Tick. */
export function encodeGetTickResponse(encodedTick: Uint8Array | undefined): Buffer {
  const w = new Writer((encodedTick?.length ?? 0) + 16);
  if (encodedTick) w.message(1, encodedTick).bool(2, true);
  return w.finish();
}

export function encodeGetTransactionResponse(found: { tickNumber: number; transaction: Tick['transactions'][number] } | undefined): Buffer {
  const w = new Writer(512);
  if (found) {
    w.nested(1, (inner) => writeOrderedTransaction(inner, found.transaction));
    w.uint(2, found.tickNumber).bool(3, true);
  }
  return w.finish();
}

export interface StatusFigures {
  currentTick: number;
  totalTransactions: number;
  pendingTransactions: number;
  uptimeSeconds: number;
  transactionsPerSecond: number;
}

export function encodeGetStatusResponse(s: StatusFigures): Buffer {
  const w = new Writer(64);
  w.uint(1, s.currentTick).uint(2, s.totalTransactions).uint(3, s.pendingTransactions).uint(4, Math.floor(s.uptimeSeconds));
  w.double(5, s.transactionsPerSecond);
  return w.finish();
}

export interface ChainStateFigures {
  chainHeight: number;
  totalTransactions: number;
  recentTicks: Uint8Array[]; // encoded Tick messages, newest first
  txToTickSample: Array<[string, number]>;
}

export function encodeGetChainStateResponse(c: ChainStateFigures): Buffer {
  const w = new Writer(256 + c.recentTicks.reduce((n, t) => n + t.length + 4, 0) + c.txToTickSample.length * 20);
  w.uint(1, c.chainHeight).uint(2, c.totalTransactions);
  for (const t of c.recentTicks) w.message(3, t);
  for (const [key, tick] of c.txToTickSample) w.nested(4, (e) => e.string(1, key).uint(2, tick));
  return w.finish();
}
