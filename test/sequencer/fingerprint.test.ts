/**
 * The replay window's fingerprint (src/sequencer/fingerprint.ts) is HalfSipHash-2-4 with a
 * 64-bit output: the reference implementation's published vectors (key 00..07, input
 * 00..n-1) for every length class of the last word, and the fixed key's fingerprint of
 * the same bytes read at an offset inside a larger buffer.
 */
import { expect } from 'chai';
import { fingerprint, halfSipHash64 } from '../../src/sequencer/fingerprint.js';

/** vectors_hsip64[n] of the SipHash reference repository, as hex of the 8 output bytes. */
const VECTORS = [
  '218d1f59b9b83cc8',
  'be552412f8387315',
  '064f39ef7c50eb57',
  'ce0f1a45f7060679',
  'd5e78a175be52ea1',
  'cb9d7c3f2f3db580',
  'ce3e91358aa2bc25',
  'ff202728b07bc684',
  'edfee820bce4858c',
  '5b51cccc13888307',
  '95b0469f06a6f2ee',
  'ae26333994ddcd48',
  '7bc71f9faef5c799',
  '5a2352d75a0c3744',
  '3bb1a870eae8e658',
  '217d0bcb4e81c902',
];

function hex(out: Int32Array): string {
  const b = Buffer.alloc(8);
  b.writeInt32LE(out[0]!, 0);
  b.writeInt32LE(out[1]!, 4);
  return b.toString('hex');
}

describe('sequencer/fingerprint', () => {
  it("matches HalfSipHash-2-4's 64-bit reference vectors", () => {
    const input = new Uint8Array(64).map((_, i) => i);
    const out = new Int32Array(2);
    VECTORS.forEach((want, n) => {
      halfSipHash64(input, 0, n, 0x03020100, 0x07060504, out, 0);
      expect(hex(out), `length ${n}`).to.equal(want);
    });
  });

  it('depends on the bytes only, not on where they sit', () => {
    const key = new Uint8Array([1, 2, 3, 4, 5, 6, 7]);
    const inside = new Uint8Array(20);
    inside.set(key, 9);
    const a = new Int32Array(2);
    const b = new Int32Array(4);
    fingerprint(key, 0, key.length, a, 0);
    fingerprint(inside, 9, 9 + key.length, b, 2);
    expect([b[2], b[3]]).to.deep.equal([a[0], a[1]]);
    fingerprint(inside, 9, 9 + key.length - 1, b, 0);
    expect([b[0], b[1]]).to.not.deep.equal([a[0], a[1]]);
  });
});
