/**
 * Exponentiation algorithms over WASM slots: single windowed exponentiation, Straus
 * (interleaved windows) for a few bases and Pippenger (bucket method) for many bases,
 * choosing by estimated multiplication count. Used by verification (pi^l * x^r),
 * batch verification (random-exponent combinations) and proving (bucket accumulation).
 */
import type { WasmArith } from './wasm-arith.js';
import type { SlotAllocator } from './slots.js';

function bitLength(e: bigint): number {
  return e === 0n ? 0 : e.toString(2).length;
}

/** Digits of e in base 2^c, least significant first, `count` of them. */
function digits(e: bigint, c: number, count: number): Uint16Array {
  const out = new Uint16Array(count);
  const bits = e.toString(2);
  const len = bits.length;
  for (let w = 0; w < count; w++) {
    const endIdx = len - w * c; // exclusive end in the string (most significant first)
    if (endIdx <= 0) break;
    const startIdx = Math.max(0, endIdx - c);
    out[w] = parseInt(bits.slice(startIdx, endIdx), 2);
  }
  return out;
}

function strausCost(n: number, bits: number, w: number): number {
  return bits + n * ((1 << w) - 2 + Math.ceil(bits / w));
}

function pippengerCost(n: number, bits: number, c: number): number {
  return Math.ceil(bits / c) * (n + 2 * (1 << c)) + bits;
}

/**
 * dst = prod bases[i]^exps[i] (Montgomery slots). `dst` must not be one of the bases.
 * Exponents are non-negative bigints.
 */
export function multiExp(arith: WasmArith, slots: SlotAllocator, dst: number, bases: number[], exps: bigint[]): void {
  const n = bases.length;
  let bits = 0;
  for (const e of exps) bits = Math.max(bits, bitLength(e));
  if (n === 0 || bits === 0) {
    arith.one(dst);
    return;
  }
  let bestW = 1;
  for (let w = 2; w <= 6; w++) if (strausCost(n, bits, w) < strausCost(n, bits, bestW)) bestW = w;
  let bestC = 1;
  for (let c = 2; c <= 16; c++) if (pippengerCost(n, bits, c) < pippengerCost(n, bits, bestC)) bestC = c;
  // Straus tables need n * (2^w - 1) slots: only for small n.
  if (n * ((1 << bestW) - 1) <= 4096 && strausCost(n, bits, bestW) <= pippengerCost(n, bits, bestC)) {
    straus(arith, slots, dst, bases, exps, bits, bestW);
  } else {
    pippenger(arith, slots, dst, bases, exps, bits, bestC);
  }
}

function straus(
  arith: WasmArith,
  slots: SlotAllocator,
  dst: number,
  bases: number[],
  exps: bigint[],
  bits: number,
  w: number,
): void {
  const n = bases.length;
  const per = (1 << w) - 1; // table entries base^1 .. base^(2^w - 1)
  const table = slots.alloc(n * per);
  for (let i = 0; i < n; i++) {
    const t = table + i * per;
    arith.copy(t, bases[i]);
    if (per > 1) arith.sqr(t + 1, t);
    for (let j = 2; j < per; j++) arith.mul(t + j, t + j - 1, t);
  }
  const windows = Math.ceil(bits / w);
  const ds = exps.map((e) => digits(e, w, windows));
  let started = false;
  for (let win = windows - 1; win >= 0; win--) {
    if (started) arith.sqrn(dst, w);
    for (let i = 0; i < n; i++) {
      const d = ds[i][win];
      if (d === 0) continue;
      const src = table + i * per + d - 1;
      if (started) arith.mul(dst, dst, src);
      else {
        arith.copy(dst, src);
        started = true;
      }
    }
  }
  if (!started) arith.one(dst);
  slots.free(table, n * per);
}

/**
 * tot = prod_{d=1..nb} bucket_d^d, where bucket d sits in slot `scratch + d - 1` and
 * `filled[d]` says whether it holds anything, by running sums from the top bucket down:
 * 2 * nb multiplications at most. Returns false (tot untouched) when every bucket is empty.
 * `sum` and `tot` are scratch slots of their own. Shared by Pippenger and proving from
 * checkpoints, which fill buckets the same way.
 */
export function combineBuckets(
  arith: WasmArith,
  scratch: number,
  filled: Uint8Array,
  nb: number,
  sum: number,
  tot: number,
): boolean {
  let haveSum = false;
  let haveTot = false;
  for (let d = nb; d >= 1; d--) {
    if (filled[d]) {
      if (haveSum) arith.mul(sum, sum, scratch + d - 1);
      else {
        arith.copy(sum, scratch + d - 1);
        haveSum = true;
      }
    }
    if (haveSum) {
      if (haveTot) arith.mul(tot, tot, sum);
      else {
        arith.copy(tot, sum);
        haveTot = true;
      }
    }
  }
  return haveTot;
}

function pippenger(
  arith: WasmArith,
  slots: SlotAllocator,
  dst: number,
  bases: number[],
  exps: bigint[],
  bits: number,
  c: number,
): void {
  const n = bases.length;
  const nb = (1 << c) - 1;
  const scratch = slots.alloc(nb + 2);
  const sum = scratch + nb;
  const tot = scratch + nb + 1;
  const filled = new Uint8Array(nb + 1);
  const windows = Math.ceil(bits / c);
  const ds = exps.map((e) => digits(e, c, windows));
  let started = false;
  for (let win = windows - 1; win >= 0; win--) {
    if (started) arith.sqrn(dst, c);
    filled.fill(0);
    for (let i = 0; i < n; i++) {
      const d = ds[i][win];
      if (d === 0) continue;
      const b = scratch + d - 1;
      if (filled[d]) arith.mul(b, b, bases[i]);
      else {
        arith.copy(b, bases[i]);
        filled[d] = 1;
      }
    }
    if (combineBuckets(arith, scratch, filled, nb, sum, tot)) {
      if (started) arith.mul(dst, dst, tot);
      else {
        arith.copy(dst, tot);
        started = true;
      }
    }
  }
  if (!started) arith.one(dst);
  slots.free(scratch, nb + 2);
}
