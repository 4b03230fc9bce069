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
/** The same entries as little-endian 32-bit words (one store per value). */
const ENTRY32 = new Uint32Array(256);
for (let v = 0; v < 256; v++) {
  ENTRY32[v] = (ENTRY[v * 4]! | (ENTRY[v * 4 + 1]! << 8) | (ENTRY[v * 4 + 2]! << 16) | (ENTRY[v * 4 + 3]! << 24)) >>> 0;
}
const HEX = new TextEncoder().encode('0123456789abcdef');
const encoder = new TextEncoder();
/** Characters a JSON string literal can hold as themselves: printable ASCII but `"` and `\`. */
const PLAIN = new Uint8Array(128);
for (let c = 0x20; c < 0x7f; c++) PLAIN[c] = c === 0x22 || c === 0x5c ? 0 : 1;

export class JsonWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;

  constructor(initial = 64 * 1024) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
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
    this.view = new DataView(next.buffer);
  }

  /** ASCII text (field names, punctuation, numbers as text). */
  ascii(s: string): void {
    this.ensure(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.pos++] = s.charCodeAt(i);
  }

  /** Pre-encoded bytes (constant fragments, pre-written parts of a record). */
  raw(b: Uint8Array): void {
    const n = b.length;
    this.ensure(n);
    const out = this.buf;
    if (n > 32) {
      // Long runs (a transaction's pre-written archive prefix): one memcpy.
      out.set(b, this.pos);
      this.pos += n;
      return;
    }
    let p = this.pos;
    for (let i = 0; i < n; i++) out[p++] = b[i]!;
    this.pos = p;
  }

  /**
   * A number as JSON writes it (`String(n)`): non-negative safe integers digit by digit
   * into the buffer (no string), anything else through String().
   */
  number(n: number): void {
    if (!(n >= 0 && n <= Number.MAX_SAFE_INTEGER && Math.floor(n) === n)) {
      this.ascii(String(n));
      return;
    }
    if (n < 100_000_000) {
      this.small(n);
      return;
    }
    // Up to 16 digits: the high part, then the low 8 digits zero-padded (int32 math).
    const hi = Math.floor(n / 100_000_000);
    const lo = n - hi * 100_000_000;
    this.small(hi);
    this.ensure(8);
    const out = this.buf;
    let v = lo;
    for (let p = this.pos + 7; p >= this.pos; p--) {
      const q = (v / 10) | 0;
      out[p] = 0x30 + v - q * 10;
      v = q;
    }
    this.pos += 8;
  }

  /** Digits of an integer in [0, 1e8) (int32 math). */
  private small(n: number): void {
    const digits =
      n < 10
        ? 1
        : n < 100
          ? 2
          : n < 1000
            ? 3
            : n < 10_000
              ? 4
              : n < 100_000
                ? 5
                : n < 1_000_000
                  ? 6
                  : n < 10_000_000
                    ? 7
                    : 8;
    this.ensure(digits);
    const out = this.buf;
    let p = this.pos + digits;
    this.pos = p;
    let v = n | 0;
    do {
      const q = (v / 10) | 0;
      out[--p] = 0x30 + v - q * 10;
      v = q;
    } while (v > 0);
  }

  /** A bigint as exact JSON integer digits (`v.toString()`). */
  bigint(v: bigint): void {
    if (v >= 0n && v <= 9_007_199_254_740_991n) this.number(Number(v));
    else this.ascii(v.toString());
  }

  /** A JSON string literal (quoted, escaped, UTF-8), byte for byte what JSON.stringify gives. */
  string(s: string): void {
    const n = s.length;
    // Printable ASCII without quotes or backslashes (the usual tx_id): JSON.stringify
    // leaves it as is, so copy the characters between two quotes.
    let plain = true;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 128 || PLAIN[c] === 0) {
        plain = false;
        break;
      }
    }
    if (plain) {
      this.ensure(n + 2);
      const out = this.buf;
      let p = this.pos;
      out[p++] = 0x22;
      for (let i = 0; i < n; i++) out[p++] = s.charCodeAt(i);
      out[p++] = 0x22;
      this.pos = p;
      return;
    }
    const lit = JSON.stringify(s);
    this.ensure(lit.length * 3);
    this.pos += encoder.encodeInto(lit, this.buf.subarray(this.pos)).written;
  }

  /** A JSON array of the byte values: [1,2,255]. */
  byteArray(b: Uint8Array): void {
    const n = b.length;
    this.ensure(3 + n * 4);
    const out = this.buf;
    const view = this.view;
    let p = this.pos;
    out[p++] = 0x5b; // [
    // Each value writes its 4-byte table entry ("7,??", "42,?", "255,") in one 32-bit
    // store and advances by its real length: no branch per digit; the last comma
    // becomes the closing bracket. (ensure() above leaves room for the 4-byte stores.)
    for (let i = 0; i < n; i++) {
      const v = b[i]!;
      view.setUint32(p, ENTRY32[v]!, true);
      p += ENTRY_LEN[v]!;
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

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /** What was written, as a view that the next write may change (copy it before then). */
  written(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** A copy of what was written. */
  take(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
