/**
 * RSA-2048 Montgomery arithmetic for the VDF (docs/vdf.md; notes: docs/vdf-internals.md), in AssemblyScript -> WASM.
 *
 * Why this shape (each choice measured against V8 BigInt in bench/vdf.bench.ts):
 * - 28-bit limbs (74 of them, R = 2^2072) held in u32 slots, so a whole column of
 *   products (<= 148 of 56 bits, plus carries) accumulates in u64 lanes without any
 *   carry handling inside the inner loops (lazy carries, one shift per column);
 * - product scanning (column by column) with the Montgomery reduction interleaved
 *   ("FIPS" order): the a*b and m*N products of a column share one loop;
 * - SIMD: i64x2.extmul_{low,high}_i32x4_u multiplies 4 limb pairs per v128 load pair;
 *   one operand is kept reversed (b, N) so both loads are contiguous;
 * - dedicated squaring: only the products a_i*a_j with i < j, doubled, plus the diagonal;
 * - R > 4N, so inputs and outputs stay in [0, 2N) and no final subtraction is needed
 *   inside chains of squarings; the canonical value is made only when leaving WASM.
 *
 * Operands live in linear memory at addresses chosen by the host (slots of SLOT_BYTES);
 * the host (src/vdf/wasm-arith.ts) writes the constants (N, reversed N, R^2 mod N,
 * (N-1)/2 and -N^-1 mod 2^28) once, through the pointers exported below.
 */

// @ts-ignore: decorator
@inline const L: i32 = 74; // limbs
// @ts-ignore: decorator
@inline const LP: i32 = 84; // padded limbs per buffer (zero pads let unrolled vector loops over-run by 7)
// @ts-ignore: decorator
@inline const MASK: u64 = 0xfffffff;

const NL: usize = memory.data(LP * 4, 16); // N, plain limbs
const NREV: usize = memory.data((LP + 4) * 4, 16) + 16; // NREV[j] = N[L-1-j], zero pads (also NREV[-4..-1])
const R2: usize = memory.data(LP * 4, 16); // R^2 mod N, plain limbs
const HALF: usize = memory.data(LP * 4, 16); // (N-1)/2, plain limbs
const BREV: usize = memory.data((LP + 4) * 4, 16) + 16; // reversed copy of the second operand, zero pads both ends
const M: usize = memory.data(LP * 4, 16); // Montgomery quotient digits
const TMP: usize = memory.data(LP * 4, 16); // scratch element
const TAILMASK: usize = memory.data(4 * 16, 16); // lane masks for 1..3 trailing limbs
const IO: usize = memory.data(4096, 16); // byte exchange with the host
const C2048: usize = memory.data(LP * 4, 16); // 2^2048 * R^2 mod N, plain limbs (for load320)
let N0INV: u64 = 0;

export const SLOT_BYTES: i32 = LP * 4;

export function ptrN(): usize { return NL; }
export function ptrNRev(): usize { return NREV; }
export function ptrR2(): usize { return R2; }
export function ptrHalf(): usize { return HALF; }
export function ptrIO(): usize { return IO; }
export function ptrC2048(): usize { return C2048; }
export function heapBase(): usize { return (__heap_base + 63) & ~(<usize>63); }
export function setN0Inv(v: u32): void {
  N0INV = <u64>v;
  store<u32>(TAILMASK + 16, 0xffffffff); // 1 limb
  store<u32>(TAILMASK + 32, 0xffffffff); // 2 limbs
  store<u32>(TAILMASK + 36, 0xffffffff);
  store<u32>(TAILMASK + 48, 0xffffffff); // 3 limbs
  store<u32>(TAILMASK + 52, 0xffffffff);
  store<u32>(TAILMASK + 56, 0xffffffff);
}

/** BREV[j] = src[L-1-j] for j < L, with v128 lane reversals (pads of BREV stay zero). */
// @ts-ignore: decorator
@inline function reverseInto(src: usize): void {
  for (let g = 0; g < 18; g++) {
    const v = v128.load(src + (<usize>g << 4));
    v128.store(BREV + (<usize>(70 - 4 * g) << 2), i32x4.shuffle(v, v, 3, 2, 1, 0));
  }
  store<u32>(BREV, load<u32>(src + 4 * 73));
  store<u32>(BREV + 4, load<u32>(src + 4 * 72));
}

/**
 * dst = a * b / R mod N (Montgomery), inputs < 4N, output < 2N; dst may alias a or b.
 * Two columns per pass, like sqr.
 */
