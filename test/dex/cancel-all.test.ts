/**
 * Mass cancel on the real engine (docs/dex-api.md "POST /orders/cancel-all"): what it ends
 * (the owner's open orders in the market, one side or both, judged at its place in the
 * sequence: earlier orders of the same tick included, later ones not), its replay rule
 * (request_id once per owner, ever, also across a snapshot), refusals that change nothing,
 * and what the consumers derive from it: owner events, book deltas, the explorer record,
 * the order endings the proofs read.
 */
import { expect } from 'chai';
import { levelChangesOf, levelsOfBook, ownerEventsOf, BookSource } from '../../src/channels/index.js';
import { batchEntry } from '../../src/chain/core/index.js';
import {
  decodePayload,
  decodeSnapshot,
  encodeCancelAll,
  encodeSnapshot,
  OrderBookEngine,
} from '../../src/dex/engine/index.js';
import { encodeCancelAllData } from '../../src/sdk/index.js';
import { TickMaker } from '../channels/support/ticks.js';
import { cancelAllTx, marketTx, mint, orderTx, seeded } from './support/orders.js';

const alice = seeded(1).publicKey;
const bob = seeded(2).publicKey;

function setup(): { m: TickMaker; marketId: string; otherId: string } {
  const m = new TickMaker();
  m.apply([marketTx(), marketTx(mint(3), mint(4), 'OTHER')]);
  const [a, b] = m.engine.state.marketList();
  return { m, marketId: a!.info.marketId, otherId: b!.info.marketId };
}

describe('dex engine: mass cancel', () => {
  it("ends exactly the owner's open orders of that market, in sequence order, earlier ones of the same tick included", () => {
    const { m, marketId, otherId } = setup();
    m.apply([orderTx(alice, 1, 'Sell', 105, 5), orderTx(alice, 2, 'Buy', 95, 3), orderTx(bob, 1, 'Sell', 106, 4)]);
    m.apply([orderTx(alice, 3, 'Sell', 7, 2, 0n, mint(3), mint(4)), orderTx(alice, 4, 'Buy', 96, 1)]);
    const t = m.apply([
      orderTx(alice, 5, 'Sell', 107, 9),
      cancelAllTx(alice, 1, marketId),
      orderTx(alice, 6, 'Buy', 94, 2),
    ]);
    const out = t.txs[1]!.outcome;
    if (!out.ok || out.kind !== 'cancel_all') throw new Error(JSON.stringify(out));
    expect(out.ended.map((e) => [e.order.orderId, e.cancelled])).to.deep.equal([
      [1n, 5n],
      [2n, 3n],
      [4n, 1n],
      [5n, 9n],
    ]);
    const open = m.engine.state.openOrdersOf(alice).map((o) => [o.marketId === otherId ? 'other' : 'this', o.orderId]);
    expect(open).to.deep.equal([
      ['other', 3n],
      ['this', 6n],
    ]);
    expect(m.engine.state.openOrdersOf(bob).map((o) => o.orderId)).to.deep.equal([1n]);
    expect(m.engine.state.findOrder(alice, 1n)).to.deep.include({ open: false, cancelled: true });
    expect(t.markets.find((a) => a.market.info.marketId === marketId)!.cancels).to.equal(1);
  });

  it('one side only; none open is an empty list; the request id is then spent', () => {
    const { m, marketId } = setup();
    m.apply([orderTx(alice, 1, 'Sell', 105, 5), orderTx(alice, 2, 'Buy', 95, 3)]);
    const t = m.apply([cancelAllTx(alice, 7, marketId, 'Sell'), cancelAllTx(bob, 7, marketId)]);
    const [a, b] = t.txs.map((x) => x.outcome);
    expect(a!.ok && a!.kind === 'cancel_all' && a!.ended.map((e) => e.order.orderId)).to.deep.equal([1n]);
    expect(b!.ok && b!.kind === 'cancel_all' && b!.ended).to.deep.equal([]);
    expect(m.engine.state.openOrdersOf(alice).map((o) => o.orderId)).to.deep.equal([2n]);
    expect(m.engine.state.cancelAllUsed(bob, 7n)).to.equal(true);
  });

  it('refuses a replayed request id (for ever, also after a snapshot), an unknown market and a bad signature, changing nothing', () => {
    const { m, marketId } = setup();
    m.apply([orderTx(alice, 1, 'Sell', 105, 5)]);
    m.apply([cancelAllTx(alice, 9, marketId)]);
    m.apply([orderTx(alice, 2, 'Sell', 105, 5)]);
    const rootBefore = m.engine.stateRoot();
    const bad = m.apply(
      [
        cancelAllTx(alice, 9, marketId),
        cancelAllTx(alice, 10, '00000000-0000-8000-8000-000000000000'),
        cancelAllTx(alice, 11, marketId),
      ],
      [true, true, false],
    );
    expect(bad.txs.map((x) => (x.outcome.ok ? 'ok' : x.outcome.code))).to.deep.equal([
      'CANCEL_ALL_REPLAYED',
      'UNKNOWN_MARKET',
      'BAD_SIGNATURE',
    ]);
    expect(m.engine.stateRoot()).to.deep.equal(rootBefore);
    expect(m.engine.state.cancelAllUsed(alice, 10n)).to.equal(false);
    expect(m.engine.state.cancelAllUsed(alice, 11n)).to.equal(false);
    expect(m.engine.state.openOrdersOf(alice).map((o) => o.orderId)).to.deep.equal([2n]);
    // Refused with a verified signature: a `refused` event in the owner's channel (bad signature: none).
    expect(ownerEventsOf(bad).map((e) => [e.body.event, e.body.kind, e.body.order_id, e.body.code])).to.deep.equal([
      ['refused', 'cancel_all', 9n, 'CANCEL_ALL_REPLAYED'],
      ['refused', 'cancel_all', 10n, 'UNKNOWN_MARKET'],
    ]);
    // The snapshot keeps the spent ids: the restored state refuses the replay too, with the same root.
    const restored = new OrderBookEngine(decodeSnapshot(encodeSnapshot(m.engine.state)));
    expect(restored.stateRoot()).to.deep.equal(m.engine.stateRoot());
    expect(restored.state.cancelAllUsed(alice, 9n)).to.equal(true);
    expect(encodeSnapshot(restored.state)).to.deep.equal(encodeSnapshot(m.engine.state));
  });

  it('a snapshot taken between ticks replays the mass cancels of later ticks identically', () => {
    const { m, marketId } = setup();
    m.apply([orderTx(alice, 1, 'Sell', 105, 5), orderTx(bob, 1, 'Buy', 90, 5)]);
    const copy = new TickMaker();
    Object.assign(copy, { tickNumber: m.tickNumber, nowMs: m.nowMs });
    (copy as { engine: OrderBookEngine }).engine = new OrderBookEngine(decodeSnapshot(encodeSnapshot(m.engine.state)));
    for (const mk of [m, copy]) {
      mk.apply([
        orderTx(alice, 2, 'Buy', 91, 1),
        cancelAllTx(alice, 1, marketId, 'Buy'),
        cancelAllTx(bob, 1, marketId),
      ]);
      mk.apply([cancelAllTx(alice, 2, marketId)]);
    }
    expect(copy.engine.stateRoot()).to.deep.equal(m.engine.stateRoot());
    expect(encodeSnapshot(copy.engine.state)).to.deep.equal(encodeSnapshot(m.engine.state));
    expect(m.engine.state.openOrdersOf(alice)).to.deep.equal([]);
  });

  it('wire: payload kind 4 round-trips; a bad side byte or trailing bytes are malformed', () => {
    const data = {
      requestId: 5n,
      owner: alice,
      marketId: '0d2a5c3e-1111-8222-9333-444455556666',
      side: 'Buy' as const,
    };
    const payload = encodeCancelAll(encodeCancelAllData(data), new Uint8Array(64).fill(7));
    expect(payload[3]).to.equal(4);
    const d = decodePayload(payload);
    expect(d).to.deep.include({ kind: 'cancel_all', requestId: 5n, marketId: data.marketId, side: 'Buy' });
    const badSide = payload.slice();
    badSide[4 + 8 + 32 + 4 + 36] = 3;
    expect(decodePayload(badSide)).to.deep.include({ kind: 'malformed', reason: 'side' });
    expect(decodePayload(new Uint8Array([...payload, 0]))).to.deep.include({
      kind: 'malformed',
      reason: 'trailing bytes',
    });
  });
});

