/**
 * Input validation shared by every engine, so that all of them reject exactly the same
 * inputs with the same typed errors: element bytes (256 bytes, 1 <= v <= (N-1)/2),
 * batch hashes (32 bytes), iterations and tick numbers.
 */
import { BATCH_HASH_BYTES, ELEMENT_BYTES, HALF_N, MAX_ITERATIONS, MAX_TICK_NUMBER, MIN_ITERATIONS, N } from './constants.js';
import { bytesToBigInt } from './bytes.js';
import { VdfError } from './errors.js';
import type { VdfClaim, VdfTickInput } from './interface.js';

function requireBytes(b: unknown, length: number, what: string): Uint8Array {
  if (!(b instanceof Uint8Array)) throw new VdfError('BAD_TYPE', `${what}: expected a Uint8Array`);
  if (b.length !== length) throw new VdfError('BAD_LENGTH', `${what}: expected ${length} bytes, got ${b.length}`);
  return b;
}

/** Decode a canonical group element: 256 bytes, value in [1, (N-1)/2]. */
export function decodeElement(b: unknown, what = 'element'): bigint {
  const bytes = requireBytes(b, ELEMENT_BYTES, what);
  const v = bytesToBigInt(bytes);
  if (v === 0n) throw new VdfError('OUT_OF_RANGE', `${what}: zero is not a group element`);
  if (v >= N) throw new VdfError('OUT_OF_RANGE', `${what}: value >= N`);
  if (v > HALF_N) throw new VdfError('NOT_CANONICAL', `${what}: not a canonical signed residue (value > (N-1)/2)`);
  return v;
}

export function checkBatchHash(b: unknown): Uint8Array {
  return requireBytes(b, BATCH_HASH_BYTES, 'batch hash');
}

export function checkIterations(t: unknown): number {
  if (typeof t !== 'number' || !Number.isInteger(t) || t < MIN_ITERATIONS || t > MAX_ITERATIONS) {
    throw new VdfError('BAD_ITERATIONS', `iterations must be an integer in [${MIN_ITERATIONS}, ${MAX_ITERATIONS}], got ${String(t)}`);
  }
  return t;
}

export function checkTickNumber(n: unknown): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_TICK_NUMBER) {
    throw new VdfError('BAD_TICK_NUMBER', `tick number must be an integer in [1, 2^53 - 1], got ${String(n)}`);
  }
  return n;
}

/** Validated numeric form of a claim. */
export interface DecodedClaim {
  x: bigint;
  y: bigint;
  pi: bigint;
  t: number;
}

export function decodeClaim(claim: VdfClaim): DecodedClaim {
  if (claim === null || typeof claim !== 'object') throw new VdfError('BAD_TYPE', 'claim: expected an object');
  return {
    x: decodeElement(claim.input, 'input'),
    y: decodeElement(claim.output, 'output'),
    pi: decodeElement(claim.proof, 'proof'),
    t: checkIterations(claim.iterations),
  };
}

/** Structural check of a tick (types, lengths, ranges); throws VdfError on the first fault. */
export function checkTickInput(tick: VdfTickInput): DecodedClaim {
  if (tick === null || typeof tick !== 'object') throw new VdfError('BAD_TYPE', 'tick: expected an object');
  checkTickNumber(tick.tickNumber);
  decodeElement(tick.previousOutput, 'previous output');
  checkBatchHash(tick.batchHash);
  return decodeClaim(tick.claim);
}
