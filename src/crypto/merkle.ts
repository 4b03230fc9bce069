/**
 * Binary SHA-256 Merkle tree in the shape of RFC 6962 / RFC 9162 (Certificate
 * Transparency), so that a transaction's inclusion in a tick's batch hash can be
 * proven with a standard audit path and checked by any CT-compatible verifier:
 *
 *   empty tree  MTH({})   = SHA-256()                      (no bytes)
 *   leaf        MTH({d})  = SHA-256(0x00 || d)
 *   node        MTH(D[n]) = SHA-256(0x01 || MTH(D[0:k]) || MTH(D[k:n]))
 *                           with k the largest power of two < n
 *
 * The 0x00/0x01 prefixes separate leaves from interior nodes (no second-preimage
 * trick). The root is computed bottom-up, promoting a lone last node unchanged to the
 * next level, which builds exactly the tree of the recursive definition above.
 */
import { bytesEqual } from './bytes.js';
import { rootOfLeafHashesWith } from './merkle-root.js';
import { sha256 } from './sha256.js';

export const HASH_SIZE = 32;

/** MTH of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

/** SHA-256(0x00 || data). */
export function leafHash(data: Uint8Array): Uint8Array {
  const buf = new Uint8Array(1 + data.length);
  buf[0] = 0x00;
  buf.set(data, 1);
  return sha256(buf);
}

/** SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const buf = new Uint8Array(1 + left.length + right.length);
  buf[0] = 0x01;
  buf.set(left, 1);
  buf.set(right, 1 + left.length);
  return sha256(buf);
}

/** Root over already-hashed leaves (each `leafHash(d)`); merkle-root.ts has the loop. */
export function rootOfLeafHashes(hashes: readonly Uint8Array[]): Uint8Array {
  return hashes.length === 0 ? EMPTY_ROOT : rootOfLeafHashesWith(sha256, hashes);
}

/** MTH(leaves): the root over the leaf data in order. */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  return rootOfLeafHashes(leaves.map(leafHash));
}

/** Largest power of two strictly below n (n >= 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function pathOf(hashes: readonly Uint8Array[], index: number): Uint8Array[] {
  const n = hashes.length;
  if (n <= 1) return [];
  const k = splitPoint(n);
  if (index < k) return [...pathOf(hashes.slice(0, k), index), rootOfLeafHashes(hashes.slice(k))];
  return [...pathOf(hashes.slice(k), index - k), rootOfLeafHashes(hashes.slice(0, k))];
}

/**
 * RFC 6962 audit path PATH(index, D[n]) for leaf `index`: sibling hashes from the
 * leaf's level up to the root's children.
 */
export function inclusionProof(leaves: readonly Uint8Array[], index: number): Uint8Array[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length) {
    throw new RangeError(`leaf index ${index} out of range for a tree of ${leaves.length}`);
  }
  return pathOf(leaves.map(leafHash), index);
}

/**
 * Check that `leaf` (the leaf's data, not its hash) sits at `index` of a tree of
 * `treeSize` leaves whose root is `root`, given the audit path `proof`
 * (RFC 9162 section 2.1.3.2).
 */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  treeSize: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!Number.isInteger(index) || !Number.isInteger(treeSize) || index < 0 || index >= treeSize) return false;
  let fn = index;
  let sn = treeSize - 1;
  let r = leafHash(leaf);
  for (const p of proof) {
    if (p.length !== HASH_SIZE || sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && bytesEqual(r, root);
}
