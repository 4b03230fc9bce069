/**
 * The WASM engine against the BigInt reference: hash-to-group, evaluate, prove (both
 * proving paths), verify, the chunked evaluator, and the construction's conventions
 * (genesis, trivial proofs below T = 128, canonical signed residues).
 */
import { expect } from 'chai';
import { bytesEqual, bytesToBigInt } from '../../src/vdf/bytes.js';
import { HALF_N, N, TRIVIAL_PROOF_MAX_T } from '../../src/vdf/constants.js';
import { GENESIS_OUTPUT, hashToPrime } from '../../src/vdf/hashing.js';
import { readFileSync } from 'node:fs';
import { loadVdfEngine, loadWasmVdfEngine, wasmPath } from '../../src/vdf/node.js';
import {
  CHECKPOINT_BITS,
  PIECE_WIDTHS,
  bucketCost,
  cheapestWidth,
  proveByLongDivision,
  proveFromCheckpoints,
  quotientDigits,
} from '../../src/vdf/proof.js';
import { referenceVdfEngine } from '../../src/vdf/reference.js';
import { SlotAllocator } from '../../src/vdf/slots.js';
import { ONE_BYTES, createWasmVdfEngine } from '../../src/vdf/wasm-engine.js';
import { makeTicks, randomBytes, tamper } from './helpers.js';