export function mul(dst: usize, a: usize, b: usize): void {
  reverseInto(b);
  const n0 = N0INV;
  const nlow = <u64>load<u32>(NL);
  const n1 = <u64>load<u32>(NL + 4);
  const n2 = <u64>load<u32>(NL + 8);
  let carry: u64 = 0;
  let mprev: u64 = 0;
  for (let k = 0; k < 2 * L - 1; k += 2) {
    const has1 = k + 1 <= 2 * L - 2;
    const lo = k < L ? 0 : k - L + 1;
    // a_i * b_(k-i) for column k and a_i * b_(k+1-i) for k + 1, i over both ranges (zero pads
    // of a, BREV[-1] and BREV[L..] make the extra products zero).
    let pa = a + (<usize>lo << 2);
    let pb = BREV + (<usize>(L - 1 - k + lo) << 2);
    const last = a + (<usize>(k < L ? k + 1 : L - 1) << 2);
    let c0 = i64x2.splat(0);
    let c1 = i64x2.splat(0);
    let d0 = i64x2.splat(0);
    let d1 = i64x2.splat(0);
    while (pa <= last) {
      const av = v128.load(pa);
      const bv = v128.load(pb);
      const bw = v128.load(pb - 4);
      c0 = i64x2.add(c0, i64x2.extmul_low_i32x4_u(av, bv));
      c1 = i64x2.add(c1, i64x2.extmul_high_i32x4_u(av, bv));
      d0 = i64x2.add(d0, i64x2.extmul_low_i32x4_u(av, bw));
      d1 = i64x2.add(d1, i64x2.extmul_high_i32x4_u(av, bw));
      pa += 16;
      pb += 16;
    }
    let sK: u64 = carry;
    let sK1: u64 = 0;
    let e0 = i64x2.splat(0);
    let e1 = i64x2.splat(0);
    let f0 = i64x2.splat(0);
    let f1 = i64x2.splat(0);
    if (k < L) {
      // Reduction over j in [0, k-2] in whole groups (never reloading fresh digits), rest scalar.
      const groups = k >= 1 ? (k - 1) >> 2 : 0;
      let pm = M;
      let pn = NREV + (<usize>(L - 1 - k) << 2);
      for (let g = 0; g < groups; g++) {
        const mv = v128.load(pm);
        const nv = v128.load(pn);
        const nw = v128.load(pn - 4);
        e0 = i64x2.add(e0, i64x2.extmul_low_i32x4_u(mv, nv));
        e1 = i64x2.add(e1, i64x2.extmul_high_i32x4_u(mv, nv));
        f0 = i64x2.add(f0, i64x2.extmul_low_i32x4_u(mv, nw));
        f1 = i64x2.add(f1, i64x2.extmul_high_i32x4_u(mv, nw));
        pm += 16;
        pn += 16;
      }
      for (let j = groups << 2; j <= k - 2; j++) {
        const mj = <u64>load<u32>(M + (<usize>j << 2));
        sK += mj * <u64>load<u32>(NL + (<usize>(k - j) << 2));
        sK1 += mj * <u64>load<u32>(NL + (<usize>(k + 1 - j) << 2));
      }
      if (k >= 1) {
        sK += mprev * n1;
        sK1 += mprev * n2;
      }
      const accK = i64x2.add(i64x2.add(c0, c1), i64x2.add(e0, e1));
      sK += <u64>i64x2.extract_lane(accK, 0) + <u64>i64x2.extract_lane(accK, 1);
      const mk: u64 = ((sK & MASK) * n0) & MASK;
      store<u32>(M + (<usize>k << 2), <u32>mk);
      sK += mk * nlow;
      carry = sK >> 28;
      // Column k + 1 (still in the first half: k + 1 <= L - 1 since L is even).
      const accK1 = i64x2.add(i64x2.add(d0, d1), i64x2.add(f0, f1));
      sK1 += carry + mk * n1 + <u64>i64x2.extract_lane(accK1, 0) + <u64>i64x2.extract_lane(accK1, 1);
      const mk1: u64 = ((sK1 & MASK) * n0) & MASK;
      store<u32>(M + (<usize>(k + 1) << 2), <u32>mk1);
      sK1 += mk1 * nlow;
      carry = sK1 >> 28;
      mprev = mk1;
    } else {
      // Reduction over j in [lo, L-1] for column k and [lo+1, L-1] for k + 1 (NREV[-1] = 0).
      let pm = M + (<usize>lo << 2);
      let pn = NREV;
      const mend = M + (<usize>(L - 1) << 2);
      while (pm <= mend) {
        const mv = v128.load(pm);
        const nv = v128.load(pn);
        const nw = v128.load(pn - 4);
        e0 = i64x2.add(e0, i64x2.extmul_low_i32x4_u(mv, nv));
        e1 = i64x2.add(e1, i64x2.extmul_high_i32x4_u(mv, nv));
        f0 = i64x2.add(f0, i64x2.extmul_low_i32x4_u(mv, nw));
        f1 = i64x2.add(f1, i64x2.extmul_high_i32x4_u(mv, nw));
        pm += 16;
        pn += 16;
      }
      const accK = i64x2.add(i64x2.add(c0, c1), i64x2.add(e0, e1));
      sK += <u64>i64x2.extract_lane(accK, 0) + <u64>i64x2.extract_lane(accK, 1);
      store<u32>(dst + (<usize>(k - L) << 2), <u32>(sK & MASK));
      carry = sK >> 28;
      if (has1) {
        const accK1 = i64x2.add(i64x2.add(d0, d1), i64x2.add(f0, f1));
        sK1 += carry + <u64>i64x2.extract_lane(accK1, 0) + <u64>i64x2.extract_lane(accK1, 1);
        store<u32>(dst + (<usize>(k + 1 - L) << 2), <u32>(sK1 & MASK));
        carry = sK1 >> 28;
      }
    }
  }
  store<u32>(dst + (<usize>(L - 1) << 2), <u32>carry);
}

