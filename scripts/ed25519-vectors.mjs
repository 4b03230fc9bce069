/**
 * Writes docs/ed25519-vectors.json: the ed25519 vectors of docs/signing.md "Which signatures
 * verify", built with @noble/ed25519's point arithmetic (no svc code), so an outsider can
 * rebuild them: `node scripts/ed25519-vectors.mjs`. test/sdk/ed25519-rules.test.ts checks the
 * committed file against the node's verifier (node:crypto) and the SDK's (@noble/ed25519).
 */
import { writeFileSync } from 'node:fs';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';

ed.hashes.sha512 = sha512;
const { Point } = ed;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const utf8 = (s) => new TextEncoder().encode(s);
const le = (b) => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);
const toLE = (n) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 255n));
const cat = (...parts) => Uint8Array.from(parts.flatMap((p) => [...p]));

const SMALL_ORDER = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
];
// The table is the torsion subgroup: the 8 multiples of one order-8 point.
const T8 = Point.fromBytes(unhex(SMALL_ORDER[4]));
const multiples = new Set(Array.from({ length: 8 }, (_, k) => T8.multiply(BigInt(k), false).toHex()));
if ([...multiples].sort().join() !== [...SMALL_ORDER].sort().join())
  throw new Error('small-order table is not the torsion subgroup');

