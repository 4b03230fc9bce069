/**
 * Miller-Rabin strong probable-prime rounds for the 128-bit Wesolowski challenge
 * candidates (docs/vdf.md "hash-to-prime"), in WASM because BigInt spent ~60 us per round:
 * Montgomery arithmetic on 4 x 32-bit limbs (CIOS), R = 2^128.
 *
 * The host writes into MR_IO (u32 little-endian limbs): [0..4) n, [4..8) R mod n,
 * [8..12) R^2 mod n, [12..16) n - (R mod n) (Montgomery -1), [16..20) d (n - 1 = d * 2^s),
 * [20] s, [21] -n^-1 mod 2^32; then calls mrRound(base) for each base.
 */

const MR_IO: usize = memory.data(128, 16);
const A: usize = memory.data(32, 16); // scratch limbs
const B: usize = memory.data(32, 16);
const T: usize = memory.data(32, 16);

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
  let t0: u64 = 0, t1: u64 = 0, t2: u64 = 0, t3: u64 = 0, t4: u64 = 0;
  for (let i = 0; i < 4; i++) {
    const bi = limb(b, i);
    let c: u64 = 0;
    let s: u64;
    s = t0 + limb(a, 0) * bi; t0 = s & 0xffffffff; c = s >> 32;
    s = t1 + limb(a, 1) * bi + c; t1 = s & 0xffffffff; c = s >> 32;
    s = t2 + limb(a, 2) * bi + c; t2 = s & 0xffffffff; c = s >> 32;
    s = t3 + limb(a, 3) * bi + c; t3 = s & 0xffffffff; c = s >> 32;
    s = t4 + c; t4 = s & 0xffffffff; const t5 = s >> 32;
    const m = (t0 * np) & 0xffffffff;
    s = t0 + m * limb(MR_IO, 0); c = s >> 32;
    s = t1 + m * limb(MR_IO, 1) + c; t0 = s & 0xffffffff; c = s >> 32;
    s = t2 + m * limb(MR_IO, 2) + c; t1 = s & 0xffffffff; c = s >> 32;
    s = t3 + m * limb(MR_IO, 3) + c; t2 = s & 0xffffffff; c = s >> 32;
    s = t4 + c; t3 = s & 0xffffffff; c = s >> 32;
    t4 = t5 + c;
  }
  // Conditional subtraction of n.
  let ge = t4 != 0;
  if (!ge) {
    const n3 = limb(MR_IO, 3), n2 = limb(MR_IO, 2), n1 = limb(MR_IO, 1), n0 = limb(MR_IO, 0);
    if (t3 != n3) ge = t3 > n3;
    else if (t2 != n2) ge = t2 > n2;
    else if (t1 != n1) ge = t1 > n1;
    else ge = t0 >= n0;
  }
  if (ge) {
    let borrow: i64 = 0;
    let d: i64;
    d = <i64>t0 - <i64>limb(MR_IO, 0); borrow = d < 0 ? 1 : 0; t0 = <u64>(d + (borrow << 32));
    d = <i64>t1 - <i64>limb(MR_IO, 1) - borrow; borrow = d < 0 ? 1 : 0; t1 = <u64>(d + (borrow << 32));
    d = <i64>t2 - <i64>limb(MR_IO, 2) - borrow; borrow = d < 0 ? 1 : 0; t2 = <u64>(d + (borrow << 32));
    d = <i64>t3 - <i64>limb(MR_IO, 3) - borrow; borrow = d < 0 ? 1 : 0; t3 = <u64>(d + (borrow << 32));
  }
  store<u32>(dst, <u32>t0);
  store<u32>(dst + 4, <u32>t1);
  store<u32>(dst + 8, <u32>t2);
  store<u32>(dst + 12, <u32>t3);
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
  // B = A^d, left to right over the 128 bits of d.
  memory.copy(B, MR_IO + 16, 16); // Montgomery one
  let started = false;
  for (let i = 127; i >= 0; i--) {
    if (started) mont(B, B, B);
    const bit = (load<u32>(MR_IO + 64 + (<usize>(i >> 5) << 2)) >> (<u32>i & 31)) & 1;
    if (bit) {
      mont(B, B, A);
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
