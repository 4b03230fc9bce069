/**
 * The Merkle tree against RFC 6962's published test vectors (the Certificate
 * Transparency reference leaves, roots for sizes 0..8 and two audit paths), plus
 * exhaustive inclusion proofs over many tree shapes and tampering checks.
 */
import { expect } from 'chai';
import {
  EMPTY_ROOT,
  inclusionProof,
  leafHash,
  merkleRoot,
  nodeHash,
  rootOfLeafHashes,
  verifyInclusion,
} from '../../src/crypto/merkle.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));

const CT_LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map(unhex);

const CT_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

const CT_PATHS = [
  {
    index: 0,
    size: 8,
    path: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    path: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

describe('crypto/merkle (RFC 6962)', () => {
  it('empty tree is SHA-256 of nothing', () => {
    expect(hex(EMPTY_ROOT)).to.equal(CT_ROOTS[0]);
    expect(hex(merkleRoot([]))).to.equal(CT_ROOTS[0]);
  });

  it('matches the published roots for tree sizes 1..8', () => {
    for (let n = 1; n <= 8; n++) {
      expect(hex(merkleRoot(CT_LEAVES.slice(0, n))), `size ${n}`).to.equal(CT_ROOTS[n]);
    }
  });

  it('leaf and node hashes are domain separated', () => {
    expect(hex(leafHash(new Uint8Array(0)))).to.equal(CT_ROOTS[1]);
    const a = leafHash(CT_LEAVES[0]!);
    const b = leafHash(CT_LEAVES[1]!);
    expect(hex(nodeHash(a, b))).to.equal(CT_ROOTS[2]);
    // A two-leaf tree is not the leaf hash of the concatenation.
    expect(hex(merkleRoot([CT_LEAVES[0]!, CT_LEAVES[1]!]))).to.not.equal(hex(leafHash(new Uint8Array([...a, ...b]))));
  });

  it('produces the published audit paths', () => {
    for (const v of CT_PATHS) {
      const path = inclusionProof(CT_LEAVES.slice(0, v.size), v.index);
      expect(path.map(hex)).to.deep.equal(v.path);
      expect(
        verifyInclusion(CT_LEAVES[v.index]!, v.index, v.size, v.path.map(unhex), unhex(CT_ROOTS[v.size]!)),
      ).to.equal(true);
    }
  });

  it('the bottom-up root equals the recursive RFC definition for every size up to 70', () => {
    const recursive = (h: Uint8Array[]): Uint8Array => {
      if (h.length === 0) return EMPTY_ROOT;
      if (h.length === 1) return h[0]!;
      let k = 1;
      while (k * 2 < h.length) k *= 2;
      return nodeHash(recursive(h.slice(0, k)), recursive(h.slice(k)));
    };
    const hashes = Array.from({ length: 70 }, (_, i) => leafHash(new Uint8Array([i, i >> 8, 3])));
    for (let n = 0; n <= hashes.length; n++) {
      expect(hex(rootOfLeafHashes(hashes.slice(0, n))), `size ${n}`).to.equal(hex(recursive(hashes.slice(0, n))));
    }
  });

  it('every leaf of every tree up to 33 leaves proves, and tampering fails', () => {
    const data = Array.from({ length: 33 }, (_, i) => new Uint8Array([i, 0xaa, i * 3]));
    for (let n = 1; n <= data.length; n++) {
      const leaves = data.slice(0, n);
      const root = merkleRoot(leaves);
      for (let i = 0; i < n; i++) {
        const path = inclusionProof(leaves, i);
        expect(verifyInclusion(leaves[i]!, i, n, path, root), `n=${n} i=${i}`).to.equal(true);
        // Wrong leaf data.
        expect(verifyInclusion(new Uint8Array([99]), i, n, path, root)).to.equal(false);
        // Wrong index.
        if (n > 1) expect(verifyInclusion(leaves[i]!, (i + 1) % n, n, path, root)).to.equal(false);
        // The path of tree n does not prove the leaf in the next tree (size and root
        // travel together; the size alone is not bound when the path shape coincides).
        const bigger = data.slice(0, n + 1);
        if (n < data.length) expect(verifyInclusion(leaves[i]!, i, n + 1, path, merkleRoot(bigger))).to.equal(false);
        // Tampered path element, extra element, missing element.
        if (path.length > 0) {
          const bad = path.map((p) => p.slice());
          bad[0]![0] ^= 1;
          expect(verifyInclusion(leaves[i]!, i, n, bad, root)).to.equal(false);
          expect(verifyInclusion(leaves[i]!, i, n, path.slice(1), root)).to.equal(false);
        }
        expect(verifyInclusion(leaves[i]!, i, n, [...path, new Uint8Array(32)], root)).to.equal(false);
      }
    }
  });

  it('rejects out-of-range indexes', () => {
    expect(() => inclusionProof([new Uint8Array(1)], 1)).to.throw(RangeError);
    expect(() => inclusionProof([new Uint8Array(1)], -1)).to.throw(RangeError);
    expect(verifyInclusion(new Uint8Array(1), 1, 1, [], EMPTY_ROOT)).to.equal(false);
    expect(verifyInclusion(new Uint8Array(1), -1, 1, [], EMPTY_ROOT)).to.equal(false);
  });
});
