/**
 * The pure derivations from an applied tick, on the real engine: an owner's events for
 * each outcome (accepted, partial and full fills on both sides, self-trade and expiry
 * removals, cancels, refusals only with a verified signature), and the book deltas: a
 * mirror fed only the deltas equals the engine's own books after every tick of a random
 * flow with many transactions per tick, and each delta's checksum (kept incrementally) is
 * the checksum of the engine's whole book computed from scratch.
 */
import { expect } from 'chai';
import { BookSource, levelChangesOf, levelsOfBook, ownerEventsOf } from '../../src/channels/index.js';
import { toBase58Key } from '../../src/crypto/base58.js';
import { bookChecksumOf, EMPTY_BOOK_CHECKSUM } from '../../src/sdk/index.js';
import { cancelTx, marketTx, orderTx, seeded } from '../dex/support/orders.js';
import { TickMaker } from './support/ticks.js';

const alice = seeded(1).publicKey;
const bob = seeded(2).publicKey;
const carol = seeded(3).publicKey;

function events(t: ReturnType<TickMaker['apply']>) {
  return ownerEventsOf(t).map((e) => ({ owner: toBase58Key(e.owner), ...e.body }));
}

describe('channels: owner events of an applied tick', () => {
  it('accepted, maker and taker fills with running remaining, self-trade, cancel and refusals', () => {
    const m = new TickMaker();
    const created = m.apply([marketTx()]);
    expect(ownerEventsOf(created)).to.deep.equal([]);
    const marketId = m.engine.state.marketList()[0]!.info.marketId;
    m.apply([orderTx(alice, 1, 'Sell', 100, 5), orderTx(bob, 1, 'Sell', 100, 5), orderTx(carol, 1, 'Sell', 101, 5)]);
    // One tick: carol buys 3 (alice partially filled), then 4 more (alice filled, bob partial),
    // and her own sell at 101 is cancelled by self-trade prevention when she buys at 101.
    const t = m.apply([orderTx(carol, 2, 'Buy', 100, 3), orderTx(carol, 3, 'Buy', 101, 4)]);
    const ev = events(t);
    expect(
      ev.map((e) => [
        e.owner === toBase58Key(alice) ? 'alice' : e.owner === toBase58Key(bob) ? 'bob' : 'carol',
        e.event,
        e.order_id,
        e.remaining,
      ]),
    ).to.deep.equal([
      ['carol', 'accepted', 2n, 3n],
      ['alice', 'partially_filled', 1n, 2n],
      ['carol', 'filled', 2n, 0n],
      ['carol', 'accepted', 3n, 4n],
      ['alice', 'filled', 1n, 0n],
      ['bob', 'partially_filled', 1n, 3n],
      ['carol', 'filled', 3n, 0n],
    ]);
    expect(ev[1]!.fills).to.deep.equal([{ trade_id: 1n, price: 100n, quantity: 3n, role: 'maker' }]);
    expect(ev[6]!.fills!.map((f) => [f.trade_id, f.quantity, f.role])).to.deep.equal([
      [2n, 2n, 'taker'],
      [3n, 2n, 'taker'],
    ]);
    expect(ev.every((e) => e.tick === t.tick.tickNumber && e.market_id === marketId)).to.equal(true);
    expect(ev[3]!.continuum_sequence).to.equal((BigInt(t.tick.tickNumber) << 32n) | 1n);

    const st = m.apply([orderTx(carol, 4, 'Buy', 101, 10)]);
    const sev = events(st);
    expect(sev.map((e) => [e.event, e.order_id, e.reason, e.cancelled_quantity])).to.deep.equal([
      ['accepted', 4n, undefined, undefined],
      ['filled', 1n, undefined, undefined], // bob's rest (3) at 100
      ['cancelled', 1n, 'self_trade', 5n], // carol's own sell at 101
      ['partially_filled', 4n, undefined, undefined],
    ]);

    const c = events(
      m.apply(
        [cancelTx(carol, 4, marketId), cancelTx(carol, 4, marketId), cancelTx(alice, 9, marketId)],
        [true, true, false],
      ),
    );
    expect(c.map((e) => [e.event, e.order_id, e.cancelled_quantity ?? e.code])).to.deep.equal([
      ['cancelled', 4n, 7n],
      ['refused', 4n, 'ORDER_NOT_OPEN'],
      // alice's cancel has a bad signature: nothing in her channel
    ]);
    const r = events(
      m.apply(
        [orderTx(bob, 1, 'Buy', 1, 1), orderTx(bob, 2, 'Buy', 0, 1), orderTx(alice, 5, 'Buy', 1, 1)],
        [true, true, false],
      ),
    );
    expect(r.map((e) => [e.event, e.code])).to.deep.equal([
      ['refused', 'ORDER_REPLAYED'],
      ['refused', 'INVALID_ORDER'],
    ]);
  });

  it('expired: a resting order met by matching after its expiry', () => {
    const m = new TickMaker();
    m.apply([marketTx()]);
    const expiry = BigInt(Math.floor(m.nowMs / 1000) + 2);
    m.apply([orderTx(alice, 1, 'Sell', 100, 5, expiry)]);
    m.nowMs += 5_000;
    const ev = events(m.apply([orderTx(bob, 1, 'Buy', 100, 1)]));
    expect(ev.map((e) => [e.event, e.order_id, e.cancelled_quantity])).to.deep.equal([
      ['accepted', 1n, undefined],
      ['expired', 1n, 5n],
    ]);
  });
});

