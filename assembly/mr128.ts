/**
 * Miller-Rabin strong probable-prime rounds for the 128-bit Wesolowski challenge
 * candidates (docs/vdf.md "hash-to-prime"), in WASM because BigInt spent ~60 us per round:
 * Montgomery arithmetic on 4 x 32-bit limbs (CIOS), R = 2^128.
 *
 * The host writes n (2^127 < n < 2^128, odd) into MR_IO[0..4) as u32 little-endian limbs,
 * calls mrSetup(), then mrRound(base) for each base. mrSetup fills [4..8) R mod n,
 * [8..12) R^2 mod n, [12..16) n - (R mod n) (Montgomery -1), [16..20) d (n - 1 = d * 2^s),
 * [20] s, [21] -n^-1 mod 2^32.
 */

const MR_IO: usize = memory.data(128, 16);
const A: usize = memory.data(32, 16); // scratch limbs
const B: usize = memory.data(32, 16);
const T: usize = memory.data(32, 16);
const WIN: usize = memory.data(16 * 16, 16); // window table A^1..A^15

export function ptrMR(): usize {
  return MR_IO;
}

// @ts-ignore: decorator
@inline function limb(p: usize, i: i32): u64 {
  return <u64>load<u32>(p + (<usize>i << 2));
}

/** dst = a * b / 2^128 mod n (operands and result < n). dst may alias a or b. */
function mont(dst: usize, a: usize, b: usize): void {
  const np = <u64>load<u32>(MR_IO + 84);
  const n0 = limb(MR_IO, 0), n1 = limb(MR_IO, 1), n2 = limb(MR_IO, 2), n3 = limb(MR_IO, 3);
  const a0 = limb(a, 0), a1 = limb(a, 1), a2 = limb(a, 2), a3 = limb(a, 3);
  let t0: u64 = 0, t1: u64 = 0, t2: u64 = 0, t3: u64 = 0, t4: u64 = 0;
  for (let i = 0; i < 4; i++) {
    const bi = limb(b, i);
    let c: u64 = 0;
    let s: u64;
    s = t0 + a0 * bi; t0 = s & 0xffffffff; c = s >> 32;
    s = t1 + a1 * bi + c; t1 = s & 0xffffffff; c = s >> 32;
    s = t2 + a2 * bi + c; t2 = s & 0xffffffff; c = s >> 32;
    s = t3 + a3 * bi + c; t3 = s & 0xffffffff; c = s >> 32;
    s = t4 + c; t4 = s & 0xffffffff; const t5 = s >> 32;
    const m = (t0 * np) & 0xffffffff;
    s = t0 + m * n0; c = s >> 32;
    s = t1 + m * n1 + c; t0 = s & 0xffffffff; c = s >> 32;
    s = t2 + m * n2 + c; t1 = s & 0xffffffff; c = s >> 32;
    s = t3 + m * n3 + c; t2 = s & 0xffffffff; c = s >> 32;
    s = t4 + c; t3 = s & 0xffffffff; c = s >> 32;
    t4 = t5 + c;
  }
  // Conditional subtraction of n.
  let ge = t4 != 0;
  if (!ge) {
    if (t3 != n3) ge = t3 > n3;
    else if (t2 != n2) ge = t2 > n2;
    else if (t1 != n1) ge = t1 > n1;
    else ge = t0 >= n0;
  }
  if (ge) {
    let borrow: i64 = 0;
    let d: i64;
    d = <i64>t0 - <i64>n0; borrow = d < 0 ? 1 : 0; t0 = <u64>(d + (borrow << 32));
    d = <i64>t1 - <i64>n1 - borrow; borrow = d < 0 ? 1 : 0; t1 = <u64>(d + (borrow << 32));
    d = <i64>t2 - <i64>n2 - borrow; borrow = d < 0 ? 1 : 0; t2 = <u64>(d + (borrow << 32));
    d = <i64>t3 - <i64>n3 - borrow; borrow = d < 0 ? 1 : 0; t3 = <u64>(d + (borrow << 32));
  }
  store<u32>(dst, <u32>t0);
  store<u32>(dst + 4, <u32>t1);
  store<u32>(dst + 8, <u32>t2);
  store<u32>(dst + 12, <u32>t3);
}