describe('dex engine: what consumers derive from a mass cancel', () => {
  it('owner events (one cancelled per order, reason cancel_all), book deltas that keep a mirror exact, the explorer record', () => {
    const { m, marketId } = setup();
    const market = m.engine.state.marketList()[0]!;
    const mirror = new BookSource();
    mirror.seed([{ marketId, book: market.book }], m.tickNumber);
    mirror.derive(
      m.apply([
        orderTx(alice, 1, 'Sell', 105, 5),
        orderTx(alice, 2, 'Sell', 105, 2),
        orderTx(bob, 1, 'Sell', 105, 1),
        orderTx(alice, 3, 'Buy', 95, 3),
      ]),
    );
    const t = m.apply([orderTx(bob, 2, 'Buy', 105, 4), cancelAllTx(alice, 1, marketId, 'Sell')]);
    mirror.derive(t);
    expect(mirror.rows(marketId)).to.deep.equal(levelsOfBook(market.book));
    const changes = [...levelChangesOf(t).get(marketId)!.values()].map((c) => [c.side, c.price, c.quantity, c.orders]);
    // bob's buy took 4 of alice's order 1 (left 1); the mass cancel took 1 + 2 and both orders out.
    expect(changes).to.deep.equal([[1, 105n, -7n, -2]]);
    const ev = ownerEventsOf(t).filter((e) => e.body.reason === 'cancel_all');
    expect(
      ev.map((e) => [e.body.order_id, e.body.cancelled_quantity, e.body.request_id, e.body.continuum_sequence]),
    ).to.deep.equal([
      [1n, 1n, 1n, t.txs[1]!.continuumSequence],
      [2n, 2n, 1n, t.txs[1]!.continuumSequence],
    ]);
    const rec = batchEntry(t.txs[1]!, 'id', 1, 0, t.tick.tickNumber);
    expect(rec).to.deep.include({
      kind: 'cancel_all',
      order_id: 1n,
      side: 'Sell',
      cancelled_quantity: 3n,
      cancelled_order_ids: [1n, 2n],
    });
    expect(m.engine.state.openOrdersOf(alice).map((o) => o.orderId)).to.deep.equal([3n]);
  });
});
