/**
 * The packed in-memory window: every held tick decodes to exactly what was appended
 * (previous outputs taken from the neighbouring record or inline at chunk starts),
 * old chunks are dropped once outside --retain-ticks, recent() lists newest first, and
 * the packed form is compact (bytes per tick close to the raw field sizes).
 */
import { expect } from 'chai';
import { MemoryTickStore } from '../../src/store/memory-store.js';
import type { Tick } from '../../src/core/types.js';
import { bytes, makeChain, makeTick } from './fixtures.js';

/** The chain with every transaction's payload replaced by `size(tick number)` bytes. */
function withPayloads(chain: Tick[], size: (n: number) => number): Tick[] {
  for (const t of chain)
    for (const o of t.transactions)
      o.transaction = { ...o.transaction, payload: bytes(size(t.tickNumber), o.sequenceNumber) };
  return chain;
}

describe('store/memory-store', () => {
  it('decodes every appended tick exactly', () => {
    const store = new MemoryTickStore(1000);
    const chain = makeChain(60, (n) => n % 4);
    for (const t of chain) store.append({ tick: t });
    expect(store.latest()).to.equal(60);
    for (const t of chain) expect(store.get(t.tickNumber), `tick ${t.tickNumber}`).to.deep.equal(t);
    expect(store.get(61)).to.equal(undefined);
    expect(store.get(0)).to.equal(undefined);
  });

  it('keeps about retainTicks ticks and drops whole old chunks', () => {
    const store = new MemoryTickStore(16); // chunks of 2 ticks
    const chain = makeChain(100, () => 1);
    for (const t of chain) store.append({ tick: t });
    expect(store.has(100)).to.equal(true);
    expect(store.has(85)).to.equal(true); // 100 - 16 + 1
    expect(store.has(80)).to.equal(false);
    expect(store.size()).to.be.within(16, 18);
    expect(store.oldest()).to.be.within(83, 85);
    // The oldest held tick still knows its previous output (inline at a chunk start).
    expect(store.get(store.oldest())).to.deep.equal(chain[store.oldest() - 1]);
  });

  it('lists recent ticks newest first with limit and offset', () => {
    const store = new MemoryTickStore(10);
    for (const t of makeChain(30, (n) => n % 3)) store.append({ tick: t });
    const r = store.recent(3, 0);
    expect(r.map((s) => s.tickNumber)).to.deep.equal([30, 29, 28]);
    expect(r[0]!.transactionCount).to.equal(0);
    expect(r[1]!.transactionCount).to.equal(2);
    expect(store.recent(2, 4).map((s) => s.tickNumber)).to.deep.equal([26, 25]);
    expect(store.recent(5, 1000)).to.deep.equal([]);
    expect(store.recent(0, 0)).to.deep.equal([]);
  });

  it('refuses out-of-order ticks and starts a fresh chunk after a gap', () => {
    const store = new MemoryTickStore(100);
    const a = makeChain(3, () => 0, 10);
    for (const t of a) store.append({ tick: t });
    expect(() => store.append({ tick: makeTick(12, 0, 0) })).to.throw();
    const later = makeTick(20, 2, 1);
    store.append({ tick: later });
    expect(store.get(20)).to.deep.equal(later);
    expect(store.get(12)).to.deep.equal(a[2]);
    expect(store.has(15)).to.equal(false);
  });

  it('refuses non-consecutive sequence numbers inside a tick', () => {
    const store = new MemoryTickStore(10);
    const t = makeTick(1, 2, 5);
    t.transactions[1]!.sequenceNumber = 9;
    expect(() => store.append({ tick: t })).to.throw(/consecutive/);
  });

  it('packs an empty tick with a trivial proof into 592 bytes', () => {
    const store = new MemoryTickStore(100);
    const chain = makeChain(3, () => 0);
    for (const t of chain) store.append({ tick: t });
    // Second tick: no inline previous output, trivial proof.
    expect(store.recordBytes(2)).to.equal(80 + 256 + 256);
  });

  it('--retain-bytes: allocated memory stays within the byte bound (+ one chunk), whatever the tick sizes', () => {
    const bound = 1024 * 1024;
    const store = new MemoryTickStore(1_000_000, undefined, bound); // the count bound never binds here
    let maxAllocated = 0;
    // Small ticks, then ticks with 60 KB of payloads, then small again.
    const chain = withPayloads(
      makeChain(3000, (n) => (n > 1000 && n <= 2000 ? 3 : 1)),
      (n) => (n > 1000 && n <= 2000 ? 20_000 : 100),
    );
    for (const t of chain) {
      store.append({ tick: t });
      maxAllocated = Math.max(maxAllocated, store.allocatedBytes());
    }
    expect(maxAllocated, 'most bytes ever allocated').to.be.at.most(bound * 1.125 + 64 * 1024);
    expect(store.allocatedBytes()).to.be.at.most(bound * 1.125);
    expect(store.latest()).to.equal(3000);
    expect(store.oldest()).to.be.greaterThan(1);
    // Everything still held decodes exactly, newest first listing included.
    for (let n = store.oldest(); n <= 3000; n++) expect(store.get(n), `tick ${n}`).to.deep.equal(chain[n - 1]);
    expect(store.recent(1, 0)[0]!.tickNumber).to.equal(3000);
  });

  it('--retain-bytes: a single tick larger than the bound is still held (the newest tick always is)', () => {
    const store = new MemoryTickStore(100, undefined, 64 * 1024);
    const chain = withPayloads(
      makeChain(5, () => 2),
      () => 60_000,
    );
    for (const t of chain) store.append({ tick: t });
    expect(store.has(5)).to.equal(true);
    expect(store.get(5)).to.deep.equal(chain[4]);
    expect(store.size()).to.be.at.most(2);
  });
});
