/**
 * A strict protobuf reader for request messages (docs/api.md "Request decoding"). It accepts
 * exactly the encodings the protobuf wire format defines and throws WireError on anything
 * else, so every decoder built on it answers malformed input with INVALID_ARGUMENT:
 *
 *   tag         varint <= 2^32 - 1; field number 1 .. 2^29 - 1 (0 refused)
 *   wire types  0 varint, 1 fixed64, 2 length-delimited, 5 fixed32; 3/4 (groups, deprecated
 *               and never used by this API) and 6/7 (undefined) refused
 *   varint      at most 10 bytes and below 2^64 (the 10th byte is 0 or 1); non-minimal
 *               encodings (0x81 0x00 for 1) are valid protobuf and accepted
 *   lengths     must fit in what is left of the enclosing message
 *
 * Valid fields a decoder does not know are skipped (protobuf's forward compatibility);
 * a known field with another wire type than its declared one is refused.
 */

export class WireError extends Error {}

/** Wire types of the protobuf encoding. */
export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const FIXED32 = 5;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class ProtoReader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** The next tag as [field number, wire type]. */
  tag(): [number, number] {
    const tag = this.varint();
    if (tag > 0xffffffff) throw new WireError('tag above 2^32 - 1');
    const field = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (field === 0) throw new WireError('field number 0');
    if (wireType === 3 || wireType === 4)
      throw new WireError(`field ${field} uses a group (wire type ${wireType}), which this API does not accept`);
    if (wireType === 6 || wireType === 7) throw new WireError(`field ${field} has the undefined wire type ${wireType}`);
    return [field, wireType];
  }

  /** Varint as a number; values above 2^53 - 1 are refused (lengths, tags; use varint64 for u64). */
  varint(): number {
    const v = this.varint64();
    if (v > 0x1fffffffffffffn) throw new WireError('varint above 2^53 - 1');
    return Number(v);
  }

  /** Unsigned 64-bit varint: at most 10 bytes, below 2^64. */
  varint64(): bigint {
    // Fast path: up to 7 bytes (49 bits) in a number.
    let small = 0;
    let mul = 1;
    const start = this.pos;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw new WireError('truncated varint');
      const b = this.buf[this.pos++]!;
      small += (b & 0x7f) * mul;
      if (b < 0x80) return BigInt(small);
      mul *= 128;
    }
    this.pos = start;
    let result = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new WireError('truncated varint');
      const b = this.buf[this.pos++]!;
      if (i === 9 && b >= 0x80) break; // an 11th byte would follow
      if (i === 9 && b > 1) throw new WireError('varint above 2^64 - 1');
      result |= BigInt(b & 0x7f) << BigInt(7 * i);
      if (b < 0x80) return result;
    }
    throw new WireError('varint longer than 10 bytes');
  }

  /** A length-delimited field's bytes (a view, not a copy). */
  bytes(): Uint8Array {
    const len = this.varint();
    if (len > this.end - this.pos) throw new WireError('length-delimited field runs past the end of the message');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  /** A length-delimited field as UTF-8 text; invalid UTF-8 is refused. */
  string(name: string): string {
    const b = this.bytes();
    try {
      return utf8.decode(b);
    } catch {
      throw new WireError(`${name} is not valid UTF-8`);
    }
  }

  /** An embedded message: returns the end offset of its bytes (the reader stays at its start). */
  embedded(): number {
    const len = this.varint();
    if (len > this.end - this.pos) throw new WireError('embedded message runs past the end of the message');
    return this.pos + len;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case VARINT:
        this.varint64();
        return;
      case FIXED64:
        this.advance(8);
        return;
      case LEN:
        this.bytes();
        return;
      case FIXED32:
        this.advance(4);
        return;
      default:
        throw new WireError(`wire type ${wireType}`); // tag() never returns others
    }
  }

  private advance(n: number): void {
    if (n > this.end - this.pos) throw new WireError('truncated fixed-width field');
    this.pos += n;
  }
}

/** Refuse a known field sent with another wire type than its declared one. */
export function expectWireType(name: string, wireType: number, expected: number): void {
  if (wireType !== expected) throw new WireError(`field ${name} has wire type ${wireType}, expected ${expected}`);
}

/**
 * The known fields of a message, for checking a whole message's encoding before another
 * decoder (protobufjs, for messages without a hand-written decoder) reads it: each known field's
 * wire type, nested messages recursively, strings as UTF-8. Unknown fields only need a valid
 * encoding.
 */
export interface MessageSchema {
  [field: number]: { name: string; wireType: number; message?: MessageSchema; utf8?: boolean };
}

/** Throw WireError unless `buf[start, end)` is a valid encoding of a message of `schema`. */
export function checkMessage(schema: MessageSchema, buf: Uint8Array, start = 0, end = buf.length): void {
  const r = new ProtoReader(buf, start, end);
  while (!r.done) {
    const [field, wt] = r.tag();
    const known = schema[field];
    if (!known) {
      r.skip(wt);
      continue;
    }
    expectWireType(known.name, wt, known.wireType);
    if (known.message) {
      const stop = r.embedded();
      checkMessage(known.message, buf, r.pos, stop);
      r.pos = stop;
    } else if (known.utf8) r.string(known.name);
    else r.skip(wt);
  }
}