/**
 * dst = a^2 / R mod N: only the cross products a_i * a_j with i < j (doubled) plus the
 * diagonal, two columns per pass (k even and k + 1): both columns read the same `a` and
 * `M` vectors (one operand load saved per group), and the loop bookkeeping and loop-exit
 * branches are paid once per two columns (measured 11% faster than one column per pass).
 * dst may alias a.
 */
export function sqr(dst: usize, a: usize): void {
  reverseInto(a);
  const n0 = N0INV;
  const nlow = <u64>load<u32>(NL);
  const n1 = <u64>load<u32>(NL + 4);
  const n2 = <u64>load<u32>(NL + 8);
  let carry: u64 = 0;
  let mprev: u64 = 0;
  for (let k = 0; k < 2 * L - 1; k += 2) {
    const has1 = k + 1 <= 2 * L - 2;
    const lo = k < L ? 0 : k - L + 1;
    const hi = (k - 1) >> 1;
    // Cross products for column k (a_i * a_(k-i), i in [lo, hi]) and k + 1 (same i, one limb over).
    let pa = a + (<usize>lo << 2);
    let pb = BREV + (<usize>(L - 1 - k + lo) << 2);
    const last = a + (<usize>hi << 2);
    let c0 = i64x2.splat(0);
    let c1 = i64x2.splat(0);
    let d0 = i64x2.splat(0);
    let d1 = i64x2.splat(0);
    while (pa + 12 <= last) {
      const av = v128.load(pa);
      const bv = v128.load(pb);
      const bw = v128.load(pb - 4);
      c0 = i64x2.add(c0, i64x2.extmul_low_i32x4_u(av, bv));
      c1 = i64x2.add(c1, i64x2.extmul_high_i32x4_u(av, bv));
      d0 = i64x2.add(d0, i64x2.extmul_low_i32x4_u(av, bw));
      d1 = i64x2.add(d1, i64x2.extmul_high_i32x4_u(av, bw));
      pa += 16;
      pb += 16;
    }
    if (pa <= last) {
      const av = v128.and(v128.load(pa), v128.load(TAILMASK + ((last - pa + 4) << 2)));
      const bv = v128.load(pb);
      const bw = v128.load(pb - 4);
      c0 = i64x2.add(c0, i64x2.extmul_low_i32x4_u(av, bv));
      c1 = i64x2.add(c1, i64x2.extmul_high_i32x4_u(av, bv));
      d0 = i64x2.add(d0, i64x2.extmul_low_i32x4_u(av, bw));
      d1 = i64x2.add(d1, i64x2.extmul_high_i32x4_u(av, bw));
    }
    const half = k >> 1;
    const ah = <u64>load<u32>(a + (<usize>half << 2));
    let sK: u64 = carry + ah * ah;
    let sK1: u64 = has1 ? (ah * <u64>load<u32>(a + (<usize>(half + 1) << 2))) << 1 : 0;
    let e0 = i64x2.splat(0);
    let e1 = i64x2.splat(0);
    let f0 = i64x2.splat(0);
    let f1 = i64x2.splat(0);
    if (k < L) {
      // Reduction over j in [0, k-2] in whole groups (never reloading fresh digits), rest scalar.
      const groups = k >= 1 ? (k - 1) >> 2 : 0;
      let pm = M;
      let pn = NREV + (<usize>(L - 1 - k) << 2);
      for (let g = 0; g < groups; g++) {
        const mv = v128.load(pm);
        const nv = v128.load(pn);
        const nw = v128.load(pn - 4);
        e0 = i64x2.add(e0, i64x2.extmul_low_i32x4_u(mv, nv));
        e1 = i64x2.add(e1, i64x2.extmul_high_i32x4_u(mv, nv));
        f0 = i64x2.add(f0, i64x2.extmul_low_i32x4_u(mv, nw));
        f1 = i64x2.add(f1, i64x2.extmul_high_i32x4_u(mv, nw));
        pm += 16;
        pn += 16;
      }
      for (let j = groups << 2; j <= k - 2; j++) {
        const mj = <u64>load<u32>(M + (<usize>j << 2));
        sK += mj * <u64>load<u32>(NL + (<usize>(k - j) << 2));
        sK1 += mj * <u64>load<u32>(NL + (<usize>(k + 1 - j) << 2));
      }
      if (k >= 1) {
        sK += mprev * n1;
        sK1 += mprev * n2;
      }
      const accK = i64x2.add(i64x2.shl(i64x2.add(c0, c1), 1), i64x2.add(e0, e1));
      sK += <u64>i64x2.extract_lane(accK, 0) + <u64>i64x2.extract_lane(accK, 1);
      const mk: u64 = ((sK & MASK) * n0) & MASK;
      store<u32>(M + (<usize>k << 2), <u32>mk);
      sK += mk * nlow;
      carry = sK >> 28;
      // Column k + 1 (still in the first half: k + 1 <= L - 1 since L is even).
      const accK1 = i64x2.add(i64x2.shl(i64x2.add(d0, d1), 1), i64x2.add(f0, f1));
      sK1 += carry + mk * n1 + <u64>i64x2.extract_lane(accK1, 0) + <u64>i64x2.extract_lane(accK1, 1);
      const mk1: u64 = ((sK1 & MASK) * n0) & MASK;
      store<u32>(M + (<usize>(k + 1) << 2), <u32>mk1);
      sK1 += mk1 * nlow;
      carry = sK1 >> 28;
      mprev = mk1;
    } else {
      // Reduction over j in [lo, L-1] for column k and [lo+1, L-1] for k + 1 (NREV[-1] = 0).
      let pm = M + (<usize>lo << 2);
      let pn = NREV;
      const mend = M + (<usize>(L - 1) << 2);
      while (pm <= mend) {
        const mv = v128.load(pm);
        const nv = v128.load(pn);
        const nw = v128.load(pn - 4);
        e0 = i64x2.add(e0, i64x2.extmul_low_i32x4_u(mv, nv));
        e1 = i64x2.add(e1, i64x2.extmul_high_i32x4_u(mv, nv));
        f0 = i64x2.add(f0, i64x2.extmul_low_i32x4_u(mv, nw));
        f1 = i64x2.add(f1, i64x2.extmul_high_i32x4_u(mv, nw));
        pm += 16;
        pn += 16;
      }
      const accK = i64x2.add(i64x2.shl(i64x2.add(c0, c1), 1), i64x2.add(e0, e1));
      sK += <u64>i64x2.extract_lane(accK, 0) + <u64>i64x2.extract_lane(accK, 1);
      store<u32>(dst + (<usize>(k - L) << 2), <u32>(sK & MASK));
      carry = sK >> 28;
      if (has1) {
        const accK1 = i64x2.add(i64x2.shl(i64x2.add(d0, d1), 1), i64x2.add(f0, f1));
        sK1 += carry + <u64>i64x2.extract_lane(accK1, 0) + <u64>i64x2.extract_lane(accK1, 1);
        store<u32>(dst + (<usize>(k + 1 - L) << 2), <u32>(sK1 & MASK));
        carry = sK1 >> 28;
      }
    }
  }
  store<u32>(dst + (<usize>(L - 1) << 2), <u32>carry);
}

