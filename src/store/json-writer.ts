/**
 * Growable UTF-8 byte buffer for writing JSON records directly as bytes. Building a
 * tick record by string concatenation made hundreds of rope nodes per transaction
 * (one per byte of payload written as "12,") that all survived until the LevelDB write
 * and were promoted to the old generation; writing ASCII digits from a table into one
 * buffer allocates nothing per byte.
 */
/** For each byte value, "<digits>," padded to 4 bytes, and its real length. */
const ENTRY = new Uint8Array(256 * 4);
const ENTRY_LEN = new Uint8Array(256);
for (let v = 0; v < 256; v++) {
  const text = `${v},`;
  for (let k = 0; k < text.length; k++) ENTRY[v * 4 + k] = text.charCodeAt(k);
  ENTRY_LEN[v] = text.length;
}
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
    const n = b.length;
    this.ensure(3 + n * 4);
    const out = this.buf;
    let p = this.pos;
    out[p++] = 0x5b; // [
    // Each value writes its 4-byte table entry ("7,??", "42,?", "255,") and advances by
    // its real length: no branch per digit; the last comma becomes the closing bracket.
    for (let i = 0; i < n; i++) {
      const o = b[i]! << 2;
      out[p] = ENTRY[o]!;
      out[p + 1] = ENTRY[o + 1]!;
      out[p + 2] = ENTRY[o + 2]!;
      out[p + 3] = ENTRY[o + 3]!;
      p += ENTRY_LEN[b[i]!]!;
    }
    if (n > 0) p--; // drop the trailing comma
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
