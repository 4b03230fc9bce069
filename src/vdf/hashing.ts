/**
 * The hash parts of the construction (docs/vdf.md), shared by every engine:
 * - expand(seed): 10 SHA-256 blocks SHA-256(seed || i), i = 0..9, 320 bytes;
 * - hash-to-group: seed = SHA-256("svc-vdf-v1/h2g" || u64be(tick) || prev || batchHash),
 *   x = |int(expand(seed)) mod N| (x < 2 is replaced by 2: probability ~2^-2040);
 * - genesis: the same expansion of SHA-256("svc-vdf-v1/genesis");
 * - hash-to-prime: l0 = int(SHA-256("svc-vdf-v1/h2p" || x || y || u64be(T))[0..16]) | 2^127 | 1,
 *   l = first of l0, l0 + 2, ... accepted by the primality test of primes.ts.
 * Pure functions of bytes; no Node built-ins (used by the browser verifier).
 */
import { sha256, sha256Into } from './sha256.js';
import { bigIntToBytes, bytesToBigInt, u64be } from './bytes.js';
import {
  DOMAIN_GENESIS,
  DOMAIN_HASH_TO_GROUP,
  DOMAIN_HASH_TO_PRIME,
  ELEMENT_BYTES,
  EXPAND_BLOCKS,
  N,
  PRIME_BITS,
} from './constants.js';
import { SMALL_PRIMES, isProbablePrime, smallPrimeResidues } from './primes.js';
import { checkBatchHash, checkElement, checkTickNumber } from './validate.js';

const enc = new TextEncoder();
const TAG_GENESIS = enc.encode(DOMAIN_GENESIS);
const TAG_H2G = enc.encode(DOMAIN_HASH_TO_GROUP);
const TAG_H2P = enc.encode(DOMAIN_HASH_TO_PRIME);

/** 320 bytes: SHA-256(seed || u8(0)) || ... || SHA-256(seed || u8(9)). */
export function expand(seed: Uint8Array): Uint8Array {
  const out = new Uint8Array(32 * EXPAND_BLOCKS);
  const counter = new Uint8Array(1);
  const parts = [seed, counter];
  for (let i = 0; i < EXPAND_BLOCKS; i++) {
    counter[0] = i;
    sha256Into(parts, out, 32 * i);
  }
  return out;
}

/** Canonical signed residue |v mod N| = min(v, N - v), with values below 2 mapped to 2. */
export function toGroupElement(wide: Uint8Array): bigint {
  const v = bytesToBigInt(wide) % N;
  const x = v > N - v ? N - v : v;
  return x < 2n ? 2n : x;
}

/** The hash-to-group seed of a tick (validates its arguments). */
export function hashToGroupSeed(tickNumber: number, previousOutput: Uint8Array, batchHash: Uint8Array): Uint8Array {
  checkTickNumber(tickNumber);
  checkElement(previousOutput, 'previous output');
  checkBatchHash(batchHash);
  return sha256(TAG_H2G, u64be(tickNumber), previousOutput, batchHash);
}

/** Tick input x as a bigint (BigInt path used by the reference and the browser). */
export function hashToGroupBigInt(tickNumber: number, previousOutput: Uint8Array, batchHash: Uint8Array): bigint {
  return toGroupElement(expand(hashToGroupSeed(tickNumber, previousOutput, batchHash)));
}

/** Tick 1's previous output: the fixed genesis element. */
export const GENESIS_OUTPUT: Uint8Array = bigIntToBytes(toGroupElement(expand(sha256(TAG_GENESIS))), ELEMENT_BYTES);

const TOP_BIT = 1n << BigInt(PRIME_BITS - 1);

/** Start of the prime search: l0 = int(SHA-256("svc-vdf-v1/h2p" || x || y || u64be(T))[0..16]) | 2^127 | 1. */
export function hashToPrimeStart(x: Uint8Array, y: Uint8Array, iterations: number): bigint {
  const h = sha256(TAG_H2P, x, y, u64be(iterations));
  return bytesToBigInt(h.subarray(0, 16)) | TOP_BIT | 1n;
}

/**
 * Wesolowski challenge prime l for (x, y, T): the first of l0, l0 + 2, l0 + 4, ... that has
 * no odd prime factor below 1000 and is a strong probable prime to the 12 bases of
 * primes.ts. Without `millerRabin` this is the plain BigInt definition (reference);
 * with it, a residue sieve skips candidates with small factors and `millerRabin` (which
 * must implement exactly the 12 rounds, e.g. in WASM) decides the rest.
 */
export function hashToPrime(
  x: Uint8Array,
  y: Uint8Array,
  iterations: number,
  millerRabin?: (n: bigint) => boolean,
): bigint {
  const l0 = hashToPrimeStart(x, y, iterations);
  if (!millerRabin) {
    for (let l = l0; ; l += 2n) if (isProbablePrime(l)) return l;
  }
  const res = smallPrimeResidues(l0);
  for (let i = 0; ; i++) {
    let smallFactor = false;
    for (let j = 0; j < SMALL_PRIMES.length; j++) {
      if ((res[j] + 2 * i) % SMALL_PRIMES[j] === 0) {
        smallFactor = true;
        break;
      }
    }
    if (!smallFactor && millerRabin(l0 + 2n * BigInt(i))) return l0 + 2n * BigInt(i);
  }
}