describe('channels: book deltas of applied ticks', () => {
  it('a mirror fed only the deltas equals the engine books after each of 400 random ticks', () => {
    const m = new TickMaker();
    m.apply([marketTx()]);
    const market = m.engine.state.marketList()[0]!;
    const book = new BookSource();
    book.seed([{ marketId: market.info.marketId, book: market.book }], m.tickNumber);
    const owners = [1, 2, 3, 4, 5].map((n) => seeded(n).publicKey);
    const nextId = new Map<Uint8Array, bigint>();
    let seed = 99;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    let deltas = 0;
    let lastSeq = 0;
    expect(book.checksum(market.info.marketId)).to.equal(EMPTY_BOOK_CHECKSUM);
    for (let i = 0; i < 400; i++) {
      const txs = [];
      for (let k = 0, n = 1 + rnd(12); k < n; k++) {
        const owner = owners[rnd(owners.length)]!;
        if (rnd(5) === 0) {
          txs.push(cancelTx(owner, 1n + BigInt(rnd(Number(nextId.get(owner) ?? 1n))), market.info.marketId));
        } else {
          const id = (nextId.get(owner) ?? 1n) + 0n;
          nextId.set(owner, id + 1n);
          const expiry = rnd(10) === 0 ? BigInt(Math.floor(m.nowMs / 1000) + 1) : 0n;
          txs.push(orderTx(owner, id, rnd(2) === 0 ? 'Buy' : 'Sell', 95 + rnd(11), 1 + rnd(9), expiry));
        }
      }
      if (rnd(20) === 0) m.nowMs += 3_000;
      const applied = m.apply(txs);
      const out = book.derive(applied);
      for (const d of out) {
        const text = d.item.frame.subarray(d.item.frame[1]! === 126 ? 4 : d.item.frame[1]! === 127 ? 10 : 2).toString();
        const msg = JSON.parse(text) as { seq: number; tick: number; checksum: string };
        expect(msg.seq).to.equal(lastSeq + 1);
        expect(msg.tick).to.equal(applied.tick.tickNumber);
        lastSeq = msg.seq;
        deltas++;
      }
      const engineRows = levelsOfBook(market.book);
      expect(book.rows(market.info.marketId), `tick ${applied.tick.tickNumber}`).to.deep.equal(engineRows);
      const whole = bookChecksumOf(market.info.marketId, engineRows.bids, engineRows.asks);
      expect(book.checksum(market.info.marketId), `checksum after tick ${applied.tick.tickNumber}`).to.equal(whole);
      for (const d of out) expect(d.item.book!.checksum).to.equal(whole);
      // Ticks with nothing accepted for the market produce no delta.
      if ([...levelChangesOf(applied).values()].every((c) => c.size === 0)) expect(out).to.have.length(0);
    }
    expect(deltas).to.be.greaterThan(300);
  });
});
