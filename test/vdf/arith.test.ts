/**
 * Cross-checks every WASM arithmetic operation (Montgomery mul, dedicated squaring,
 * k squarings, load/store with canonical signed residues, aliasing) and the WASM
 * Miller-Rabin rounds against BigInt, on random inputs and edge values.
 */
import { expect } from 'chai';
import { bigIntToBytes, bytesToBigInt } from '../../src/vdf/bytes.js';
import { N } from '../../src/vdf/constants.js';
import { loadWasmVdfEngine } from '../../src/vdf/node.js';
import { isProbablePrime } from '../../src/vdf/primes.js';
import { canon, randomBytes, randomResidue } from './helpers.js';

describe('vdf: WASM arithmetic vs BigInt', () => {
  const engine = loadWasmVdfEngine();
  const a = engine.arith;
  a.ensure(8);
  const load = (slot: number, v: bigint): void => a.load(slot, bigIntToBytes(v, 256));
  const read = (slot: number): bigint => bytesToBigInt(a.store(slot));

  const ALL_ONES = (1n << 2048n) - 1n; // every limb all ones
  const edges = [
    0n,
    1n,
    2n,
    N - 1n,
    N - 2n,
    (N - 1n) / 2n,
    (N + 1n) / 2n,
    N,
    N + 1n,
    ALL_ONES,
    1n << 2047n,
    (1n << 2044n) - 1n,
    0xfffffffn,
  ];

  it('load/store gives the canonical signed residue of v mod N (including v >= N)', () => {
    for (const v of [...edges, ...Array.from({ length: 50 }, randomResidue)]) {
      load(0, v);
      expect(read(0)).to.equal(canon(v));
    }
  });

  it('mul matches (a*b) mod N on edges and 300 random pairs', () => {
    const pairs: [bigint, bigint][] = [];
    for (const x of edges) for (const y of edges) pairs.push([x, y]);
    for (let i = 0; i < 300; i++) pairs.push([randomResidue(), randomResidue()]);
    for (const [x, y] of pairs) {
      load(0, x);
      load(1, y);
      a.mul(2, 0, 1);
      expect(read(2), `${x} * ${y}`).to.equal(canon(x * y));
    }
  });

  it('sqr matches x^2 mod N, and mul/sqr may write over their inputs', () => {
    for (const x of [...edges, ...Array.from({ length: 300 }, randomResidue)]) {
      load(0, x);
      a.sqr(1, 0);
      expect(read(1)).to.equal(canon(x * x));
      a.sqr(0, 0);
      expect(read(0)).to.equal(canon(x * x));
      const y = (x + 5n) % (1n << 2048n);
      load(3, x);
      load(4, y);
      a.mul(3, 3, 4);
      expect(read(3)).to.equal(canon(x * y));
      load(3, x);
      a.mul(4, 3, 4);
      expect(read(4)).to.equal(canon(x * y));
    }
  });

  it('sqrn(k) matches k BigInt squarings, for chains long enough to exercise lazy reduction', () => {
    for (const k of [0, 1, 2, 7, 64, 500]) {
      const x = randomResidue();
      load(0, x);
      a.sqrn(0, k);
      let v = x;
      for (let i = 0; i < k; i++) v = (v * v) % N;
      expect(read(0)).to.equal(canon(v));
    }
  });

  it('Miller-Rabin in WASM agrees with the BigInt test on random and chosen 128-bit numbers', () => {
    const chosen = [
      (1n << 128n) - 159n, // largest 128-bit prime
      (1n << 127n) + 45n, // 2^127 + 45 (composite or not, both must agree)
      ((1n << 64n) - 59n) * ((1n << 63n) + 29n), // product of two large numbers
    ];
    for (let i = 0; i < 1500; i++) {
      const n = bytesToBigInt(randomBytes(16)) | (1n << 127n) | 1n;
      chosen.push(n);
    }
    let primes = 0;
    for (const n of chosen) {
      if ((n & 1n) === 0n || n >> 127n === 0n) continue;
      const want = isProbablePrime(n);
      if (want) primes++;
      expect(a.isProbablePrime128(n), n.toString(16)).to.equal(want);
    }
    expect(primes).to.be.greaterThan(5);
    expect(a.isProbablePrime128((1n << 128n) - 159n)).to.equal(true);
  });
});

describe('vdf: SHA-256 of the hot path', () => {
  it('matches @noble/hashes on every length 0..300 and split inputs', async () => {
    const { sha256: noble } = await import('@noble/hashes/sha2.js');
    const { sha256 } = await import('../../src/vdf/sha256.js');
    const { bytesToHex } = await import('../../src/vdf/bytes.js');
    for (let len = 0; len <= 300; len++) {
      const m = randomBytes(len);
      expect(bytesToHex(sha256(m))).to.equal(bytesToHex(noble(m)));
      const cut = len >> 1;
      expect(bytesToHex(sha256(m.subarray(0, cut), m.subarray(cut)))).to.equal(bytesToHex(noble(m)));
    }
    expect(bytesToHex(sha256(new TextEncoder().encode('abc')))).to.equal(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
