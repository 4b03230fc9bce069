/**
 * The one binary transaction body (src/core/tx-record.ts) that the write-ahead log and
 * the memory window share: exact round trip, byte layout, refusal of truncated input.
 */
import { expect } from 'chai';
import { TX_BODY_HEADER, readTxBody, txBodyLength, writeTxBody } from '../../src/core/tx-record.js';
import { transactionHash } from '../../src/core/tx-hash.js';
import type { Transaction } from '../../src/core/types.js';

const tx: Transaction = {
  txId: 'ünïcode-id',
  payload: new Uint8Array([1, 2, 3, 4, 5]),
  signature: new Uint8Array(64).fill(7),
  publicKey: new Uint8Array(32).fill(9),
  nonce: 2n ** 64n - 1n,
  timestamp: 1_700_000_000_000_000n,
};
const id = new TextEncoder().encode(tx.txId);

describe('core/tx-record', () => {
  it('writes the documented layout and reads back every field', () => {
    const hash = transactionHash(tx);
    const len = txBodyLength(tx, id.length);
    expect(len).to.equal(TX_BODY_HEADER + id.length + 5 + 64 + 32);
    const buf = new Uint8Array(len + 3);
    const view = new DataView(buf.buffer);
    const end = writeTxBody(buf, view, 3, tx, id, hash);
    expect(end).to.equal(len + 3);
    expect(view.getBigUint64(3, true)).to.equal(tx.nonce);
    expect(buf.subarray(3 + 16, 3 + 48)).to.deep.equal(hash);
    expect(view.getUint16(3 + 48, true)).to.equal(id.length);
    expect(view.getUint32(3 + 54, true)).to.equal(5);
    const back = readTxBody(buf, view, 3);
    expect(back.end).to.equal(end);
    expect(back.tx).to.deep.equal(tx);
    expect(back.txIdBytes).to.deep.equal(id);
    expect(back.fullHash).to.deep.equal(hash);
    expect(transactionHash(back.tx)).to.deep.equal(hash);
  });

  it('refuses a body cut anywhere', () => {
    const buf = new Uint8Array(txBodyLength(tx, id.length));
    writeTxBody(buf, new DataView(buf.buffer), 0, tx, id, transactionHash(tx));
    for (const cut of [10, TX_BODY_HEADER, buf.length - 1]) {
      const part = buf.slice(0, cut);
      expect(() => readTxBody(part, new DataView(part.buffer), 0), `cut at ${cut}`).to.throw(RangeError, /truncated/);
    }
  });
});
