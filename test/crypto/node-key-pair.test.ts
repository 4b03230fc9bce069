/**
 * keyPairOfSeed (node:crypto, the node's own key) gives the same key pair as keyPairFromSeed
 * (@noble/ed25519, the SDK's): the node's key file and sequencer_id do not depend on which
 * library derived its public key.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { keyPairFromSeed, keyPairOfSeed } from '../../src/crypto/index.js';

describe('keyPairOfSeed: the node key pair by node:crypto', () => {
  it('derives the public key @noble/ed25519 derives, for the RFC 8032 vector and random seeds', () => {
    // RFC 8032 section 7.1, TEST 1.
    const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
    expect(Buffer.from(keyPairOfSeed(seed).publicKey).toString('hex')).to.equal(
      'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    );
    for (let i = 0; i < 50; i++) {
      const s = new Uint8Array(randomBytes(32));
      expect(keyPairOfSeed(s)).to.deep.equal(keyPairFromSeed(s));
    }
  });

  it('refuses a seed that is not 32 bytes', () => {
    expect(() => keyPairOfSeed(new Uint8Array(31))).to.throw(RangeError);
  });
});
