/**
 * Input validation shared by every engine, so that all of them reject exactly the same
 * inputs with the same typed errors: element bytes (256 bytes, 1 <= v <= (N-1)/2),
 * batch hashes (32 bytes), iterations and tick numbers.
 */
import {
  BATCH_HASH_BYTES,
  ELEMENT_BYTES,
  HALF_N,
  MAX_ITERATIONS,
  MAX_TICK_NUMBER,
  MIN_ITERATIONS,
  N,
} from './constants.js';
import { bigIntToBytes, bytesToBigInt } from './bytes.js';
import { VdfError } from './errors.js';
import type { VdfClaim, VdfTickInput } from './interface.js';

function requireBytes(b: unknown, length: number, what: string): Uint8Array {
  if (!(b instanceof Uint8Array)) throw new VdfError('BAD_TYPE', `${what}: expected a Uint8Array`);
  if (b.length !== length) throw new VdfError('BAD_LENGTH', `${what}: expected ${length} bytes, got ${b.length}`);
  return b;
}

const N_BYTES = bigIntToBytes(N, ELEMENT_BYTES);
const HALF_N_BYTES = bigIntToBytes(HALF_N, ELEMENT_BYTES);

/** Big-endian comparison of two equal-length byte strings. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** Check a canonical group element without BigInt: 256 bytes, value in [1, (N-1)/2]. */
export function checkElement(b: unknown, what = 'element'): Uint8Array {
  const bytes = requireBytes(b, ELEMENT_BYTES, what);
  if (compareBytes(bytes, HALF_N_BYTES) <= 0) {
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return bytes;
    throw new VdfError('OUT_OF_RANGE', `${what}: zero is not a group element`);
  }
  if (compareBytes(bytes, N_BYTES) >= 0) throw new VdfError('OUT_OF_RANGE', `${what}: value >= N`);
  throw new VdfError('NOT_CANONICAL', `${what}: not a canonical signed residue (value > (N-1)/2)`);
}

/** Decode a canonical group element: 256 bytes, value in [1, (N-1)/2]. */
export function decodeElement(b: unknown, what = 'element'): bigint {
  return bytesToBigInt(checkElement(b, what));
}

export function checkBatchHash(b: unknown): Uint8Array {
  return requireBytes(b, BATCH_HASH_BYTES, 'batch hash');
}

export function checkIterations(t: unknown): number {
  if (typeof t !== 'number' || !Number.isInteger(t) || t < MIN_ITERATIONS || t > MAX_ITERATIONS) {
    throw new VdfError(
      'BAD_ITERATIONS',
      `iterations must be an integer in [${MIN_ITERATIONS}, ${MAX_ITERATIONS}], got ${String(t)}`,
    );
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
  checkTickShape(tick);
  return decodeClaim(tick.claim);
}

/** The same checks as checkTickInput without BigInt decoding; returns T. */
export function checkTickShape(tick: VdfTickInput): number {
  if (tick === null || typeof tick !== 'object') throw new VdfError('BAD_TYPE', 'tick: expected an object');
  checkTickNumber(tick.tickNumber);
  checkElement(tick.previousOutput, 'previous output');
  checkBatchHash(tick.header);
  const claim = tick.claim;
  if (claim === null || typeof claim !== 'object') throw new VdfError('BAD_TYPE', 'claim: expected an object');
  checkElement(claim.input, 'input');
  checkElement(claim.output, 'output');
  checkElement(claim.proof, 'proof');
  return checkIterations(claim.iterations);
}
