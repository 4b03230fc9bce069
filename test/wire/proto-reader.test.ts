/**
 * The strict protobuf reader (src/wire/proto-reader.ts), against its documented rules: it
 * reads what protobufjs writes, skips valid unknown fields, and refuses every malformed
 * encoding (field number 0, tags past 2^32 - 1, groups and undefined wire types, varints past
 * 10 bytes or 2^64 - 1, lengths past the message's end, invalid UTF-8, a known field with
 * another wire type) with a WireError naming what is wrong. Random and truncated bytes end
 * either in a read or in a WireError, never in another exception.
 */
import { expect } from 'chai';
import protobuf from 'protobufjs';
import { checkMessage, LEN, ProtoReader, VARINT, WireError, type MessageSchema } from '../../src/wire/index.js';

const INNER: MessageSchema = { 1: { name: 'inner.text', wireType: LEN, utf8: true } };
const SCHEMA: MessageSchema = {
  1: { name: 'id', wireType: VARINT },
  2: { name: 'name', wireType: LEN, utf8: true },
  3: { name: 'inner', wireType: LEN, message: INNER },
};

describe('wire/proto-reader', () => {
  it('reads what protobufjs writes: varints to 2^64 - 1, fixed widths, bytes, text, nested messages', () => {
    const w = protobuf.Writer.create();
    w.uint32((1 << 3) | 0).uint64('18446744073709551615');
    w.uint32((2 << 3) | 2).string('héllo');
    w.uint32((4 << 3) | 1).fixed64(7);
    w.uint32((5 << 3) | 5).fixed32(9);
    w.uint32((6 << 3) | 2).bytes(Uint8Array.of(1, 2, 3));
    const buf = w.finish();
    const r = new ProtoReader(buf);
    expect(r.tag()).to.deep.equal([1, VARINT]);
    expect(r.varint64()).to.equal(2n ** 64n - 1n);
    expect(r.tag()).to.deep.equal([2, LEN]);
    expect(r.string('name')).to.equal('héllo');
    expect(r.tag()).to.deep.equal([4, 1]);
    r.skip(1);
    expect(r.tag()).to.deep.equal([5, 5]);
    r.skip(5);
    expect(r.tag()).to.deep.equal([6, LEN]);
    expect([...r.bytes()]).to.deep.equal([1, 2, 3]);
    expect(r.done).to.equal(true);
    checkMessage(SCHEMA, nested('text'));
  });

  it('accepts a non-minimal varint (0x81 0x00 is 1)', () => {
    expect(new ProtoReader(Uint8Array.of(0x81, 0x00)).varint()).to.equal(1);
  });

  it('refuses each malformed encoding with a WireError saying what is wrong', () => {
    const cases: Array<[string, number[], (r: ProtoReader) => unknown, RegExp]> = [
      ['field number 0', [0x00], (r) => r.tag(), /field number 0/],
      ['a tag past 2^32 - 1', varint(2 ** 35), (r) => r.tag(), /tag above 2\^32 - 1/],
      ['a group', [(1 << 3) | 3], (r) => r.tag(), /group \(wire type 3\)/],
      ['an end group', [(1 << 3) | 4], (r) => r.tag(), /group \(wire type 4\)/],
      ['wire type 6', [(1 << 3) | 6], (r) => r.tag(), /undefined wire type 6/],
      ['wire type 7', [(1 << 3) | 7], (r) => r.tag(), /undefined wire type 7/],
      ['a truncated varint', [0x80, 0x80], (r) => r.varint64(), /truncated varint/],
      ['a varint past 2^64 - 1', [...ff(9), 0x02], (r) => r.varint64(), /above 2\^64 - 1/],
      ['an 11-byte varint', [...ff(10), 0x01], (r) => r.varint64(), /longer than 10 bytes/],
      ['a number varint past 2^53 - 1', varint(2 ** 53), (r) => r.varint(), /above 2\^53 - 1/],
      ['a length past the end', [5, 1, 2], (r) => r.bytes(), /runs past the end/],
      ['an embedded message past the end', [5, 1, 2], (r) => r.embedded(), /runs past the end/],
      ['a truncated fixed64', [1, 2, 3], (r) => r.skip(1), /truncated fixed-width/],
      ['invalid UTF-8', [2, 0xc3, 0x28], (r) => r.string('name'), /name is not valid UTF-8/],
    ];
    for (const [what, bytes, read, message] of cases)
      expect(() => read(new ProtoReader(Uint8Array.from(bytes))), what).to.throw(WireError, message);
  });

  it('skips unknown fields and refuses a known field sent with another wire type', () => {
    const unknown = protobuf.Writer.create()
      .uint32((9 << 3) | 2)
      .string('later')
      .uint32((1 << 3) | 0)
      .uint32(5);
    checkMessage(SCHEMA, unknown.finish());
    const wrongType = protobuf.Writer.create()
      .uint32((1 << 3) | 2)
      .string('x')
      .finish();
    expect(() => checkMessage(SCHEMA, wrongType)).to.throw(WireError, 'field id has wire type 2, expected 0');
    expect(() => checkMessage(SCHEMA, nested('\ud800'))).to.throw(WireError, 'inner.text is not valid UTF-8');
  });

  it('ends every truncation and 5,000 random byte strings in a read or a WireError', () => {
    /** True when refused. */
    const tryRead = (buf: Uint8Array): boolean => {
      try {
        checkMessage(SCHEMA, buf);
        return false;
      } catch (err) {
        if (!(err instanceof WireError)) throw new Error(`${Buffer.from(buf).toString('hex')}: ${String(err)}`);
        return true;
      }
    };
    const whole = nested('some text');
    for (let n = 0; n <= whole.length; n++) tryRead(whole.subarray(0, n));
    let seed = 0x2f6b1d3;
    const next = (): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    let refused = 0;
    for (let i = 0; i < 5000; i++) {
      if (tryRead(Uint8Array.from({ length: next() % 40 }, () => next() & 0xff))) refused++;
    }
    expect(refused, 'most random bytes are not a valid message').to.be.above(2500);
  });
});

/** A message of SCHEMA with an inner message holding `text` (lone surrogates become invalid UTF-8). */
function nested(text: string): Uint8Array {
  const utf8 = text === '\ud800' ? Uint8Array.of(0xed, 0xa0, 0x80) : new TextEncoder().encode(text);
  const inner = protobuf.Writer.create()
    .uint32((1 << 3) | 2)
    .bytes(utf8)
    .finish();
  return protobuf.Writer.create()
    .uint32((1 << 3) | 0)
    .uint32(42)
    .uint32((2 << 3) | 2)
    .string('name')
    .uint32((3 << 3) | 2)
    .bytes(inner)
    .finish();
}

/** The varint encoding of a non-negative integer below 2^64. */
function varint(n: number): number[] {
  const out: number[] = [];
  let v = BigInt(n);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

function ff(n: number): number[] {
  return new Array<number>(n).fill(0xff);
}
