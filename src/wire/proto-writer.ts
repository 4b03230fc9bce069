/**
 * The protobuf writer every hand-written encoder builds on (the sequencer's Ticks and submit
 * responses, the chain's StreamTx batches, the full node's block roots): a growable Buffer
 * with the wire format's primitives, proto3 defaults omitted, embedded messages written in
 * one pass. Encoders using it are cross-checked against protobufjs in their tests.
 */

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

  /**
   * A string field holding the lowercase hex of `value` (written as ASCII straight from the
   * bytes, no intermediate string); empty bytes are omitted like an empty string.
   */
  hex(field: number, value: Uint8Array): this {
    if (value.length === 0) return this;
    const len = value.length * 2;
    this.varint((field << 3) | 2).varint(len);
    this.ensure(len);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < value.length; i++) {
      const b = value[i]!;
      buf[pos++] = HEX_ASCII[b >> 4]!;
      buf[pos++] = HEX_ASCII[b & 15]!;
    }
    this.pos = pos;
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

  /**
   * A copy of what was written, in a buffer of its own sized exactly; then the writer is
   * empty again. For a long-lived writer reused as scratch space: one exact allocation per
   * message (pooled by Node below 4 KiB) instead of an oversized one that may grow twice.
   */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.pos = 0;
    return out;
  }
}

/**
 * A writer kept between calls as scratch space for messages encoded once and then held or
 * shared (Ticks, StreamTx batches): each message is built in it and copied out at its exact
 * size, so a message costs one allocation (pooled by Node below 4 KiB) instead of an
 * estimated buffer that lands above the pool or grows. Not re-entrant: `fill` must not
 * encode with the same scratch. A message far above `bytes` leaves a fresh scratch behind,
 * so one huge message does not pin its size.
 */
export class ScratchWriter {
  private writer: Writer;
  constructor(private readonly bytes = 16 * 1024) {
    this.writer = new Writer(bytes);
  }

  encode(fill: (w: Writer) => void): Buffer {
    fill(this.writer);
    const out = this.writer.take();
    if (out.length > 16 * this.bytes) this.writer = new Writer(this.bytes);
    return out;
  }
}

/** '0'..'9', 'a'..'f' as ASCII codes. */
const HEX_ASCII = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}