/** k squarings in place. */
export function sqrn(x: usize, k: i32): void {
  for (let i = 0; i < k; i++) sqr(x, x);
}

export function copy(dst: usize, src: usize): void {
  memory.copy(dst, src, <usize>(L << 2));
}

/** a >= b on plain limbs. */
function geq(a: usize, b: usize): bool {
  for (let i = L - 1; i >= 0; i--) {
    const x = load<u32>(a + (<usize>i << 2));
    const y = load<u32>(b + (<usize>i << 2));
    if (x != y) return x > y;
  }
  return true;
}

/** dst = a - b on plain limbs (a >= b). */
function sub(dst: usize, a: usize, b: usize): void {
  let borrow: i64 = 0;
  for (let i = 0; i < L; i++) {
    let d: i64 = <i64>load<u32>(a + (<usize>i << 2)) - <i64>load<u32>(b + (<usize>i << 2)) - borrow;
    borrow = d < 0 ? 1 : 0;
    d += borrow << 28;
    store<u32>(dst + (<usize>i << 2), <u32>d);
  }
}

/** Read `len` big-endian bytes at src into dst as plain limbs (len <= 256, no range check). */
function bytesToLimbs(dst: usize, src: usize, len: i32): void {
  let acc: u64 = 0;
  let bits: i32 = 0;
  let j = 0;
  for (let p = len - 1; p >= 0; p--) {
    acc |= <u64>load<u8>(src + <usize>p) << <u64>bits;
    bits += 8;
    if (bits >= 28) {
      store<u32>(dst + (<usize>j << 2), <u32>(acc & MASK));
      j++;
      acc >>= 28;
      bits -= 28;
    }
  }
  store<u32>(dst + (<usize>j << 2), <u32>acc);
  j++;
  for (; j < L; j++) store<u32>(dst + (<usize>j << 2), 0);
}

