/**
 * ReplayGuard in isolation: duplicates are recognised with their original record,
 * tx_id and (public_key, nonce) reuse by a different transaction conflicts, an empty
 * public_key never conflicts on nonce, and the window forgets the oldest entries so
 * its memory is bounded. Fingerprint collisions are forced (keys given one fingerprint,
 * tiny tables) to show that a verdict always rests on the key's bytes.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { ReplayGuard, replayKeysOf, type ReplayKeys, type ReplayRecord } from '../../src/sequencer/replay.js';
import { PreparedReader, prepareTransactions } from '../../src/sequencer/prepare.js';
import { transactionHash } from '../../src/core/tx-hash.js';
import type { Transaction } from '../../src/core/types.js';

const rec = (n: number): ReplayRecord => ({
  sequenceNumber: n,
  expectedTick: n + 1000,
  txHash: 'ignored',
  durable: Promise.resolve(),
});
const h = (n: number): Uint8Array => new Uint8Array(32).fill(n);

/**
 * Keys of a transaction with this tx_id, full hash and pair. `print` forces both keys'
 * fingerprints (a test's stand-in for a fingerprint function with few values: callers give
 * equal keys equal prints, as a real one does); `pairPrint` the pair's alone (null: its real one).
 */
function keys(
  id: string,
  hash: Uint8Array,
  pk = new Uint8Array(0),
  nonce = 0n,
  print?: number,
  pairPrint: number | null | undefined = print,
): ReplayKeys {
  const tx: Transaction = {
    txId: id,
    payload: new Uint8Array(0),
    signature: new Uint8Array(0),
    publicKey: pk,
    nonce,
    timestamp: 0n,
  };
  const k = replayKeysOf(tx, hash);
  const forced = { ...k };
  if (print !== undefined) [forced.idPrintLo, forced.idPrintHi] = [print, ~print];
  if (pairPrint !== undefined && pairPrint !== null && pk.length > 0)
    [forced.pkNoncePrintLo, forced.pkNoncePrintHi] = [pairPrint, ~pairPrint];
  return forced;
}

