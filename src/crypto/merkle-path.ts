/**
 * Audit paths for the one Merkle tree shape of the project (merkle.ts, docs/proofs.md
 * "Merkle audit paths"): leaves SHA-256(0x00 || d), nodes SHA-256(0x01 || left || right),
 * built bottom-up with an odd last node moved up unchanged. That bottom-up rule (the
 * batch hash's, docs/vdf.md) and RFC 6962's recursive MTH (split at the largest power of
 * two below n: the book, markets and used-id trees, docs/chain.md) give the same tree for
 * every size (test/crypto/merkle-path.test.ts checks every index of every size to 300),
 * so one path builder and one root-from-path serve all four trees.
 *
 * A path lists sibling hashes from the leaf's level up; a level where the node is the odd
 * last one contributes nothing (it moves up unchanged). Positions come from `index` and
 * `count` alone, never from the path. Browser-safe: the SHA-256 is passed in (node:crypto
 * in the node, the VDF verifier's own in a browser), as in merkle-root.ts.
 */
import type { Sha256 } from './merkle-root.js';

export type { Sha256 };

export const MERKLE_HASH_BYTES = 32;

/** Number of path elements of leaf `index` in a tree of `count` leaves (0 <= index < count). */
export function pathLength(index: number, count: number): number {
  let p = index;
  let n = count;
  let k = 0;
  while (n > 1) {
    if (!(p % 2 === 0 && p === n - 1)) k++;
    p = Math.floor(p / 2);
    n = Math.ceil(n / 2);
  }
  return k;
}

/** SHA-256(0x00 || data). */
export function leafHashWith(sha256: Sha256, data: Uint8Array): Uint8Array {
  const buf = new Uint8Array(1 + data.length);
  buf.set(data, 1);
  return sha256(buf);
}

/** SHA-256(0x01 || left || right). */
export function nodeHashWith(sha256: Sha256, left: Uint8Array, right: Uint8Array): Uint8Array {
  const buf = new Uint8Array(1 + left.length + right.length);
  buf[0] = 0x01;
  buf.set(left, 1);
  buf.set(right, 1 + left.length);
  return sha256(buf);
}

/**
 * The audit path of leaf `index` over already-hashed leaves (each SHA-256(0x00 || d)),
 * leaf to root. O(n) hashes: it builds every level once. Throws RangeError on a bad index.
 */
export function auditPath(sha256: Sha256, leafHashes: readonly Uint8Array[], index: number): Uint8Array[] {
  if (!Number.isSafeInteger(index) || index < 0 || index >= leafHashes.length) {
    throw new RangeError(`leaf index ${index} out of range for a tree of ${leafHashes.length}`);
  }
  const path: Uint8Array[] = [];
  let level: readonly Uint8Array[] = leafHashes;
  let p = index;
  while (level.length > 1) {
    const sibling = p ^ 1;
    if (sibling < level.length) path.push(level[sibling]!);
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(i + 1 < level.length ? nodeHashWith(sha256, level[i]!, level[i + 1]!) : level[i]!);
    level = next;
    p = Math.floor(p / 2);
  }
  return path;
}

export type RootFromPath = { ok: true; root: Uint8Array } | { ok: false; message: string };

/**
 * The root a path leads to from `leafHash` at `index` of `count` leaves. Fails (never
 * throws) on an index or count out of range, a path element that is not 32 bytes, or a
 * path that is shorter or longer than the positions need.
 */
export function rootFromPath(
  sha256: Sha256,
  leafHash: Uint8Array,
  index: number,
  count: number,
  path: readonly Uint8Array[],
): RootFromPath {
  if (!Number.isSafeInteger(count) || count < 1)
    return { ok: false, message: `tree size ${String(count)} is not a positive integer` };
  if (!Number.isSafeInteger(index) || index < 0 || index >= count)
    return { ok: false, message: `index ${String(index)} is outside 0..${count - 1}` };
  const need = pathLength(index, count);
  if (path.length !== need)
    return { ok: false, message: `the path has ${path.length} elements; index ${index} of ${count} needs ${need}` };
  let node = leafHash;
  let p = index;
  let n = count;
  let k = 0;
  while (n > 1) {
    if (!(p % 2 === 0 && p === n - 1)) {
      const sibling = path[k]!;
      if (!(sibling instanceof Uint8Array) || sibling.length !== MERKLE_HASH_BYTES)
        return { ok: false, message: `path element ${k} is not ${MERKLE_HASH_BYTES} bytes` };
      node = p % 2 === 0 ? nodeHashWith(sha256, node, sibling) : nodeHashWith(sha256, sibling, node);
      k++;
    }
    p = Math.floor(p / 2);
    n = Math.ceil(n / 2);
  }
  return { ok: true, root: node };
}