/** Write plain limbs of src as 256 big-endian bytes into IO. */
function limbsToBytes(src: usize): void {
  let acc: u64 = 0;
  let bits: i32 = 0;
  let j = 0;
  for (let p = 255; p >= 0; p--) {
    if (bits < 8) {
      acc |= <u64>load<u32>(src + (<usize>j << 2)) << <u64>bits;
      j++;
      bits += 28;
    }
    store<u8>(IO + <usize>p, <u8>(acc & 0xff));
    acc >>= 8;
    bits -= 8;
  }
}

/** dst = Montgomery form of the 256-byte big-endian value in IO (value must be < N). */
export function load256(dst: usize): void {
  bytesToLimbs(dst, IO, 256);
  mul(dst, dst, R2);
}

/**
 * dst = Montgomery form of the 320-byte big-endian value in IO, reduced mod N (the
 * hash-to-group reduction): hi * 2^2048 + lo with hi the first 64 bytes. The result is
 * below 4N, which mul and sqr accept (R > 8N).
 */
export function load320(dst: usize): void {
  bytesToLimbs(dst, IO + 64, 256);
  mul(dst, dst, R2); // lo * R
  bytesToLimbs(TMP, IO, 64);
  mul(TMP, TMP, C2048); // hi * 2^2048 * R
  let carry: u32 = 0;
  for (let j = 0; j < L; j++) {
    const v = load<u32>(dst + (<usize>j << 2)) + load<u32>(TMP + (<usize>j << 2)) + carry;
    store<u32>(dst + (<usize>j << 2), v & <u32>MASK);
    carry = v >> 28;
  }
}

/** IO = canonical signed residue |src| as 256 big-endian bytes. */
export function store256(src: usize): void {
  // TMP = src / R mod N = plain value, in [0, N].
  for (let j = 0; j < LP; j++) store<u32>(TMP + (<usize>j << 2), 0);
  store<u32>(TMP, 1);
  mul(TMP, src, TMP);
  if (geq(TMP, NL)) sub(TMP, TMP, NL);
  if (!geq(HALF, TMP)) sub(TMP, NL, TMP);
  limbsToBytes(TMP);
}

/** dst = Montgomery one (R mod N). */
export function one(dst: usize): void {
  for (let j = 0; j < L; j++) store<u32>(dst + (<usize>j << 2), 0);
  store<u32>(dst, 1);
  mul(dst, dst, R2);
}

export { ptrMR, mrRound, mrSetup } from './mr128';
export { ptrH2GTag, setH2GTagLength } from './sha256';
import { expandTickSeed } from './sha256';

/**
 * dst = x_n for tick n (hash-to-group, docs/vdf.md), from IO[0..256) = previous output and
 * IO[256..288) = batch hash (both validated by the host). Result in Montgomery form, < 4N.
 */
export function hashToGroup(dst: usize, tickHi: u32, tickLo: u32): void {
  expandTickSeed(IO, tickHi, tickLo, IO + 512);
  memory.copy(IO, IO + 512, 320);
  load320(dst);
}