describe('vdf: WASM engine vs BigInt reference', () => {
  const ref = referenceVdfEngine();
  const wasm = loadVdfEngine();

  it('genesis is a canonical element and hash-to-group agrees on many ticks', () => {
    const g = bytesToBigInt(GENESIS_OUTPUT);
    expect(g > 1n && g <= HALF_N).to.equal(true);
    let prev = GENESIS_OUTPUT;
    for (let n = 1; n <= 40; n++) {
      const batch = randomBytes(32);
      const x = wasm.hashToGroup(n, prev, batch);
      expect(bytesEqual(x, ref.hashToGroup(n, prev, batch))).to.equal(true);
      const v = bytesToBigInt(x);
      expect(v >= 2n && v <= HALF_N).to.equal(true);
      prev = x;
    }
    // Large tick numbers (the high 32 bits go through a separate path in WASM).
    for (const n of [2 ** 32 - 1, 2 ** 32, 2 ** 32 + 5, 2 ** 40 + 12345, Number.MAX_SAFE_INTEGER]) {
      const batch = randomBytes(32);
      expect(
        bytesEqual(wasm.hashToGroup(n, GENESIS_OUTPUT, batch), ref.hashToGroup(n, GENESIS_OUTPUT, batch)),
        `tick ${n}`,
      ).to.equal(true);
    }
    // Different tick numbers, previous outputs or batch hashes give different inputs.
    const b = randomBytes(32);
    const x1 = wasm.hashToGroup(1, GENESIS_OUTPUT, b);
    expect(bytesEqual(x1, wasm.hashToGroup(2, GENESIS_OUTPUT, b))).to.equal(false);
    const b2 = b.slice();
    b2[31] ^= 1;
    expect(bytesEqual(x1, wasm.hashToGroup(1, GENESIS_OUTPUT, b2))).to.equal(false);
  });

  it('evaluate, prove and verify agree for T around the trivial-proof threshold and beyond', () => {
    for (const t of [1, 2, 3, 10, 64, 126, 127, 128, 129, 135, 136, 255, 256, 257, 700]) {
      const [tick] = makeTicks(wasm, [t], 7);
      const { input, output, proof } = tick.claim;
      expect(bytesEqual(output, ref.evaluate(input, t)), `evaluate T=${t}`).to.equal(true);
      expect(bytesEqual(proof, ref.prove(input, output, t)), `prove T=${t}`).to.equal(true);
      if (t <= TRIVIAL_PROOF_MAX_T) expect(bytesEqual(proof, ONE_BYTES)).to.equal(true);
      expect(wasm.verify(tick)).to.equal(true);
      expect(ref.verify(tick)).to.equal(true);
      const wrongOut = tamper(tick, { output: ref.evaluate(input, t + 1) });
      expect(wasm.verify(wrongOut)).to.equal(false);
      expect(ref.verify(wrongOut)).to.equal(false);
      const wrongProof = tamper(tick, { proof: t <= TRIVIAL_PROOF_MAX_T ? input : ONE_BYTES });
      expect(wasm.verify(wrongProof)).to.equal(false);
      expect(ref.verify(wrongProof)).to.equal(false);
    }
  });

  it('rejects the negated output and proof (signed residues: only canonical values are elements)', () => {
    const [tick] = makeTicks(wasm, [300]);
    // N - y is the same class but not canonical: rejected as malformed, never accepted.
    const neg = (b: Uint8Array): Uint8Array => {
      const v = N - bytesToBigInt(b);
      return Uint8Array.from(Buffer.from(v.toString(16).padStart(512, '0'), 'hex'));
    };
    expect(() => wasm.verify(tamper(tick, { output: neg(tick.claim.output) }))).to.throw(/canonical/);
    expect(() => ref.verify(tamper(tick, { proof: neg(tick.claim.proof) }))).to.throw(/canonical/);
  });

  it('a tick whose input is not hash-to-group of (tick, previous output, batch hash) fails', () => {
    const [tick] = makeTicks(wasm, [200], 3);
    expect(wasm.verify({ ...tick, tickNumber: 4 })).to.equal(false);
    expect(ref.verify({ ...tick, header: randomBytes(32) })).to.equal(false);
    expect(wasm.verify({ ...tick, previousOutput: tick.claim.output })).to.equal(false);
  });

  it('the evaluator squares in chunks, keeps counting, and proves the whole segment', () => {
    const ev = wasm.evaluator();
    const x = wasm.hashToGroup(9, GENESIS_OUTPUT, randomBytes(32));
    ev.start(x);
    let total = 0;
    for (const k of [0, 1, 5, 3, 17, 100, 2, 250]) {
      ev.square(k);
      total += k;
      expect(ev.iterations).to.equal(total);
    }
    expect(bytesEqual(ev.output(), wasm.evaluate(x, total))).to.equal(true);
    expect(bytesEqual(ev.prove(), ref.prove(x, ev.output(), total))).to.equal(true);
    // Starting right after hashToGroup reuses its WASM slot only when it is the same x.
    const a = wasm.hashToGroup(11, GENESIS_OUTPUT, randomBytes(32));
    const b = wasm.hashToGroup(12, GENESIS_OUTPUT, randomBytes(32));
    const evA = wasm.evaluator();
    evA.start(a); // b is the last hash: must load a, not reuse b's slot
    evA.square(9);
    expect(bytesEqual(evA.output(), ref.evaluate(a, 9))).to.equal(true);
    wasm.hashToGroup(12, GENESIS_OUTPUT, randomBytes(32));
    const c = wasm.hashToGroup(13, GENESIS_OUTPUT, randomBytes(32));
    evA.start(c);
    evA.square(9);
    expect(bytesEqual(evA.output(), ref.evaluate(c, 9))).to.equal(true);
    expect(bytesEqual(b, a)).to.equal(false);
    // Restart resets the count; a short segment proves trivially.
    ev.start(ev.output());
    ev.square(20);
    expect(ev.iterations).to.equal(20);
    expect(bytesEqual(ev.prove(), ONE_BYTES)).to.equal(true);
    // Two evaluators of one engine and two engines are independent.
    const ev2 = wasm.evaluator();
    ev2.start(x);
    ev2.square(10);
    ev.square(1);
    expect(bytesEqual(ev2.output(), ref.evaluate(x, 10))).to.equal(true);
    const other = loadVdfEngine().evaluator();
    other.start(x);
    other.square(10);
    expect(bytesEqual(other.output(), ev2.output())).to.equal(true);
  });

  it('proof digits are floor(2^T / l) in base 2^K for every T, groups of digits across step edges included', () => {
    const primes = [(1n << 263n) + 0x1234567890abcdefn * 2n + 1n, (1n << 264n) - 59n, (1n << 256n) + 297n];
    for (const l of primes) {
      for (const t of [8, 9, 47, 48, 49, 55, 56, 57, 97, 263, 264, 265, 521, 48_000, 48_007, 100_003]) {
        const ds = quotientDigits(t, l);
        expect(ds.length, `T=${t}`).to.equal(Math.floor(t / CHECKPOINT_BITS));
        let back = 0n;
        for (let i = ds.length - 1; i >= 0; i--) back = (back << BigInt(CHECKPOINT_BITS)) + BigInt(ds[i]!);
        const q = (1n << BigInt(t)) / l; // < 2^(T - 255): floor(T/K) digits hold it
        expect(back === q, `T=${t}, l=${l.toString(16).slice(0, 8)}...`).to.equal(true);
      }
    }
  });

  it('proof digits and both proving paths (checkpoints, long division) give x^floor(2^T / l)', () => {
    const e = loadWasmVdfEngine();
    const slots = new SlotAllocator(e.arith);
    for (const t of [128, 129, 136, 255, 1000, 1001, 4099]) {
      const x = e.hashToGroup(1, GENESIS_OUTPUT, randomBytes(32));
      const y = e.evaluate(x, t);
      const l = hashToPrime(x, y, t);
      const q = (1n << BigInt(t)) / l;
      const ds = quotientDigits(t, l);
      let back = 0n;
      for (let i = ds.length - 1; i >= 0; i--) back = (back << BigInt(CHECKPOINT_BITS)) + BigInt(ds[i]);
      expect(back).to.equal(q);
      const base = slots.alloc(3 + ds.length);
      e.arith.load(base, x);
      proveByLongDivision(e.arith, base + 1, base, t, l);
      for (let i = 0; i < ds.length; i++) {
        e.arith.copy(base + 3 + i, base);
        e.arith.sqrn(base, CHECKPOINT_BITS);
      }
      const want = ref.prove(x, y, t);
      expect(bytesEqual(e.arith.store(base + 1), want), `long division T=${t}`).to.equal(true);
      for (const w of [undefined, ...PIECE_WIDTHS]) {
        e.arith.one(base + 2);
        proveFromCheckpoints(e.arith, slots, base + 2, (i) => base + 3 + i, ds, w);
        expect(bytesEqual(e.arith.store(base + 2), want), `checkpoints T=${t}, width ${w ?? 'cheapest'}`).to.equal(
          true,
        );
      }
      slots.free(base, 3 + ds.length);
    }
  });

  it('proof digits are read in 4-bit pieces for short segments and whole for long heartbeats', () => {
    const random = (count: number): Uint16Array => Uint16Array.from(randomBytes(count));
    const short = random(75); // T = 600
    const long = random(3_750); // T = 30,000
    expect(cheapestWidth(short).width).to.equal(4);
    expect(cheapestWidth(long).width).to.equal(8);
    for (const ds of [short, long]) {
      const best = cheapestWidth(ds);
      for (const w of PIECE_WIDTHS) expect(best.cost).to.be.at.most(bucketCost(ds, w));
      expect(best.cost).to.equal(bucketCost(ds, best.width));
    }
    // A short segment's proof: a third of the multiplications of whole digits.
    expect(cheapestWidth(short).cost / bucketCost(short, 8)).to.be.below(0.4);
    // All-zero digits (q = 0) cost nothing read whole.
    expect(cheapestWidth(new Uint16Array(10))).to.deep.equal({ width: 8, cost: 0 });
  });

  it('an engine can be made from the .wasm bytes (the browser path) and agrees', () => {
    const e = createWasmVdfEngine(new Uint8Array(readFileSync(wasmPath())));
    const x = e.hashToGroup(3, GENESIS_OUTPUT, new Uint8Array(32));
    expect(bytesEqual(x, ref.hashToGroup(3, GENESIS_OUTPUT, new Uint8Array(32)))).to.equal(true);
    expect(bytesEqual(e.evaluate(x, 50), ref.evaluate(x, 50))).to.equal(true);
  });

  it('prove refuses an output that is not x^(2^T)', () => {
    const x = wasm.hashToGroup(1, GENESIS_OUTPUT, randomBytes(32));
    const y = wasm.evaluate(x, 300);
    expect(() => wasm.prove(x, y, 301)).to.throw(/output is not/);
    expect(() => ref.prove(x, y, 299)).to.throw(/output is not/);
  });
});
