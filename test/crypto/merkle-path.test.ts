/**
 * Audit paths (src/crypto/merkle-path.ts): the batch hash's bottom-up rule and RFC 6962's
 * recursive MTH give the same root for every size (docs/vdf.md states the rule one way,
 * docs/chain.md the other), every path of every index leads to it, and the RFC 6962 paths
 * of merkle.ts are the same paths; any changed element, index or size fails.
 */
import { expect } from 'chai';
import { inclusionProof, leafHash, merkleRoot, nodeHash } from '../../src/crypto/merkle.js';
import { auditPath, leafHashWith, pathLength, rootFromPath } from '../../src/crypto/merkle-path.js';
import { sha256 } from '../../src/crypto/sha256.js';
import { sha256 as pureSha256 } from '../../src/vdf/sha256.js';

const item = (i: number): Uint8Array => sha256(new TextEncoder().encode(`item ${i}`));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** RFC 6962 MTH by its recursive definition (split at the largest power of two below n). */
function mth(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 1) return leafHash(leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

describe('merkle audit paths (batch rule = RFC 6962)', () => {
  it('the bottom-up rule and the recursive MTH agree for every size 1..300; paths of every index to 64, edge indexes above, lead to the root', () => {
    const all = Array.from({ length: 300 }, (_, i) => item(i));
    for (let n = 1; n <= 300; n++) {
      const data = all.slice(0, n);
      const root = merkleRoot(data); // bottom-up, odd last node moves up
      expect(hex(mth(data)), `size ${n}`).to.equal(hex(root));
      const leaves = data.map(leafHash);
      const indexes = n <= 64 ? data.map((_, i) => i) : [0, 1, n >> 1, n - 2, n - 1];
      for (const i of indexes) {
        const path = auditPath(sha256, leaves, i);
        expect(path.length).to.equal(pathLength(i, n));
        expect(path.map(hex), `RFC 6962 path ${i}/${n}`).to.deep.equal(inclusionProof(data, i).map(hex));
        const r = rootFromPath(sha256, leaves[i]!, i, n, path);
        expect(r.ok && hex(r.root), `${i}/${n}`).to.equal(hex(root));
      }
    }
  });

  it('the browser-safe SHA-256 gives the same leaves and roots', () => {
    const data = Array.from({ length: 7 }, (_, i) => item(i));
    const pure = (d: Uint8Array): Uint8Array => pureSha256(d);
    const path = auditPath(
      pure,
      data.map((d) => leafHashWith(pure, d)),
      6,
    );
    const r = rootFromPath(pure, leafHashWith(pure, data[6]!), 6, 7, path);
    expect(r.ok && hex(r.root)).to.equal(hex(merkleRoot(data)));
  });

  it('any changed path element, index or size fails (size 1..40, every index)', () => {
    for (let n = 1; n <= 40; n++) {
      const data = Array.from({ length: n }, (_, i) => item(i));
      const root = hex(merkleRoot(data));
      const leaves = data.map(leafHash);
      for (let i = 0; i < n; i++) {
        const path = auditPath(sha256, leaves, i);
        const leadsToRoot = (idx: number, size: number, p: Uint8Array[]): boolean => {
          const r = rootFromPath(sha256, leaves[i]!, idx, size, p);
          return r.ok && hex(r.root) === root;
        };
        path.forEach((_, k) => {
          const bad = path.map((x) => x.slice());
          bad[k]![0]! ^= 1;
          expect(leadsToRoot(i, n, bad), `element ${k} of ${i}/${n}`).to.equal(false);
        });
        for (let j = 0; j < n; j++)
          if (j !== i) expect(leadsToRoot(j, n, path), `index ${j} for ${i}/${n}`).to.equal(false);
        expect(leadsToRoot(i, n, [...path, leaves[0]!])).to.equal(false);
        if (path.length > 0) expect(leadsToRoot(i, n, path.slice(1))).to.equal(false);
      }
    }
  });

  it('a size change keeps the root only where the all-left positions allow it (why the count is bound elsewhere)', () => {
    // Leaf 0 of 5 and of 6 have paths of the same length, all on the left: the same path
    // leads to the same root. The inclusion proof therefore checks transaction_count
    // against the tick (step `tick`), whose VDF input binds it.
    const data = Array.from({ length: 5 }, (_, i) => item(i));
    const leaves = data.map(leafHash);
    const path = auditPath(sha256, leaves, 0);
    const r5 = rootFromPath(sha256, leaves[0]!, 0, 5, path);
    const r6 = rootFromPath(sha256, leaves[0]!, 0, 6, path);
    expect(r5.ok && r6.ok && hex(r5.root) === hex(r6.root)).to.equal(true);
  });

  it('never throws on hostile input: bad index, size, element length', () => {
    const leaf = leafHash(item(0));
    for (const [i, n] of [
      [-1, 3],
      [3, 3],
      [0, 0],
      [0.5, 3],
      [Number.NaN, 3],
      [0, Number.POSITIVE_INFINITY],
    ] as const) {
      expect(rootFromPath(sha256, leaf, i, n, []).ok, `${i}/${n}`).to.equal(false);
    }
    expect(rootFromPath(sha256, leaf, 0, 2, [new Uint8Array(31)]).ok).to.equal(false);
    expect(() => auditPath(sha256, [leaf], 1)).to.throw(RangeError);
  });
});