describe('sequencer/replay', () => {
  it('returns the original record for the same hash', () => {
    const g = new ReplayGuard(10);
    const durable = Promise.resolve();
    g.add(keys('a', h(1), new Uint8Array([1]), 5n), { ...rec(1), durable });
    const v = g.check(keys('a', h(1), new Uint8Array([1]), 5n));
    expect(v.kind).to.equal('duplicate');
    if (v.kind !== 'duplicate') return;
    expect([v.record.sequenceNumber, v.record.expectedTick, v.record.txHash]).to.deep.equal([1, 1001, '01010101']);
    expect(v.record.durable).to.equal(durable);
  });

  it('conflicts on tx_id reuse and on (public_key, nonce) reuse, with the documented messages', () => {
    const g = new ReplayGuard(10);
    g.add(keys('a-ü', h(1), new Uint8Array([1, 2]), 5n), rec(1));
    expect(g.check(keys('a-ü', h(2)))).to.deep.equal({
      kind: 'conflict',
      message: "tx_id 'a-ü' is already used by another transaction",
    });
    expect(g.check(keys('b', h(3), new Uint8Array([1, 2]), 5n))).to.deep.equal({
      kind: 'conflict',
      message: 'nonce is already used with this public_key by another transaction',
    });
    expect(g.check(keys('c', h(4), new Uint8Array([1, 2]), 6n)).kind).to.equal('new');
    expect(g.check(keys('d', h(5), new Uint8Array([1, 3]), 5n)).kind).to.equal('new');
    // The same tx_id with the same hash is the duplicate, whatever else is asked.
    expect(g.check(keys('a-ü', h(1), new Uint8Array([1, 2]), 5n)).kind).to.equal('duplicate');
  });

  it('keys (public_key, nonce) unambiguously and ignores empty keys', () => {
    const g = new ReplayGuard(10);
    g.add(keys('a', h(1), new Uint8Array(0), 1n), rec(1));
    expect(g.check(keys('b', h(2), new Uint8Array(0), 1n)).kind).to.equal('new');
    const anon = keys('x', h(9));
    expect(anon.pkNonceEnd - anon.pkNonceAt).to.equal(0);
    g.add(keys('c', h(3), new Uint8Array([1]), 12n), rec(2));
    // u32 length | public_key | u64 nonce: [1] with nonce 12 is not [1, 0x31] with nonce 2.
    expect(g.check(keys('d', h(4), new Uint8Array([1, 0x31]), 2n)).kind).to.equal('new');
    expect(g.check(keys('d', h(4), new Uint8Array([1]), 12n)).kind).to.equal('conflict');
  });

  it('keys a transaction the same at intake (from its Borsh bytes) as from its fields (restart)', () => {
    const txs: Transaction[] = [];
    for (const pkLen of [0, 1, 32, 33, 256]) {
      for (const nonce of [0n, 1n, 255n, 256n, 2n ** 53n + 1n, 2n ** 64n - 1n]) {
        const publicKey = new Uint8Array(pkLen).map((_, i) => (i * 37 + pkLen) & 0xff);
        txs.push({
          txId: `id-${pkLen}-${nonce}-${'ü'.repeat(nonce % 7n === 0n ? 3 : 0)}`,
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
      expect(plain(reader.item(i)), tx.txId).to.deep.equal(plain(replayKeysOf(tx, transactionHash(tx))));
    });
  });

  it('forgets the oldest entries beyond the window', () => {
    const g = new ReplayGuard(3);
    for (let i = 1; i <= 5; i++) g.add(keys(`id${i}`, h(i)), rec(i));
    expect(g.size()).to.equal(3);
    expect(g.check(keys('id1', h(1))).kind).to.equal('new');
    expect(g.check(keys('x', h(2))).kind).to.equal('new');
    expect(g.check(keys('id3', h(3))).kind).to.equal('duplicate');
    expect(g.check(keys('id5', h(9))).kind).to.equal('conflict');
  });

  it('takes a tx_id and a pair again once they leave the window, around the ring several times', () => {
    // Four ids and pairs taken in turn through a window of three: each is gone when its turn comes.
    const g = new ReplayGuard(3, 7);
    const pk = new Uint8Array([9, 9]);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 4; i++) {
        const k = keys(`id${i}`, h(round * 4 + i + 1), pk, BigInt(i));
        expect(g.check(k).kind, `round ${round} item ${i}`).to.equal('new');
        g.add(k, rec(round * 4 + i));
        // It and the two before it are remembered: their ids and pairs conflict.
        for (const back of [0, 1, 2]) {
          if (round === 0 && back > i) continue;
          const j = (i - back + 4) % 4;
          expect(g.check(keys(`id${j}`, h(99), pk, 50n)).kind).to.equal('conflict');
          expect(g.check(keys('other', h(98), pk, BigInt(j))).kind).to.equal('conflict');
        }
        const gone = (i + 1) % 4;
        if (round > 0 || i === 3) expect(g.check(keys(`id${gone}`, h(97), pk, BigInt(gone))).kind).to.equal('new');
      }
    }
    expect(g.size()).to.equal(3);
  });

  it('tells keys with the same fingerprint apart by their bytes (tiny table, every key colliding)', () => {
    const g = new ReplayGuard(4, 1);
    const pk = new Uint8Array([7]);
    for (let i = 0; i < 4; i++) g.add(keys(`id${i}`, h(i + 1), pk, BigInt(i), 42), rec(i));
    for (let i = 0; i < 4; i++) {
      expect(g.check(keys(`id${i}`, h(i + 1), pk, BigInt(i), 42)).kind).to.equal('duplicate');
      const dup = g.check(keys(`id${i}`, h(i + 1), pk, BigInt(i), 42));
      expect(dup.kind === 'duplicate' && dup.record.sequenceNumber).to.equal(i);
      expect(g.check(keys(`id${i}`, h(50), undefined, 0n, 42)).kind).to.equal('conflict');
    }
    // Same fingerprints, other bytes: new, never refused.
    expect(g.check(keys('id9', h(60), pk, 9n, 42)).kind).to.equal('new');
    // Evictions from the middle of one long run keep the rest findable (backward shift).
    for (let i = 4; i < 10; i++) {
      g.add(keys(`id${i}`, h(i + 1), pk, BigInt(i), 42), rec(i));
      for (let j = i - 3; j <= i; j++)
        expect(g.check(keys(`id${j}`, h(j + 1), pk, BigInt(j), 42)).kind).to.equal('duplicate');
      expect(g.check(keys(`id${i - 4}`, h(99), pk, 99n, 42)).kind).to.equal('new');
      expect(g.check(keys('zz', h(98), pk, BigInt(i - 4), 42)).kind).to.equal('new');
    }
  });

  it('on restart the newer of two transactions with one key answers, and the older leaving forgets nothing', () => {
    const g = new ReplayGuard(3);
    g.add(keys('a', h(1)), rec(1));
    g.add(keys('a', h(2)), rec(2)); // remembered without a check, as a restart does
    const v = g.check(keys('a', h(2)));
    expect(v.kind === 'duplicate' && v.record.sequenceNumber).to.equal(2);
    expect(g.check(keys('a', h(1))).kind).to.equal('conflict');
    g.add(keys('b', h(3)), rec(3));
    g.add(keys('c', h(4)), rec(4)); // the first 'a' leaves
    expect(g.check(keys('a', h(2))).kind).to.equal('duplicate');
  });

  it('agrees with a naive model over many wraparounds (reused ids and keys included)', () => {
    const window = 7;
    const g = new ReplayGuard(window);
    const model: Array<{ hash: number; id: string; pk: string | undefined }> = [];
    let x = 12345;
    const rnd = (n: number): number => {
      x = (x * 1103515245 + 12345) >>> 0;
      return x % n;
    };
    for (let i = 0; i < 3000; i++) {
      // Like real transactions: the same hash implies the same tx_id (the hash covers
      // it), while different transactions may reuse a tx_id.
      const k = rnd(40);
      const id = `id${k % 25}`;
      const pkByte = rnd(3);
      const nonce = rnd(5);
      const pk = pkByte === 0 ? undefined : `${pkByte}:${nonce}`;
      const dup = model.find((m) => m.hash === k);
      const expected = dup
        ? 'duplicate'
        : model.some((m) => m.id === id) || (pk !== undefined && model.some((m) => m.pk === pk))
          ? 'conflict'
          : 'new';
      const tk = keys(id, h(k), pkByte === 0 ? new Uint8Array(0) : new Uint8Array([pkByte]), BigInt(nonce));
      const verdict = g.check(tk);
      expect(verdict.kind, `step ${i}`).to.equal(expected);
      if (verdict.kind === 'new') {
        g.add(tk, rec(i));
        model.push({ hash: k, id, pk });
        if (model.length > window) model.shift();
      }
      expect(g.size()).to.equal(model.length);
    }
  });

  it('agrees with a Map-based model over 200,000 operations (colliding fingerprints, long keys)', () => {
    const window = 61;
    const g = new ReplayGuard(window, 3);
    const model = new MapModel(window);
    let x = 987654321;
    const rnd = (n: number): number => {
      x = (x * 1103515245 + 12345) >>> 0;
      return (x >>> 8) % n;
    };
    // A pool of distinct transactions; some tx_ids and pairs are shared between them.
    const pool = Array.from({ length: 400 }, (_, n) => {
      const idNo = rnd(150);
      const id = idNo % 10 === 0 ? `${'long-'.repeat(24)}${idNo}` : `t${idNo}`; // up to 128 bytes
      const pkByte = rnd(4);
      const pkLength = pkByte === 0 ? 0 : pkByte >= 2 ? 256 : 32;
      const nonce = BigInt(rnd(60));
      const hash = createHash('sha256').update(`${n}`).digest();
      // Most keys share a few fingerprints: long runs of equal fingerprints in the tables.
      const print = idNo % 3 === 0 ? undefined : idNo % 8;
      const pairPrint = nonce % 7n === 5n ? null : Number(nonce) % 2;
      const tk = keys(id, hash, new Uint8Array(pkLength).fill(pkByte), nonce, print, pairPrint);
      return { tk, hash: hash.toString('hex'), id, pair: pkLength === 0 ? undefined : `${pkByte}/${nonce}` };
    });
    const bytesBefore = g.bytes();
    const seen = { new: 0, duplicate: 0, conflict: 0 };
    for (let i = 0; i < 200_000; i++) {
      const t = pool[rnd(pool.length)]!;
      const verdict = g.check(t.tk);
      seen[verdict.kind]++;
      const expected = model.check(t.hash, t.id, t.pair);
      if (
        verdict.kind !== expected.kind ||
        (verdict.kind === 'duplicate' && verdict.record.sequenceNumber !== expected.seq)
      ) {
        expect.fail(`step ${i}: ${verdict.kind} vs the model's ${expected.kind}`);
      }
      if (verdict.kind === 'new') {
        g.add(t.tk, rec(i));
        model.add(t.hash, t.id, t.pair, i);
      }
      if (g.size() !== model.size()) expect.fail(`step ${i}: size ${g.size()} vs ${model.size()}`);
    }
    // The window turned over many times, and every verdict was met often.
    expect(Math.min(seen.new, seen.duplicate, seen.conflict), JSON.stringify(seen)).to.be.greaterThan(10_000);
    // Long keys grew the byte ring (its wrap-around taken many times before), not without bound.
    expect(g.bytes()).to.be.greaterThan(bytesBefore);
    expect(g.bytes() - bytesBefore).to.be.lessThan(4 * window * (128 + 268));
  });
});

