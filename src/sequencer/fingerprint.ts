/**
 * The replay window's fingerprint of a key (docs/sequencer.md "Replay protection"): 64 bits
 * of HalfSipHash-2-4 (Aumasson and Bernstein's 32-bit SipHash, 64-bit output) over the key's
 * bytes, as two u32 words. Intake computes it where it has the bytes at hand (prepare.ts:
 * the tx_id and the (public_key, nonce) pair of each transaction), so the ordering thread
 * only compares numbers.
 *
 * Why HalfSipHash and not a faster multiply-shift hash (murmur, xxHash): those have
 * collisions that hold whatever their seed, so a client could make thousands of tx_ids with
 * one fingerprint and turn each replay lookup into a walk over them all. SipHash has no
 * known shortcut of that kind; its key here is a fixed, public constant (every thread and
 * every restart must agree on it without a handshake), so a 64-bit collision costs about
 * 2^32 evaluations by brute force, and the table's secret bucket seed (replay-table.ts)
 * keeps a client from aiming many different fingerprints at one bucket.
 *
 * A fingerprint is never a verdict: the replay window confirms every match against the key's
 * bytes. Pure, no allocation, no Node built-ins.
 */

/** The fixed key (k0, k1), little-endian words of ASCII "svc-rply". */
const K0 = 0x2d637673;
const K1 = 0x796c7072;

/**
 * The fingerprint of `bytes[at, end)`: its low word in `out[outAt]`, its high word in
 * `out[outAt + 1]` (the reference implementation's 8 output bytes, as two LE words).
 */
export function fingerprint(bytes: Uint8Array, at: number, end: number, out: Int32Array, outAt: number): void {
  halfSipHash64(bytes, at, end, K0, K1, out, outAt);
}

/** HalfSipHash-2-4 with a 64-bit output and the key (k0, k1), the reference's two LE key words. */
export function halfSipHash64(
  bytes: Uint8Array,
  at: number,
  end: number,
  k0: number,
  k1: number,
  out: Int32Array,
  outAt: number,
): void {
  let v0 = k0 | 0;
  let v1 = k1 ^ 0xee;
  let v2 = 0x6c796765 ^ k0;
  let v3 = 0x74656462 ^ k1;
  const whole = end - ((end - at) & 3);
  let i = at;
  for (;;) {
    let m: number;
    if (i < whole) {
      m = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
      i += 4;
    } else {
      // The last word: the 0..3 bytes left, the length's low byte on top.
      m = (end - at) << 24;
      if (end - i > 2) m |= bytes[i + 2]! << 16;
      if (end - i > 1) m |= bytes[i + 1]! << 8;
      if (end - i > 0) m |= bytes[i]!;
      i = -1;
    }
    v3 ^= m;
    for (let r = 0; r < 2; r++) {
      v0 = (v0 + v1) | 0;
      v1 = rotl(v1, 5) ^ v0;
      v0 = rotl(v0, 16);
      v2 = (v2 + v3) | 0;
      v3 = rotl(v3, 8) ^ v2;
      v0 = (v0 + v3) | 0;
      v3 = rotl(v3, 7) ^ v0;
      v2 = (v2 + v1) | 0;
      v1 = rotl(v1, 13) ^ v2;
      v2 = rotl(v2, 16);
    }
    v0 ^= m;
    if (i < 0) break;
  }
  v2 ^= 0xee;
  for (let half = 0; half < 2; half++) {
    if (half === 1) v1 ^= 0xdd;
    for (let r = 0; r < 4; r++) {
      v0 = (v0 + v1) | 0;
      v1 = rotl(v1, 5) ^ v0;
      v0 = rotl(v0, 16);
      v2 = (v2 + v3) | 0;
      v3 = rotl(v3, 8) ^ v2;
      v0 = (v0 + v3) | 0;
      v3 = rotl(v3, 7) ^ v0;
      v2 = (v2 + v1) | 0;
      v1 = rotl(v1, 13) ^ v2;
      v2 = rotl(v2, 16);
    }
    out[outAt + half] = v1 ^ v3;
  }
}

function rotl(x: number, b: number): number {
  return (x << b) | (x >>> (32 - b));
}
