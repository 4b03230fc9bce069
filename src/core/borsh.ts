/**
 * A tiny Borsh writer/reader for the fixed structs of the order book (OrderIntent,
 * CancelOrderData, ReceiptData, market creation). Hand-written rather than schema-driven
 * so every byte is explicit (docs/signing.md mirrors this file) and so the server's hot
 * path allocates one buffer per struct. Browser-safe: no node:* imports. Cross-checked
 * against the `borsh` package in test/sdk.
 */

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const utf8 = new TextEncoder();

export class BorshWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;

  constructor(capacity = 128) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf);
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 255) throw new RangeError(`u8 out of range: ${v}`);
    this.ensure(1);
    this.buf[this.pos++] = v;
    return this;
  }

  u32(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`u32 out of range: ${v}`);
    this.ensure(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
    return this;
  }

  u64(v: bigint): this {
    if (v < 0n || v > U64_MAX) throw new RangeError(`u64 out of range: ${v}`);
    this.ensure(8);
    this.view.setBigUint64(this.pos, v, true);
    this.pos += 8;
    return this;
  }

  i64(v: bigint): this {
    if (v < I64_MIN || v > I64_MAX) throw new RangeError(`i64 out of range: ${v}`);
    this.ensure(8);
    this.view.setBigInt64(this.pos, v, true);
    this.pos += 8;
    return this;
  }

  /** A fixed-size byte array `[u8; N]`: the bytes as they are, no length prefix. */
  fixed(bytes: Uint8Array, size: number): this {
    if (bytes.length !== size) throw new RangeError(`expected ${size} bytes, got ${bytes.length}`);
    this.ensure(size);
    this.buf.set(bytes, this.pos);
    this.pos += size;
    return this;
  }

  /** `String`: u32 little-endian byte length, then the UTF-8 bytes. */
  string(s: string): this {
    const bytes = utf8.encode(s);
    this.u32(bytes.length);
    return this.fixed(bytes, bytes.length);
  }

  /** `Vec<u8>`: u32 little-endian length, then the bytes. */
  bytes(b: Uint8Array): this {
    this.u32(b.length);
    return this.fixed(b, b.length);
  }

  toBytes(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

export class BorshReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new RangeError('borsh: unexpected end of input');
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++]!;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  i64(): bigint {
    this.need(8);
    const v = this.view.getBigInt64(this.pos, true);
    this.pos += 8;
    return v;
  }

  fixed(size: number): Uint8Array {
    this.need(size);
    const out = this.buf.subarray(this.pos, this.pos + size);
    this.pos += size;
    return out;
  }

  string(maxBytes = 1024): string {
    const n = this.u32();
    if (n > maxBytes) throw new RangeError(`borsh: string of ${n} bytes exceeds ${maxBytes}`);
    return new TextDecoder('utf-8', { fatal: true }).decode(this.fixed(n));
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }
}

export { U64_MAX, I64_MIN, I64_MAX };