/** Fill the per-candidate constants from n (all in WASM: no BigInt work in the host). */
export function mrSetup(): void {
  // R mod n = 2^128 - n, since n < 2^128 < 2n.
  let borrow: i64 = 0;
  for (let i = 0; i < 4; i++) {
    let d: i64 = 0 - <i64>limb(MR_IO, i) - borrow;
    borrow = d < 0 ? 1 : 0;
    d += borrow << 32;
    store<u32>(MR_IO + 16 + (<usize>i << 2), <u32>d);
  }
  // R^2 mod n: double R mod n 128 times, reducing each time (values stay below n).
  let v0 = limb(MR_IO, 4), v1 = limb(MR_IO, 5), v2 = limb(MR_IO, 6), v3 = limb(MR_IO, 7);
  const n0 = limb(MR_IO, 0), n1 = limb(MR_IO, 1), n2 = limb(MR_IO, 2), n3 = limb(MR_IO, 3);
  for (let k = 0; k < 128; k++) {
    const top = v3 >> 31;
    v3 = ((v3 << 1) | (v2 >> 31)) & 0xffffffff;
    v2 = ((v2 << 1) | (v1 >> 31)) & 0xffffffff;
    v1 = ((v1 << 1) | (v0 >> 31)) & 0xffffffff;
    v0 = (v0 << 1) & 0xffffffff;
    let ge = top != 0;
    if (!ge) {
      if (v3 != n3) ge = v3 > n3;
      else if (v2 != n2) ge = v2 > n2;
      else if (v1 != n1) ge = v1 > n1;
      else ge = v0 >= n0;
    }
    if (ge) {
      let b: i64 = 0;
      let d: i64;
      d = <i64>v0 - <i64>n0; b = d < 0 ? 1 : 0; v0 = <u64>(d + (b << 32));
      d = <i64>v1 - <i64>n1 - b; b = d < 0 ? 1 : 0; v1 = <u64>(d + (b << 32));
      d = <i64>v2 - <i64>n2 - b; b = d < 0 ? 1 : 0; v2 = <u64>(d + (b << 32));
      d = <i64>v3 - <i64>n3 - b; b = d < 0 ? 1 : 0; v3 = <u64>(d + (b << 32));
    }
  }
  store<u32>(MR_IO + 32, <u32>v0);
  store<u32>(MR_IO + 36, <u32>v1);
  store<u32>(MR_IO + 40, <u32>v2);
  store<u32>(MR_IO + 44, <u32>v3);
  // Montgomery -1 = n - (R mod n).
  borrow = 0;
  for (let i = 0; i < 4; i++) {
    let d: i64 = <i64>limb(MR_IO, i) - <i64>limb(MR_IO, 4 + i) - borrow;
    borrow = d < 0 ? 1 : 0;
    d += borrow << 32;
    store<u32>(MR_IO + 48 + (<usize>i << 2), <u32>d);
  }
  // n - 1 = d * 2^s (n odd, so n - 1 is n with bit 0 cleared).
  const lo: u64 = (limb(MR_IO, 1) << 32) | (limb(MR_IO, 0) & 0xfffffffe);
  const hi: u64 = (limb(MR_IO, 3) << 32) | limb(MR_IO, 2);
  let s: i32;
  let dlo: u64;
  let dhi: u64;
  if (lo != 0) {
    s = <i32>ctz(lo);
    dlo = (lo >> <u64>s) | (s == 0 ? 0 : hi << <u64>(64 - s));
    dhi = hi >> <u64>s;
  } else {
    s = 64 + <i32>ctz(hi);
    dlo = hi >> <u64>(s - 64);
    dhi = 0;
  }
  store<u64>(MR_IO + 64, dlo);
  store<u64>(MR_IO + 72, dhi);
  store<i32>(MR_IO + 80, s);
  // -n^-1 mod 2^32 by Newton iteration.
  const m = <u32>n0;
  let inv: u32 = 1;
  for (let i = 0; i < 5; i++) inv = inv * (2 - m * inv);
  store<u32>(MR_IO + 84, 0 - inv);
}

function eq(a: usize, b: usize): bool {
  return load<u64>(a) == load<u64>(b) && load<u64>(a + 8) == load<u64>(b + 8);
}

/** One strong probable-prime round to `base` (2 <= base < n): 1 = passes, 0 = composite. */
export function mrRound(base: u32): i32 {
  // A = base in Montgomery form.
  store<u64>(T, <u64>base);
  store<u64>(T + 8, 0);
  mont(A, T, MR_IO + 32);
  // B = A^d with a 4-bit fixed window: table W[v] = A^v for v = 1..15.
  memory.copy(WIN, A, 16);
  for (let v = 2; v < 16; v++) mont(WIN + (<usize>(v - 1) << 4), WIN + (<usize>(v - 2) << 4), A);
  memory.copy(B, MR_IO + 16, 16); // Montgomery one
  let started = false;
  for (let i = 31; i >= 0; i--) {
    if (started) {
      mont(B, B, B);
      mont(B, B, B);
      mont(B, B, B);
      mont(B, B, B);
    }
    const nib = (load<u32>(MR_IO + 64 + (<usize>(i >> 3) << 2)) >> ((<u32>i & 7) << 2)) & 15;
    if (nib != 0) {
      mont(B, B, WIN + (<usize>(nib - 1) << 4));
      started = true;
    }
  }
  const one = MR_IO + 16;
  const minusOne = MR_IO + 48;
  if (eq(B, one) || eq(B, minusOne)) return 1;
  const s = load<i32>(MR_IO + 80);
  for (let r = 1; r < s; r++) {
    mont(B, B, B);
    if (eq(B, minusOne)) return 1;
    if (eq(B, one)) return 0;
  }
  return 0;
}
