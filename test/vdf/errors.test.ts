/**
 * Bad input gets a typed VdfError with a clear message, identically in both engines:
 * wrong lengths (truncated, oversized), non-hex, zero, >= N, non-canonical elements,
 * T = 0, fractional, negative or absurd T, bad tick numbers, wrong types.
 */
import { expect } from 'chai';
import { bigIntToBytes, hexToBytes } from '../../src/vdf/bytes.js';
import { HALF_N, MAX_ITERATIONS, N } from '../../src/vdf/constants.js';
import { VdfError, type VdfErrorCode } from '../../src/vdf/errors.js';
import { GENESIS_OUTPUT } from '../../src/vdf/hashing.js';
import type { VdfEngine, VdfTickInput } from '../../src/vdf/interface.js';
import { loadVdfEngine } from '../../src/vdf/node.js';
import { referenceVdfEngine } from '../../src/vdf/reference.js';
import { makeTicks, tamper } from './helpers.js';

function expectCode(f: () => unknown, code: VdfErrorCode): void {
  try {
    f();
  } catch (e) {
    expect(e).to.be.instanceOf(VdfError);
    expect((e as VdfError).code).to.equal(code);
    expect((e as VdfError).message.length).to.be.greaterThan(10);
    return;
  }
  expect.fail(`expected VdfError ${code}`);
}

const engines: [string, VdfEngine][] = [
  ['wasm', loadVdfEngine()],
  ['reference', referenceVdfEngine()],
];

describe('vdf: bad input', () => {
  const [good] = makeTicks(engines[0][1], [200]);
  const x = good.claim.input;

  for (const [name, e] of engines) {
    describe(name, () => {
      it('element lengths: truncated and oversized', () => {
        expectCode(() => e.evaluate(x.subarray(0, 255), 5), 'BAD_LENGTH');
        expectCode(() => e.evaluate(new Uint8Array(257), 5), 'BAD_LENGTH');
        expectCode(() => e.verify(tamper(good, { proof: new Uint8Array(0) })), 'BAD_LENGTH');
        expectCode(() => e.verify(tamper(good, { proof: new Uint8Array(512) })), 'BAD_LENGTH');
        expectCode(() => e.hashToGroup(1, GENESIS_OUTPUT, new Uint8Array(31)), 'BAD_LENGTH');
        expectCode(() => e.hashToGroup(1, GENESIS_OUTPUT.subarray(1), new Uint8Array(32)), 'BAD_LENGTH');
      });

      it('element values: 0, N, >= N, all ones, non-canonical', () => {
        expectCode(() => e.evaluate(new Uint8Array(256), 5), 'OUT_OF_RANGE');
        expectCode(() => e.evaluate(bigIntToBytes(N, 256), 5), 'OUT_OF_RANGE');
        expectCode(() => e.evaluate(new Uint8Array(256).fill(0xff), 5), 'OUT_OF_RANGE');
        expectCode(() => e.evaluate(bigIntToBytes(N - 1n, 256), 5), 'NOT_CANONICAL');
        expectCode(() => e.evaluate(bigIntToBytes(HALF_N + 1n, 256), 5), 'NOT_CANONICAL');
        expectCode(() => e.verify(tamper(good, { output: bigIntToBytes(N - 2n, 256) })), 'NOT_CANONICAL');
        expect(e.evaluate(bigIntToBytes(HALF_N, 256), 1).length).to.equal(256);
      });

      it('iterations: 0, negative, fractional, NaN, absurd, wrong type', () => {
        for (const t of [0, -1, 1.5, NaN, Infinity, MAX_ITERATIONS + 1, 2 ** 60]) {
          expectCode(() => e.evaluate(x, t), 'BAD_ITERATIONS');
          expectCode(() => e.verify(tamper(good, { iterations: t })), 'BAD_ITERATIONS');
        }
        expectCode(() => e.verify(tamper(good, { iterations: '200' as unknown as number })), 'BAD_ITERATIONS');
        expectCode(() => e.evaluator().square(1), 'BAD_TYPE');
        const ev = e.evaluator();
        ev.start(x);
        expectCode(() => ev.square(-1), 'BAD_ITERATIONS');
        expectCode(() => ev.square(MAX_ITERATIONS + 1), 'BAD_ITERATIONS');
        expectCode(() => ev.prove(), 'BAD_ITERATIONS'); // T = 0 so far
        ev.square(3);
        expect(ev.iterations).to.equal(3);
      });

      it('tick numbers and types', () => {
        expectCode(() => e.hashToGroup(0, GENESIS_OUTPUT, new Uint8Array(32)), 'BAD_TICK_NUMBER');
        expectCode(() => e.hashToGroup(-3, GENESIS_OUTPUT, new Uint8Array(32)), 'BAD_TICK_NUMBER');
        expectCode(() => e.hashToGroup(2 ** 53, GENESIS_OUTPUT, new Uint8Array(32)), 'BAD_TICK_NUMBER');
        expectCode(() => e.verify({ ...good, tickNumber: 1.5 }), 'BAD_TICK_NUMBER');
        expectCode(() => e.verify(null as unknown as VdfTickInput), 'BAD_TYPE');
        expectCode(() => e.verify({ ...good, claim: null as unknown as VdfTickInput['claim'] }), 'BAD_TYPE');
        expectCode(() => e.evaluate('00' as unknown as Uint8Array, 3), 'BAD_TYPE');
        expectCode(() => e.verifyBatch({} as unknown as VdfTickInput[]), 'BAD_TYPE');
      });

      it('a malformed tick inside a batch is named with its error; the others are still checked', () => {
        const v = e.verifyBatch([good, tamper(good, { iterations: 0 }), null as unknown as VdfTickInput, good]);
        expect(v.invalid).to.deep.equal([1, 2]);
        expect(v.errors?.map((x) => x.code)).to.deep.equal(['BAD_ITERATIONS', 'BAD_TYPE']);
      });
    });
  }

  it('hex helpers: non-hex, odd length, wrong length', () => {
    expectCode(() => hexToBytes('zz'), 'BAD_HEX');
    expectCode(() => hexToBytes('abc'), 'BAD_LENGTH');
    expectCode(() => hexToBytes('00'.repeat(255), 256), 'BAD_LENGTH');
    expect(hexToBytes('0xAbCd')).to.deep.equal(new Uint8Array([0xab, 0xcd]));
  });
});
