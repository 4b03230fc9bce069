/**
 * The Merkle root of merkle.ts (RFC 6962 shape: leaves SHA-256(0x00 || d), nodes
 * SHA-256(0x01 || left || right), a lone last node promoted unchanged, the empty tree
 * SHA-256()), over a SHA-256 the caller passes in: node:crypto's in Node (merkle.ts), the
 * VDF verifier's own in a browser (src/vdf/rest-tick.ts). No Node built-ins.
 */

export type Sha256 = (data: Uint8Array) => Uint8Array;

/** Root over already-hashed leaves (each SHA-256(0x00 || d)). */
export function rootOfLeafHashesWith(sha256: Sha256, hashes: readonly Uint8Array[]): Uint8Array {
  const n = hashes.length;
  if (n === 0) return sha256(new Uint8Array(0));
  let level: Uint8Array[] = hashes.slice();
  // One scratch buffer for every interior node: 0x01 || left || right.
  const scratch = new Uint8Array(65);
  scratch[0] = 0x01;
  while (level.length > 1) {
    const next: Uint8Array[] = new Array<Uint8Array>(Math.ceil(level.length / 2));
    let j = 0;
    for (let i = 0; i + 1 < level.length; i += 2) {
      scratch.set(level[i]!, 1);
      scratch.set(level[i + 1]!, 33);
      next[j++] = sha256(scratch);
    }
    if (level.length % 2 === 1) next[j++] = level[level.length - 1]!;
    level = next;
  }
  return level[0]!;
}

/** Root over the leaf data in order (transaction full hashes): leaves SHA-256(0x00 || d). */
export function merkleRootWith(sha256: Sha256, items: readonly Uint8Array[]): Uint8Array {
  return rootOfLeafHashesWith(
    sha256,
    items.map((d) => {
      const buf = new Uint8Array(1 + d.length);
      buf.set(d, 1);
      return sha256(buf);
    }),
  );
}
