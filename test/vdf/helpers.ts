/**
 * Shared helpers for the VDF tests: random elements and values, and building valid
 * ticks (chained from genesis) with a given engine.
 */
import { bigIntToBytes, bytesToBigInt } from '../../src/vdf/bytes.js';
import { N } from '../../src/vdf/constants.js';
import { GENESIS_OUTPUT } from '../../src/vdf/hashing.js';
import { expect } from 'chai';
import { VdfError } from '../../src/vdf/errors.js';
import type { VdfEngine, VdfTickInput } from '../../src/vdf/interface.js';

export function randomBytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  globalThis.crypto.getRandomValues(b);
  return b;
}

/** Uniform-ish value in [0, N). */
export function randomResidue(): bigint {
  return bytesToBigInt(randomBytes(264)) % N;
}

export const canon = (v: bigint): bigint => {
  const r = ((v % N) + N) % N;
  return r > N - r ? N - r : r;
};

export const el = (v: bigint): Uint8Array => bigIntToBytes(v, 256);

/** A chain of valid ticks from genesis with the given iterations. */
export function makeTicks(
  engine: VdfEngine,
  iterations: number[],
  firstTick = 1,
  prev: Uint8Array = GENESIS_OUTPUT,
): VdfTickInput[] {
  const out: VdfTickInput[] = [];
  let previousOutput = prev;
  iterations.forEach((t, i) => {
    const tickNumber = firstTick + i;
    const batchHash = randomBytes(32);
    const input = engine.hashToGroup(tickNumber, previousOutput, batchHash);
    const output = engine.evaluate(input, t);
    const proof = engine.prove(input, output, t);
    out.push({ tickNumber, previousOutput, header: batchHash, claim: { input, output, proof, iterations: t } });
    previousOutput = output;
  });
  return out;
}

/** Copy of a tick with a claim field replaced. */
export function tamper(tick: VdfTickInput, change: Partial<VdfTickInput['claim']>): VdfTickInput {
  return { ...tick, claim: { ...tick.claim, ...change } };
}

/** Awaits p and expects it to reject with a VdfError of the given code. */
export async function rejectsWith(p: Promise<unknown>, code: string): Promise<void> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(VdfError);
    expect((e as VdfError).code).to.equal(code);
    return;
  }
  expect.fail(`expected a VdfError ${code}`);
}
