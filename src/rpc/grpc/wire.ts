/**
 * Hand-written protobuf encoders of svc.sequencer.v1 (proto/.../sequencer.proto): submit
 * responses and Ticks, encoded once into Buffers that grpc-js sends as they are. The request
 * decoders live in ./requests.ts (re-exported here). Field numbers must match the .proto;
 * test/rpc/wire.test.ts cross-checks against protobufjs.
 */
import type { SubmitResult, Tick, Transaction } from '../../core/types.js';
import { shortHash } from '../../core/tx-hash.js';

export { shortHash };

export { decodeSubmitBatchRequest, decodeSubmitTransactionRequest, isMalformed, type Malformed } from './requests.js';

const EMPTY = new Uint8Array(0);

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

/** Node's fast path for the wire's long hex fields (VDF values); src/core/hex.ts elsewhere. */
export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
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