/** The replay window as it was specified first: Maps and a FIFO of strings (newest wins). */
class MapModel {
  private readonly byId = new Map<string, { hash: string; seq: number }>();
  private readonly byPair = new Map<string, string>();
  private readonly fifo: Array<{ hash: string; id: string; pair: string | undefined }> = [];

  constructor(private readonly window: number) {}

  size(): number {
    return this.fifo.length;
  }

  check(hash: string, id: string, pair: string | undefined): { kind: string; seq?: number } {
    const seen = this.byId.get(id);
    if (seen) return seen.hash === hash ? { kind: 'duplicate', seq: seen.seq } : { kind: 'conflict' };
    if (pair !== undefined && this.byPair.has(pair)) return { kind: 'conflict' };
    return { kind: 'new' };
  }

  add(hash: string, id: string, pair: string | undefined, seq: number): void {
    if (this.fifo.length === this.window) {
      const old = this.fifo.shift()!;
      if (this.byId.get(old.id)?.hash === old.hash) this.byId.delete(old.id);
      if (old.pair !== undefined && this.byPair.get(old.pair) === old.hash) this.byPair.delete(old.pair);
    }
    this.fifo.push({ hash, id, pair });
    this.byId.set(id, { hash, seq });
    if (pair !== undefined) this.byPair.set(pair, hash);
  }
}

/** What a ReplayKeys says, independent of where its bytes sit. */
function plain(k: ReplayKeys): object {
  const hex = (a: number, b: number): string => Buffer.from(k.keyBytes.subarray(a, b)).toString('hex');
  return {
    hash: Buffer.from(k.fullHash).toString('hex'),
    id: hex(k.idAt, k.idEnd),
    pair: hex(k.pkNonceAt, k.pkNonceEnd),
    prints: [k.idPrintLo, k.idPrintHi, k.pkNoncePrintLo, k.pkNoncePrintHi],
  };
}
