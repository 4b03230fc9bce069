/**
 * Wesolowski proving over WASM slots. pi = x^q with q = floor(2^T / l).
 *
 * Fast path (checkpoints): with C_i = x^(2^(K*i)) saved while squaring (K = 8), q's
 * K-bit digits b_i give pi = prod_i C_i^(b_i). Each digit is read as K/w pieces of w bits
 * (w = 8, 4, 2 or 1, whichever costs fewest multiplications for these digits): with
 * G_j = prod_i C_i^(piece j of b_i), each G_j by 2^w - 1 buckets, pi = prod_j G_j^(2^(w*j)).
 * About (K/w)(T/K) + (K/w) 2^(w+1) + K multiplications: w = 8 (T/8 + 512) for a long
 * heartbeat, ~13% of its evaluation at T = 30,000; w = 4 (T/4 + 68) below T of about
 * 4,000, which is where busy ticks are (a third of the cost at T = 600).
 * Digit i is floor(2^K * (2^(T - K(i+1)) mod l) / l), so q itself (T bits) is never built.
 * Fallback (too many checkpoints, or cheaper): the long division of 2^T by l, one squaring
 * plus at most one multiplication per iteration.
 */
import { PRIME_BITS } from './constants.js';
import { combineBuckets } from './exp.js';
import type { SlotAllocator } from './slots.js';
import type { WasmArith } from './wasm-arith.js';

export const CHECKPOINT_BITS = 8;
/** Checkpoint storage limit (slots); longer segments prove by long division. */
export const MAX_CHECKPOINTS = 1 << 17;

/** Number of checkpoints needed for T: C_0 .. C_(floor(T/K) - 1). */
export function checkpointsFor(t: number): number {
  return Math.floor(t / CHECKPOINT_BITS);
}

const DIGIT_BASE = 1 << CHECKPOINT_BITS;
/** Digits found per BigInt division in quotientDigits: 6 x 8 = 48 bits, within a Number's 53. */
const DIGITS_PER_STEP = 6;

/** K-bit digits of floor(2^T / l), least significant first (count = floor(T/K)). */
export function quotientDigits(t: number, l: bigint): Uint16Array {
  const count = checkpointsFor(t);
  const out = new Uint16Array(count);
  const k = BigInt(CHECKPOINT_BITS);
  // r_i = 2^(T - K(i+1)) mod l, from the top digit (smallest exponent) downwards.
  const e = t - CHECKPOINT_BITS * count; // exponent for i = count - 1
  let r = e < PRIME_BITS ? (1n << BigInt(e)) % l : modPow2(e, l);
  // Long division, DIGITS_PER_STEP digits per BigInt division (their group is < 2^48, so
  // exact as a Number); the next remainder is what the group's division leaves.
  for (let i = count - 1; i >= 0; ) {
    const m = Math.min(DIGITS_PER_STEP, i + 1);
    const shifted = r << (k * BigInt(m));
    const group = shifted / l;
    r = shifted - group * l;
    let g = Number(group);
    for (let j = i - m + 1; j <= i; j++) {
      out[j] = g % DIGIT_BASE;
      g = Math.floor(g / DIGIT_BASE);
    }
    i -= m;
  }
  return out;
}

function modPow2(e: number, l: bigint): bigint {
  let result = 1n;
  let base = 2n;
  let x = e;
  while (x > 0) {
    if (x & 1) result = (result * base) % l;
    base = (base * base) % l;
    x = Math.floor(x / 2);
  }
  return result;
}

/** Piece widths a K-bit digit may be read in (each divides K). */
export const PIECE_WIDTHS = [8, 4, 2, 1] as const;
export type PieceWidth = (typeof PIECE_WIDTHS)[number];

/**
 * Multiplications (squarings included) for the bucket method over these digits read in
 * w-bit pieces: per piece position, one per nonzero piece and two per bucket up to its
 * largest piece; then the positions' Horner steps (w squarings and one multiplication each).
 */
export function bucketCost(ds: Uint16Array, w: PieceWidth = CHECKPOINT_BITS): number {
  const positions = CHECKPOINT_BITS / w;
  const mask = (1 << w) - 1;
  let cost = (positions - 1) * (w + 1);
  for (let j = 0; j < positions; j++) {
    const shift = j * w;
    let nonzero = 0;
    let max = 0;
    for (const d of ds) {
      const piece = (d >> shift) & mask;
      if (piece !== 0) nonzero++;
      if (piece > max) max = piece;
    }
    cost += nonzero + (w === 1 ? 0 : 2 * max);
  }
  return cost;
}

/** The piece width with the fewest multiplications for these digits, and that count. */
export function cheapestWidth(ds: Uint16Array): { width: PieceWidth; cost: number } {
  let best: { width: PieceWidth; cost: number } = { width: CHECKPOINT_BITS, cost: bucketCost(ds) };
  for (const width of PIECE_WIDTHS) {
    if (width === CHECKPOINT_BITS) continue;
    const cost = bucketCost(ds, width);
    if (cost < best.cost) best = { width, cost };
  }
  return best;
}

/** Multiplications for the long division: T squarings plus one per 1 bit of q. */
export function longDivisionCost(t: number): number {
  return t + Math.max(0, t - PRIME_BITS + 1) / 2;
}

/**
 * dst = prod_i C_i^(b_i) over checkpoint slots cp(i), the digits read in w-bit pieces
 * (cheapestWidth's by default; every width gives the same element).
 */
export function proveFromCheckpoints(
  arith: WasmArith,
  slots: SlotAllocator,
  dst: number,
  cp: (i: number) => number,
  ds: Uint16Array,
  w: PieceWidth = cheapestWidth(ds).width,
): void {
  const nb = (1 << w) - 1;
  const scratch = slots.alloc(nb + 2);
  const sum = scratch + nb;
  const g = scratch + nb + 1;
  const filled = new Uint8Array(nb + 1);
  let started = false;
  // Horner over piece positions, the most significant first: dst = dst^(2^w) * G_j.
  for (let j = CHECKPOINT_BITS / w - 1; j >= 0; j--) {
    if (started) arith.sqrn(dst, w);
    filled.fill(0);
    const shift = j * w;
    for (let i = 0; i < ds.length; i++) {
      const piece = (ds[i] >> shift) & nb;
      if (piece === 0) continue;
      const b = scratch + piece - 1;
      if (filled[piece]) arith.mul(b, b, cp(i));
      else {
        arith.copy(b, cp(i));
        filled[piece] = 1;
      }
    }
    if (!combineBuckets(arith, scratch, filled, nb, sum, g)) continue;
    if (started) arith.mul(dst, dst, g);
    else {
      arith.copy(dst, g);
      started = true;
    }
  }
  if (!started) arith.one(dst);
  slots.free(scratch, nb + 2);
}

/** dst = x^floor(2^T / l) by long division (slot x unchanged). */
export function proveByLongDivision(arith: WasmArith, dst: number, x: number, t: number, l: bigint): void {
  arith.one(dst);
  let r = 1n;
  for (let i = 0; i < t; i++) {
    r <<= 1n;
    arith.sqr(dst, dst);
    if (r >= l) {
      r -= l;
      arith.mul(dst, dst, x);
    }
  }
}
