/**
 * svc's ed25519 rules (docs/signing.md "Which signatures verify", src/crypto/ed25519-rules.ts)
 * against docs/ed25519-vectors.json: the node's verifier (node:crypto in the worker) and the
 * SDK's (@noble/ed25519) accept exactly the valid vectors and refuse every invalid one, for
 * the documented reason; a ZIP-215 verifier is asked too, to show what the rules add.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import * as ed from '@noble/ed25519';
import { verifyOne } from '../../src/crypto/ed25519.js';
import { ed25519EncodingViolation, SMALL_ORDER_POINTS } from '../../src/crypto/ed25519-rules.js';
import { fromHex, toHex, verify } from '../../src/sdk/index.js';

interface Vector {
  name: string;
  public_key: string;
  message: string;
  signature: string;
  rule?: string;
  zip215_accepts?: boolean;
}
const vectors = JSON.parse(readFileSync(new URL('../../../docs/ed25519-vectors.json', import.meta.url), 'utf8')) as {
  small_order_points: string[];
  valid: Vector[];
  invalid: Vector[];
};
const bytes = (v: Vector) => ({
  publicKey: fromHex(v.public_key),
  message: fromHex(v.message),
  signature: fromHex(v.signature),
});

describe('ed25519 rules (docs/ed25519-vectors.json)', () => {
  it('the small-order table is the torsion subgroup: 8 distinct points, each with 8P = 0', () => {
    expect(vectors.small_order_points).to.deep.equal([...SMALL_ORDER_POINTS]);
    const points = SMALL_ORDER_POINTS.map((h) => ed.Point.fromBytes(fromHex(h)));
    expect(new Set(points.map((p) => p.toHex())).size).to.equal(8);
    for (const p of points) expect(p.multiply(8n, false).is0()).to.equal(true);
    // and they are all of them: the multiples of an order-8 point
    const t8 = points[4]!;
    const multiples = Array.from({ length: 8 }, (_, k) => t8.multiply(BigInt(k), false).toHex()).sort();
    expect(multiples).to.deep.equal([...SMALL_ORDER_POINTS].sort());
  });

  for (const v of vectors.valid) {
    it(`valid ${v.name}: accepted by the node (node:crypto) and the SDK (@noble/ed25519)`, () => {
      const b = bytes(v);
      expect(ed25519EncodingViolation(b.publicKey, b.signature)).to.equal(undefined);
      expect(verifyOne(b), 'node').to.equal(true);
      expect(verify(b.signature, b.message, b.publicKey), 'sdk').to.equal(true);
    });
  }

  for (const v of vectors.invalid) {
    it(`invalid ${v.name}: refused by the node and the SDK (${v.rule})`, () => {
      const b = bytes(v);
      expect(ed25519EncodingViolation(b.publicKey, b.signature)).to.equal(v.rule === 'equation' ? undefined : v.rule);
      expect(verifyOne(b), 'node').to.equal(false);
      expect(verify(b.signature, b.message, b.publicKey), 'sdk').to.equal(false);
      if (b.publicKey.length === 32 && b.signature.length === 64) {
        expect(ed.verify(b.signature, b.message, b.publicKey, { zip215: true }), 'zip215').to.equal(v.zip215_accepts);
      }
    });
  }

  it('every y >= p and every x = 0 with a sign bit is non-canonical, as A and as R', () => {
    const good = vectors.valid[0]!;
    const sig = fromHex(good.signature);
    const keyViolation = (key: Uint8Array) => ed25519EncodingViolation(key, sig);
    const rViolation = (r: Uint8Array) => {
      const s = sig.slice();
      s.set(r, 0);
      return ed25519EncodingViolation(fromHex(good.public_key), s);
    };
    for (let first = 0xed; first <= 0xff; first++) {
      const e = new Uint8Array(32).fill(0xff);
      e[0] = first;
      e[31] = 0x7f;
      expect(keyViolation(e), toHex(e)).to.equal('non_canonical_public_key');
      expect(rViolation(e), toHex(e)).to.equal('non_canonical_r');
      e[31] = 0xff;
      expect(keyViolation(e), toHex(e)).to.equal('non_canonical_public_key');
      expect(rViolation(e), toHex(e)).to.equal('non_canonical_r');
    }
    for (const small of SMALL_ORDER_POINTS) {
      expect(keyViolation(fromHex(small))).to.equal('small_order_public_key'); // canonical, but small order
      expect(rViolation(fromHex(small))).to.equal('small_order_r');
    }
    for (const xZero of [SMALL_ORDER_POINTS[0]!, SMALL_ORDER_POINTS[1]!]) {
      const withSign = fromHex(xZero);
      withSign[31]! |= 0x80;
      expect(keyViolation(withSign)).to.equal('non_canonical_public_key');
      expect(rViolation(withSign)).to.equal('non_canonical_r');
    }
  });
});
