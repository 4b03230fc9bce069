/**
 * Growable UTF-8 byte buffer for writing JSON records directly as bytes. Building a
 * tick record by string concatenation made hundreds of rope nodes per transaction
 * (one per byte of payload written as "12,") that all survived until the LevelDB write
 * and were promoted to the old generation; writing ASCII digits from a table into one
 * buffer allocates nothing per byte.
 */
const DIGITS: Uint8Array[] = Array.from({ length: 256 }, (_, i) => new TextEncoder().encode(String(i)));
const HEX = new TextEncoder().encode('0123456789abcdef');
const encoder = new TextEncoder();

export class JsonWriter {
  private buf: Uint8Array;
  private pos = 0;

  constructor(initial = 64 * 1024) {
    this.buf = new Uint8Array(initial);
  }

  reset(): void {
    this.pos = 0;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** ASCII text (field names, punctuation, numbers as text). */
  ascii(s: string): void {
    this.ensure(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.pos++] = s.charCodeAt(i);
  }

  /** A JSON string literal (quoted, escaped, UTF-8). */
  string(s: string): void {
    const lit = JSON.stringify(s);
    this.ensure(lit.length * 3);
    this.pos += encoder.encodeInto(lit, this.buf.subarray(this.pos)).written;
  }

  /** A JSON array of the byte values: [1,2,255]. */
  byteArray(b: Uint8Array): void {
    this.ensure(2 + b.length * 4);
    const out = this.buf;
    let p = this.pos;
    out[p++] = 0x5b; // [
    for (let i = 0; i < b.length; i++) {
      if (i > 0) out[p++] = 0x2c; // ,
      const d = DIGITS[b[i]!]!;
      for (let k = 0; k < d.length; k++) out[p++] = d[k]!;
    }
    out[p++] = 0x5d; // ]
    this.pos = p;
  }

  /** Lowercase hex digits of `b` (no quotes, no prefix). */
  hex(b: Uint8Array): void {
    this.ensure(b.length * 2);
    const out = this.buf;
    let p = this.pos;
    for (let i = 0; i < b.length; i++) {
      out[p++] = HEX[b[i]! >> 4]!;
      out[p++] = HEX[b[i]! & 15]!;
    }
    this.pos = p;
  }

  /** A copy of what was written. */
  take(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
