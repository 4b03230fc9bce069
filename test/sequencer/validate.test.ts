/**
 * Validation limits, one field at a time: the largest allowed value passes, one more
 * fails with INVALID_ARGUMENT naming the field; wrong types and u64 bounds too.
 */
import { expect } from 'chai';
import { SubmitError } from '../../src/sequencer/interface.js';
import {
  MAX_PAYLOAD_BYTES,
  MAX_PUBLIC_KEY_BYTES,
  MAX_SIGNATURE_BYTES,
  MAX_TX_ID_BYTES,
  MAX_U64,
} from '../../src/sequencer/limits.js';
import type { Transaction } from '../../src/core/types.js';
import { checkTransaction, validateTransaction } from '../../src/sequencer/validate.js';

const base: Transaction = {
  txId: 'ok',
  payload: new Uint8Array(1),
  signature: new Uint8Array(0),
  publicKey: new Uint8Array(0),
  nonce: 0n,
  timestamp: 0n,
};

function rejects(tx: unknown, field: RegExp): void {
  try {
    validateTransaction(tx);
  } catch (e) {
    expect(e).to.be.instanceOf(SubmitError);
    expect((e as SubmitError).code).to.equal('INVALID_ARGUMENT');
    expect((e as SubmitError).message).to.match(field);
    return;
  }
  expect.fail(`accepted ${JSON.stringify(tx, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
}

describe('sequencer/validate', () => {
  it('exports the documented limits', () => {
    expect([MAX_TX_ID_BYTES, MAX_PAYLOAD_BYTES, MAX_SIGNATURE_BYTES, MAX_PUBLIC_KEY_BYTES]).to.deep.equal([
      128, 65536, 256, 256,
    ]);
    expect(MAX_U64).to.equal(2n ** 64n - 1n);
  });

  it('accepts every field at its maximum', () => {
    const id = validateTransaction({
      txId: 'é'.repeat(64), // 128 bytes of UTF-8
      payload: new Uint8Array(MAX_PAYLOAD_BYTES),
      signature: new Uint8Array(MAX_SIGNATURE_BYTES),
      publicKey: new Uint8Array(MAX_PUBLIC_KEY_BYTES),
      nonce: MAX_U64,
      timestamp: MAX_U64,
    });
    expect(id.length).to.equal(128);
    expect(validateTransaction({ ...base, payload: Buffer.alloc(3) }).length).to.equal(2);
  });

  it('counts the UTF-8 bytes of a tx_id exactly without encoding it', () => {
    for (const txId of [
      'a',
      'é',
      '€',
      '😀',
      'a😀é€z',
      '\u007f\u0080\u07ff\u0800\uffff',
      '\ud7ff\ue000',
      '𐀀'.repeat(32),
      'x'.repeat(128),
    ]) {
      expect(checkTransaction({ ...base, txId }), txId).to.equal(new TextEncoder().encode(txId).length);
    }
  });

  it('tx_id: 1..128 bytes of valid UTF-8', () => {
    rejects({ ...base, txId: '' }, /tx_id/);
    rejects({ ...base, txId: 'x'.repeat(129) }, /tx_id/);
    rejects({ ...base, txId: 'é'.repeat(65) }, /tx_id is 130 bytes/);
    rejects({ ...base, txId: 'a\ud800b' }, /tx_id/);
    rejects({ ...base, txId: 42 }, /tx_id/);
    rejects({ ...base, txId: undefined }, /tx_id/);
  });

  it('payload, signature, public_key: bytes within their limits', () => {
    rejects({ ...base, payload: new Uint8Array(MAX_PAYLOAD_BYTES + 1) }, /payload is 65537 bytes/);
    rejects({ ...base, signature: new Uint8Array(MAX_SIGNATURE_BYTES + 1) }, /signature/);
    rejects({ ...base, publicKey: new Uint8Array(MAX_PUBLIC_KEY_BYTES + 1) }, /public_key/);
    rejects({ ...base, payload: 'abc' }, /payload must be bytes/);
    rejects({ ...base, signature: [1, 2] }, /signature must be bytes/);
    rejects({ ...base, publicKey: null }, /public_key must be bytes/);
  });

  it('nonce and timestamp: u64', () => {
    rejects({ ...base, nonce: -1n }, /nonce/);
    rejects({ ...base, nonce: MAX_U64 + 1n }, /nonce/);
    rejects({ ...base, nonce: 5 }, /nonce/);
    rejects({ ...base, timestamp: 2n ** 64n }, /timestamp/);
    rejects({ ...base, timestamp: '1' }, /timestamp/);
  });

  it('rejects a missing transaction', () => {
    rejects(undefined, /transaction/);
    rejects(null, /transaction/);
    rejects('tx', /transaction/);
  });
});
