/**
 * ReplayGuard in isolation: duplicates are recognised with their original record,
 * tx_id and (public_key, nonce) reuse by a different transaction conflicts, an empty
 * public_key never conflicts on nonce, and the window forgets the oldest entries so
 * its memory is bounded.
 */
import { expect } from 'chai';
import { ReplayGuard, hashKey, pkNonceKey, type ReplayRecord } from '../../src/sequencer/replay.js';
import { PreparedReader, prepareTransactions } from '../../src/sequencer/prepare.js';
import { transactionHash } from '../../src/core/tx-hash.js';
import type { Transaction } from '../../src/core/types.js';

const rec = (n: number, hashKey: string): ReplayRecord => ({
  hashKey,
  sequenceNumber: n,
  expectedTick: n,
  txHash: 'abcd0000',
  durable: Promise.resolve(),
});
const h = (n: number): string => hashKey(new Uint8Array(32).fill(n));

describe('sequencer/replay', () => {
  it('returns the original record for the same hash', () => {
    const g = new ReplayGuard(10);
    g.add('a', pkNonceKey(new Uint8Array([1]), 5n), rec(1, h(1)));
    const v = g.check(h(1), 'a', pkNonceKey(new Uint8Array([1]), 5n));
    expect(v.kind).to.equal('duplicate');
    expect(v.kind === 'duplicate' && v.record.sequenceNumber).to.equal(1);
  });

  it('conflicts on tx_id reuse and on (public_key, nonce) reuse', () => {
    const g = new ReplayGuard(10);
    g.add('a', pkNonceKey(new Uint8Array([1, 2]), 5n), rec(1, h(1)));
    expect(g.check(h(2), 'a', undefined).kind).to.equal('conflict');
    expect(g.check(h(3), 'b', pkNonceKey(new Uint8Array([1, 2]), 5n)).kind).to.equal('conflict');
    expect(g.check(h(4), 'c', pkNonceKey(new Uint8Array([1, 2]), 6n)).kind).to.equal('new');
    expect(g.check(h(5), 'd', pkNonceKey(new Uint8Array([1, 3]), 5n)).kind).to.equal('new');
  });

  it('keys (public_key, nonce) unambiguously and ignores empty keys', () => {
    expect(pkNonceKey(new Uint8Array(0), 1n)).to.equal(undefined);
    expect(pkNonceKey(new Uint8Array([1]), 12n)).to.not.equal(pkNonceKey(new Uint8Array([1, 0x31]), 2n));
  });

  it('keys a transaction the same at intake (from its Borsh bytes) as from its fields (restart)', () => {
    const txs: Transaction[] = [];
    for (const pkLen of [0, 1, 32, 33, 256]) {
      for (const nonce of [0n, 1n, 255n, 256n, 2n ** 53n + 1n, 2n ** 64n - 1n]) {
        const publicKey = new Uint8Array(pkLen).map((_, i) => (i * 37 + pkLen) & 0xff);
        txs.push({
          txId: `id-${pkLen}-${nonce}`,
          payload: new Uint8Array(5),
          signature: new Uint8Array(3),
          publicKey,
          nonce,
          timestamp: 7n,
        });
      }
    }
    // One prepared batch holds them all at offsets inside one buffer, as intake writes them.
    const reader = new PreparedReader(prepareTransactions(txs));
    txs.forEach((tx, i) => {
      expect(reader.item(i).pkNonceKey, tx.txId).to.equal(pkNonceKey(tx.publicKey, tx.nonce));
      expect(reader.item(i).hashKey, tx.txId).to.equal(hashKey(transactionHash(tx)));
    });
    expect(hashKey(Buffer.alloc(32, 7))).to.equal(hashKey(new Uint8Array(32).fill(7)));
  });

  it('forgets the oldest entries beyond the window', () => {
    const g = new ReplayGuard(3);
    for (let i = 1; i <= 5; i++) g.add(`id${i}`, undefined, rec(i, h(i)));
    expect(g.size()).to.equal(3);
    expect(g.check(h(1), 'id1', undefined).kind).to.equal('new');
    expect(g.check(h(2), 'x', undefined).kind).to.equal('new');
    expect(g.check(h(3), 'id3', undefined).kind).to.equal('duplicate');
    expect(g.check(h(9), 'id5', undefined).kind).to.equal('conflict');
  });

  it('agrees with a naive model over many wraparounds (reused ids and keys included)', () => {
    const window = 7;
    const g = new ReplayGuard(window);
    const model: Array<{ hash: string; id: string; pk: string | undefined }> = [];
    let x = 12345;
    const rnd = (n: number): number => {
      x = (x * 1103515245 + 12345) >>> 0;
      return x % n;
    };
    for (let i = 0; i < 3000; i++) {
      // Like real transactions: the same hash implies the same tx_id (the hash covers
      // it), while different transactions may reuse a tx_id.
      const k = rnd(40);
      const hash = h(k);
      const id = `id${k % 25}`;
      const pk = rnd(3) === 0 ? undefined : pkNonceKey(new Uint8Array([rnd(3) + 1]), BigInt(rnd(5)));
      const dup = model.find((m) => m.hash === hash);
      const expected = dup
        ? 'duplicate'
        : model.some((m) => m.id === id) || (pk !== undefined && model.some((m) => m.pk === pk))
          ? 'conflict'
          : 'new';
      const verdict = g.check(hash, id, pk);
      expect(verdict.kind, `step ${i}`).to.equal(expected);
      if (verdict.kind === 'new') {
        g.add(id, pk, rec(i, hash));
        model.push({ hash, id, pk });
        if (model.length > window) model.shift();
      }
      expect(g.size()).to.equal(model.length);
    }
  });
});
