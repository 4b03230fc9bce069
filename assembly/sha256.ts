/**
 * SHA-256 (FIPS 180-4) and the hash-to-group expansion in WASM (docs/vdf.md): a busy tick
 * spends 15 SHA-256 compressions on hash-to-group, about 12 us in JavaScript and a few
 * in WASM. The JavaScript path (src/vdf/hashing.ts) stays as the reference the tests
 * compare this with.
 */

const K: usize = memory.data<u32>([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const W: usize = memory.data(64 * 4, 16);
const H: usize = memory.data(8 * 4, 16);
const MSG: usize = memory.data(384, 16); // padded message buffer
const TAG: usize = memory.data(64, 16); // hash-to-group tag, written by the host
const SEED: usize = memory.data(32, 16);
let tagLen: i32 = 0;

export function ptrH2GTag(): usize {
  return TAG;
}
export function setH2GTagLength(n: i32): void {
  tagLen = n;
}


function init(): void {
  store<u32>(H, 0x6a09e667);
  store<u32>(H, 0xbb67ae85, 4);
  store<u32>(H, 0x3c6ef372, 8);
  store<u32>(H, 0xa54ff53a, 12);
  store<u32>(H, 0x510e527f, 16);
  store<u32>(H, 0x9b05688c, 20);
  store<u32>(H, 0x1f83d9ab, 24);
  store<u32>(H, 0x5be0cd19, 28);
}

function compress(block: usize): void {
  for (let i = 0; i < 16; i++) store<u32>(W + (<usize>i << 2), bswap<u32>(load<u32>(block + (<usize>i << 2))));
  for (let i = 16; i < 64; i++) {
    const w15 = load<u32>(W + (<usize>(i - 15) << 2));
    const w2 = load<u32>(W + (<usize>(i - 2) << 2));
    const s0 = rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10);
    store<u32>(W + (<usize>i << 2), load<u32>(W + (<usize>(i - 16) << 2)) + s0 + load<u32>(W + (<usize>(i - 7) << 2)) + s1);
  }
  let a = load<u32>(H), b = load<u32>(H, 4), c = load<u32>(H, 8), d = load<u32>(H, 12);
  let e = load<u32>(H, 16), f = load<u32>(H, 20), g = load<u32>(H, 24), h = load<u32>(H, 28);
  for (let i = 0; i < 64; i++) {
    const S1 = rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25);
    const ch = (e & f) ^ (~e & g);
    const t1 = h + S1 + ch + load<u32>(K + (<usize>i << 2)) + load<u32>(W + (<usize>i << 2));
    const S0 = rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22);
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = S0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  store<u32>(H, load<u32>(H) + a);
  store<u32>(H, load<u32>(H, 4) + b, 4);
  store<u32>(H, load<u32>(H, 8) + c, 8);
  store<u32>(H, load<u32>(H, 12) + d, 12);
  store<u32>(H, load<u32>(H, 16) + e, 16);
  store<u32>(H, load<u32>(H, 20) + f, 20);
  store<u32>(H, load<u32>(H, 24) + g, 24);
  store<u32>(H, load<u32>(H, 28) + h, 28);
}

/** SHA-256 of MSG[0..len) (MSG has room for the padding) into out (32 bytes). */
function hashMsg(len: i32, out: usize): void {
  const padded = ((len + 9 + 63) >> 6) << 6;
  store<u8>(MSG + <usize>len, 0x80);
  memory.fill(MSG + <usize>len + 1, 0, <usize>(padded - len - 1));
  const bits = <u64>len << 3;
  store<u64>(MSG + <usize>padded - 8, bswap<u64>(bits));
  init();
  for (let off = 0; off < padded; off += 64) compress(MSG + <usize>off);
  for (let i = 0; i < 8; i++) store<u32>(out + (<usize>i << 2), bswap<u32>(load<u32>(H + (<usize>i << 2))));
}

/**
 * Hash-to-group expansion: src holds prev (256 bytes) then batch hash (32 bytes); writes
 * expand(SHA-256(tag || u64be(tick) || prev || batch)) (320 bytes) to out.
 */
export function expandTickSeed(src: usize, tickHi: u32, tickLo: u32, out: usize): void {
  memory.copy(MSG, TAG, <usize>tagLen);
  store<u32>(MSG + <usize>tagLen, bswap<u32>(tickHi));
  store<u32>(MSG + <usize>tagLen + 4, bswap<u32>(tickLo));
  memory.copy(MSG + <usize>tagLen + 8, src, 288);
  hashMsg(tagLen + 8 + 288, SEED);
  for (let i = 0; i < 10; i++) {
    memory.copy(MSG, SEED, 32);
    store<u8>(MSG + 32, <u8>i);
    hashMsg(33, out + (<usize>i << 5));
  }
}
