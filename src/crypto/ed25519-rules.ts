/**
 * Which ed25519 signatures svc accepts, written once for the node and the SDK
 * (docs/signing.md "Which signatures verify", vectors in docs/ed25519-vectors.json).
 *
 * RFC 8032 strict verification plus a small-order check, as libsodium does:
 *
 *   1. the public key A is 32 bytes, the signature R || S is 64 bytes
 *   2. S (bytes 32..63, little-endian) < L = 2^252 + 27742317777372353535851937790883648493
 *   3. A and R are canonical encodings: y < p = 2^255 - 19, and the sign bit is 0 when x = 0
 *      (y = 1 or y = p - 1)
 *   4. neither A nor R is one of the 8 points of small order (SMALL_ORDER_POINTS, the
 *      canonical encodings of the torsion subgroup)
 *   5. [S]B = R + [k]A, k = SHA-512(R || A || M) mod L, checked WITHOUT the cofactor: the
 *      encoding of [S]B - [k]A must equal the 32 bytes R
 *
 * Rules 1-4 are byte comparisons (`ed25519EncodingViolation`: no curve arithmetic, cheap enough
 * to run before every check). Rule 5 is the curve equation: node:crypto (OpenSSL, which checks
 * exactly this equation) on the node, @noble/ed25519's point arithmetic in `verify` (keys.ts).
 * Without rules 3-4 OpenSSL accepts forgeries for the identity key (bytes 01 00 .. 00 with the
 * signature 01 00 .. 00) and for the other small-order keys; without the cofactorless equation
 * a cofactored verifier (ZIP-215, @noble/ed25519's default) would accept signatures that the node
 * refuses for keys with a small-order component, so a browser and the node could disagree.
 * No node:* imports: this file is bundled into the browser SDK.
 */
import { decodeHex } from './hex.js';

/** Why a (public key, signature) pair is refused before any curve arithmetic; codes are stable. */
export type Ed25519Violation =
  | 'public_key_length'
  | 'signature_length'
  | 'non_canonical_s'
  | 'non_canonical_public_key'
  | 'small_order_public_key'
  | 'non_canonical_r'
  | 'small_order_r';

/** The 8 points of small order (the torsion subgroup), canonical encodings, lowercase hex. */
export const SMALL_ORDER_POINTS: readonly string[] = [
  '0100000000000000000000000000000000000000000000000000000000000000', // identity (order 1)
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // (0, -1), order 2
  '0000000000000000000000000000000000000000000000000000000000000000', // (+sqrt(-1), 0), order 4
  '0000000000000000000000000000000000000000000000000000000000000080', // (-sqrt(-1), 0), order 4
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85', // order 8
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // order 8
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', // order 8
];

const SMALL_ORDER_BYTES: readonly Uint8Array[] = SMALL_ORDER_POINTS.map((h) => decodeHex(h) as Uint8Array);

/** L, the order of the prime subgroup, little-endian. */
const L_BYTES = new Uint8Array([
  0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0x10,
]);

/** bytes[at..at+32] as a little-endian number is < L. */
function scalarIsCanonical(bytes: Uint8Array, at: number): boolean {
  for (let i = 31; i >= 0; i--) {
    const b = bytes[at + i]!;
    const l = L_BYTES[i]!;
    if (b !== l) return b < l;
  }
  return false; // equal to L
}

/** A canonical point encoding: y < p, and no sign bit on x = 0 (y = 1 or y = p - 1). */
function pointIsCanonical(bytes: Uint8Array, at: number): boolean {
  const top = bytes[at + 31]!;
  let allOnes = (top & 0x7f) === 0x7f;
  for (let i = 1; i < 31 && allOnes; i++) allOnes = bytes[at + i] === 0xff;
  const first = bytes[at]!;
  if (allOnes && first >= 0xed) return false; // y in [p, 2^255 - 1]
  if (top & 0x80) {
    // x = 0 exactly when y = 1 or y = p - 1 (...ff 7f with 0xec first): its sign bit must be 0.
    let middleZero = (top & 0x7f) === 0;
    for (let i = 1; i < 31 && middleZero; i++) middleZero = bytes[at + i] === 0;
    if (middleZero && first === 1) return false;
    if (allOnes && first === 0xec) return false;
  }
  return true;
}

function isSmallOrder(bytes: Uint8Array, at: number): boolean {
  outer: for (const p of SMALL_ORDER_BYTES) {
    for (let i = 0; i < 32; i++) if (bytes[at + i] !== p[i]) continue outer;
    return true;
  }
  return false;
}

/**
 * Rules 1-4: the first one a (public key, signature) pair breaks, or undefined when the pair may go
 * on to the curve equation. Pure byte comparisons on fixed-size input.
 */
export function ed25519EncodingViolation(publicKey: Uint8Array, signature: Uint8Array): Ed25519Violation | undefined {
  if (publicKey.length !== 32) return 'public_key_length';
  if (signature.length !== 64) return 'signature_length';
  if (!scalarIsCanonical(signature, 32)) return 'non_canonical_s';
  if (!pointIsCanonical(publicKey, 0)) return 'non_canonical_public_key';
  if (isSmallOrder(publicKey, 0)) return 'small_order_public_key';
  if (!pointIsCanonical(signature, 0)) return 'non_canonical_r';
  if (isSmallOrder(signature, 0)) return 'small_order_r';
  return undefined;
}