// RFC 8032 section 7.1, tests 1-3.
const RFC = [
  [
    '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    '',
    'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  ],
  [
    '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    '72',
    '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  ],
  [
    'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    'af82',
    '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  ],
];
const pk1 = ed.getPublicKey(unhex(RFC[0][0]));
const sig1 = unhex(RFC[0][2]);

/** RFC 8032 signing with the seed's scalar, but for the public key bytes `A` given (any point). */
function signFor(seedHex, A, message) {
  const h = sha512(unhex(seedHex));
  const a = le(Uint8Array.from(h.subarray(0, 32), (x, i) => (i === 0 ? x & 248 : i === 31 ? (x & 127) | 64 : x)));
  const r = le(sha512(cat(h.subarray(32), message))) % L;
  const R = Point.BASE.multiply(r).toBytes();
  const k = le(sha512(cat(R, A, message))) % L;
  return { signature: cat(R, toLE((r + k * a) % L)), k };
}

// A key with a small-order component: the RFC test 1 key plus an order-8 point.
const mixedKey = Point.fromBytes(pk1).add(T8).toBytes();
const mixedWith = (wantZeroModEight) => {
  for (let i = 0; ; i++) {
    const message = utf8(`svc mixed-order key ${i}`);
    const { signature, k } = signFor(RFC[0][0], mixedKey, message);
    if ((k % 8n === 0n) === wantZeroModEight) return { message, signature };
  }
};
// A forgery for an order-8 key: R = identity, S = 0 holds without the cofactor when k = 0 mod 8.
const identity = unhex(SMALL_ORDER[0]);
const zeroS = new Uint8Array(32);
const order8Forgery = (() => {
  for (let i = 0; ; i++) {
    const message = utf8(`svc small-order key ${i}`);
    if ((le(sha512(cat(identity, unhex(SMALL_ORDER[4]), message))) % L) % 8n === 0n) return message;
  }
})();
const orderMessage = utf8('38799ee93978e655495c75216bc04321c5d84660e9603f33994fa38b3e5aaa1a'); // docs/signing.md order vector
const sPlusL = cat(sig1.subarray(0, 32), toLE(le(sig1.subarray(32)) + L));
const pPlusOne = unhex('eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'); // y = p + 1 = 1 (mod p)
const identitySignBit = unhex('0100000000000000000000000000000000000000000000000000000000000080');
const mixedValid = mixedWith(true);
const mixedInvalid = mixedWith(false);

const v = (name, note, publicKey, message, signature, extra = {}) => ({
  name,
  note,
  public_key: hex(publicKey),
  message: hex(message),
  signature: hex(signature),
  ...extra,
});

const doc = {
  description:
    'ed25519 vectors of docs/signing.md "Which signatures verify": RFC 8032 strict verification (canonical S, A and R; ' +
    'cofactorless equation) plus no small-order A or R. Hex byte strings. `rule` names the first rule an invalid vector ' +
    'breaks, by the numbered rules of that section: public_key_length or signature_length (1), non_canonical_s (2), ' +
    'non_canonical_public_key or non_canonical_r (3), small_order_public_key or small_order_r (4), or "equation" (5) when ' +
    'the encodings pass and the cofactorless equation fails. `zip215_accepts`: what a ZIP-215 (cofactored, permissive) verifier says, for contrast.',
  small_order_points: SMALL_ORDER,
  valid: [
    ...RFC.map(([seed, msg, sig], i) =>
      v(`rfc8032_test_${i + 1}`, 'RFC 8032 section 7.1', ed.getPublicKey(unhex(seed)), unhex(msg), unhex(sig)),
    ),
    v(
      'mixed_order_key_k_divisible_by_8',
      'key = RFC test 1 key + an order-8 point; k = 0 mod 8, so the cofactorless equation holds',
      mixedKey,
      mixedValid.message,
      mixedValid.signature,
    ),
  ],
  invalid: [
    v(
      'identity_key_forgery',
      'the identity point as owner key, R = identity, S = 0: verifies for every message without the small-order rule (issue 11)',
      identity,
      orderMessage,
      cat(identity, zeroS),
      { rule: 'small_order_public_key', zip215_accepts: true },
    ),
    v(
      'order8_key_forgery',
      'an order-8 owner key, R = identity, S = 0, message chosen so k = 0 mod 8: the cofactorless equation holds',
      unhex(SMALL_ORDER[4]),
      order8Forgery,
      cat(identity, zeroS),
      { rule: 'small_order_public_key', zip215_accepts: true },
    ),
    v('identity_key_y_p_plus_1', 'the identity encoded with y = p + 1', pPlusOne, orderMessage, cat(identity, zeroS), {
      rule: 'non_canonical_public_key',
      zip215_accepts: true,
    }),
    v(
      'identity_key_sign_bit',
      'the identity encoded with the sign bit set on x = 0',
      identitySignBit,
      orderMessage,
      cat(identity, zeroS),
      { rule: 'non_canonical_public_key', zip215_accepts: true },
    ),
    v(
      's_plus_l',
      'RFC 8032 test 1 with S + L: the same point equation, a second encoding of S',
      pk1,
      new Uint8Array(0),
      sPlusL,
      { rule: 'non_canonical_s', zip215_accepts: false },
    ),
    v('s_all_ones', 'S = 2^256 - 1', pk1, new Uint8Array(0), cat(sig1.subarray(0, 32), new Uint8Array(32).fill(255)), {
      rule: 'non_canonical_s',
      zip215_accepts: false,
    }),
    v('r_y_p_plus_1', 'R encoded with y >= p', pk1, new Uint8Array(0), cat(pPlusOne, sig1.subarray(32)), {
      rule: 'non_canonical_r',
      zip215_accepts: false,
    }),
    v('r_small_order', 'R = the identity point', pk1, new Uint8Array(0), cat(identity, zeroS), {
      rule: 'small_order_r',
      zip215_accepts: false,
    }),
    v(
      'mixed_order_key_cofactored_only',
      'key = RFC test 1 key + an order-8 point; k != 0 mod 8: only a cofactored verifier accepts',
      mixedKey,
      mixedInvalid.message,
      mixedInvalid.signature,
      { rule: 'equation', zip215_accepts: true },
    ),
    v('public_key_31_bytes', 'a public key one byte short', pk1.subarray(0, 31), new Uint8Array(0), sig1, {
      rule: 'public_key_length',
      zip215_accepts: false,
    }),
    v('signature_63_bytes', 'a signature one byte short', pk1, new Uint8Array(0), sig1.subarray(0, 63), {
      rule: 'signature_length',
      zip215_accepts: false,
    }),
  ],
};
writeFileSync(new URL('../docs/ed25519-vectors.json', import.meta.url), `${JSON.stringify(doc, null, 2)}\n`);
console.log(`wrote docs/ed25519-vectors.json: ${doc.valid.length} valid, ${doc.invalid.length} invalid`);
