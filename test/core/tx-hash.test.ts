/**
 * Transaction hashing: the hand-written Borsh encoder must produce exactly the bytes
 * of the `borsh` package for the design.md schema, and the short hash is the first
 * 4 bytes of SHA-256 in lowercase hex.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { serialize } from 'borsh';
import {
  TRANSACTION_SCHEMA,
  isShortHash,
  shortHash,
  transactionBytes,
  transactionBytesLength,
  transactionHash,
  writeTransactionBytesFromText,
} from '../../src/core/tx-hash.js';
import type { Transaction } from '../../src/core/types.js';

function viaBorsh(tx: Transaction): Uint8Array {
  return serialize(TRANSACTION_SCHEMA, {
    tx_id: tx.txId,
    payload: tx.payload,
    signature: tx.signature,
    public_key: tx.publicKey,
    nonce: tx.nonce,
    timestamp: tx.timestamp,
  });
}

const samples: Transaction[] = [
  {
    txId: 'a',
    payload: new Uint8Array(0),
    signature: new Uint8Array(0),
    publicKey: new Uint8Array(0),
    nonce: 0n,
    timestamp: 0n,
  },
  {
    txId: 'héllo wörld ✓ 𝄞',
    payload: new Uint8Array(300).map((_, i) => i & 0xff),
    signature: new Uint8Array(64).fill(0xfe),
    publicKey: new Uint8Array(32).fill(1),
    nonce: 0xffff_ffff_ffff_ffffn,
    timestamp: 1_700_000_000_000_000n,
  },
  {
    txId: 'x'.repeat(128),
    payload: new Uint8Array(65_536).fill(9),
    signature: new Uint8Array(256),
    publicKey: new Uint8Array(256).fill(2),
    nonce: 1n << 63n,
    timestamp: 12345n,
  },
];

describe('core/tx-hash', () => {
  it('encodes byte for byte like the borsh package', () => {
    for (const tx of samples) {
      expect(Buffer.from(transactionBytes(tx)).equals(Buffer.from(viaBorsh(tx)))).to.equal(true);
    }
  });

  it('encodes the tx_id from text into a slab range like the borsh package (ASCII and not)', () => {
    const slab = new Uint8Array(200_000).fill(0xaa);
    for (const tx of samples) {
      const len = new TextEncoder().encode(tx.txId).length;
      const out = slab.subarray(13, 13 + transactionBytesLength(tx, len));
      const [payloadAt, signatureAt, publicKeyAt] = writeTransactionBytesFromText(out, tx, len);
      expect(Buffer.from(out).equals(Buffer.from(viaBorsh(tx)))).to.equal(true);
      expect(
        Buffer.from(out.subarray(payloadAt, payloadAt + tx.payload.length)).equals(Buffer.from(tx.payload)),
      ).to.equal(true);
      expect(
        Buffer.from(out.subarray(signatureAt, signatureAt + tx.signature.length)).equals(Buffer.from(tx.signature)),
      ).to.equal(true);
      expect(
        Buffer.from(out.subarray(publicKeyAt, publicKeyAt + tx.publicKey.length)).equals(Buffer.from(tx.publicKey)),
      ).to.equal(true);
      expect(slab[12]).to.equal(0xaa);
      expect(slab[13 + out.length]).to.equal(0xaa);
    }
  });

  it('lays out fields as design.md says (u32 LE lengths, u64 LE integers)', () => {
    const bytes = transactionBytes({
      txId: 'ab',
      payload: new Uint8Array([7]),
      signature: new Uint8Array(0),
      publicKey: new Uint8Array([1, 2]),
      nonce: 0x0102n,
      timestamp: 3n,
    });
    expect(Buffer.from(bytes).toString('hex')).to.equal(
      '02000000' +
        '6162' +
        '01000000' +
        '07' +
        '00000000' +
        '02000000' +
        '0102' +
        '0201000000000000' +
        '0300000000000000',
    );
  });

  it('hash is SHA-256 of the bytes and the short form its first 4 bytes in lowercase hex', () => {
    for (const tx of samples) {
      const expected = createHash('sha256').update(viaBorsh(tx)).digest();
      const full = transactionHash(tx);
      expect(full.length).to.equal(32);
      expect(Buffer.from(full).equals(expected)).to.equal(true);
      expect(shortHash(full)).to.equal(expected.subarray(0, 4).toString('hex'));
      expect(shortHash(full)).to.match(/^[0-9a-f]{8}$/);
    }
  });

  it('any field change changes the hash', () => {
    const base = samples[1]!;
    const h = Buffer.from(transactionHash(base)).toString('hex');
    const variants: Transaction[] = [
      { ...base, txId: `${base.txId}!` },
      { ...base, payload: base.payload.slice(1) },
      { ...base, signature: new Uint8Array(64).fill(0xfd) },
      { ...base, publicKey: new Uint8Array(33).fill(1) },
      { ...base, nonce: base.nonce - 1n },
      { ...base, timestamp: base.timestamp + 1n },
    ];
    for (const v of variants) expect(Buffer.from(transactionHash(v)).toString('hex')).to.not.equal(h);
  });

  it('recognises short hash strings', () => {
    expect(isShortHash('0a1b2c3d')).to.equal(true);
    expect(isShortHash('0A1B2C3D')).to.equal(true);
    for (const bad of ['', '0a1b2c3', '0a1b2c3d4', 'zzzzzzzz', '0x1b2c3d', ' 0a1b2c3d']) {
      expect(isShortHash(bad), bad).to.equal(false);
    }
  });
});
