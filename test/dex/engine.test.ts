import { expect } from 'chai';
import { merkleRoot } from '../../src/crypto/merkle.js';
import { DexState, type Outcome, encodeLeaf, type TickContext } from '../../src/dex/engine/index.js';
import { U64_MAX } from '../../src/core/borsh.js';
import { bytesToHex as toHex } from '../../src/crypto/hex.js';
import { cancelTx, marketTx, mint, orderTx, seeded } from './support/orders.js';

const alice = seeded(1).publicKey;
const bob = seeded(2).publicKey;
const carol = seeded(3).publicKey;

/** A state with one market, applying each transaction in its own slot of tick 1.. */
class Harness {
  state = new DexState();
  tick = 1;
  index = 0;
  nowMs = 1_700_000_000_000;
  marketId: string;
  constructor() {
    const o = this.apply(marketTx());
    if (!o.ok || o.kind !== 'market') throw new Error('market');
    this.marketId = o.market.info.marketId;
  }
  ctx(): TickContext {
    return { tickNumber: this.tick, index: this.index++, timestampMs: this.nowMs };
  }
  apply(tx: Parameters<DexState['apply']>[0], verified = true): Outcome {
    return this.state.apply(tx, verified, this.ctx());
  }
  order(...args: Parameters<typeof orderTx>) {
    const o = this.apply(orderTx(...args));
    if (!o.ok || o.kind !== 'order') throw new Error(`order refused: ${JSON.stringify(o)}`);
    return o;
  }
  get market() {
    return this.state.markets.get(this.marketId)!;
  }
}

describe('dex engine: matching', () => {
  it('fills the better price first, then the earlier order at the same price (price-time priority)', () => {
    const h = new Harness();
    h.order(alice, 1, 'Sell', 101, 5);
    h.order(bob, 1, 'Sell', 100, 5);
    h.order(carol, 1, 'Sell', 100, 5);
    const t = h.order(alice, 2, 'Buy', 101, 12);
    expect(t.result.trades.map((x) => [toHex(x.maker.owner).slice(0, 4), x.price, x.quantity])).to.deep.equal([
      [toHex(bob).slice(0, 4), 100n, 5n],
      [toHex(carol).slice(0, 4), 100n, 5n],
    ]);
    // The third level (alice's own sell at 101) is a self-trade: cancelled, not traded.
    expect(t.result.removals.map((r) => r.reason)).to.deep.equal(['self_trade']);
    expect(t.result.status).to.equal('partially_filled');
    expect(t.order.remaining).to.equal(2n);
    expect(h.market.book.depth(0, 10, h.nowMs)).to.deep.equal([{ price: 101n, quantity: 2n, orders: 1 }]);
    expect(h.market.book.depth(1, 10, h.nowMs)).to.deep.equal([]);
  });

  it('partially fills a resting maker and keeps it at the head of its level', () => {
    const h = new Harness();
    h.order(alice, 1, 'Buy', 50, 10);
    h.order(bob, 2, 'Buy', 50, 10);
    const t = h.order(carol, 3, 'Sell', 49, 4);
    expect(t.result.status).to.equal('filled');
    expect(t.result.trades).to.have.length(1);
    expect(t.result.trades[0]!.price).to.equal(50n); // the maker's price
    expect(toHex(t.result.trades[0]!.maker.owner)).to.equal(toHex(alice));
    const t2 = h.order(carol, 4, 'Sell', 50, 7);
    expect(t2.result.trades.map((x) => [toHex(x.maker.owner), x.quantity])).to.deep.equal([
      [toHex(alice), 6n],
      [toHex(bob), 1n],
    ]);
    expect(h.market.book.depth(0, 10, h.nowMs)).to.deep.equal([{ price: 50n, quantity: 9n, orders: 1 }]);
  });

  it('does not cross when prices do not meet, and numbers trades from 1 per market', () => {
    const h = new Harness();
    h.order(alice, 1, 'Buy', 99, 1);
    const s = h.order(bob, 1, 'Sell', 100, 1);
    expect(s.result.trades).to.have.length(0);
    expect(s.result.status).to.equal('resting');
    const t = h.order(carol, 1, 'Buy', 100, 1);
    expect(t.result.trades[0]!.tradeId).to.equal(1n);
  });

  it('accepts prices and quantities up to u64::MAX without overflow', () => {
    const h = new Harness();
    h.order(alice, 1, 'Sell', U64_MAX, U64_MAX);
    const t = h.order(bob, 1, 'Buy', U64_MAX, U64_MAX);
    expect(t.result.trades[0]!.quantity).to.equal(U64_MAX);
    expect(t.result.status).to.equal('filled');
  });

  it('refuses zero price or quantity at apply time', () => {
    const h = new Harness();
    expect(h.apply(orderTx(alice, 1, 'Buy', 0, 1))).to.include({ ok: false, code: 'INVALID_ORDER' });
    expect(h.apply(orderTx(alice, 2, 'Buy', 1, 0))).to.include({ ok: false, code: 'INVALID_ORDER' });
  });
});

describe('dex engine: cancels, expiry, replay, markets', () => {
  it('cancels an open order (only its owner key addresses it) and refuses a second cancel', () => {
    const h = new Harness();
    h.order(alice, 7, 'Sell', 10, 3);
    expect(h.apply(cancelTx(bob, 7, h.marketId))).to.include({ ok: false, code: 'UNKNOWN_ORDER' });
    const c = h.apply(cancelTx(alice, 7, h.marketId));
    expect(c.ok && c.kind === 'cancel' && c.cancelled).to.equal(3n);
    expect(h.market.book.depth(1, 10, h.nowMs)).to.deep.equal([]);
    expect(h.apply(cancelTx(alice, 7, h.marketId))).to.include({ ok: false, code: 'ORDER_NOT_OPEN' });
    expect(h.apply(cancelTx(alice, 8, h.marketId))).to.include({ ok: false, code: 'UNKNOWN_ORDER' });
    expect(h.apply(cancelTx(alice, 7, '00000000-0000-4000-8000-000000000000'))).to.include({
      ok: false,
      code: 'UNKNOWN_MARKET',
    });
  });

  it('ignores transactions whose signature did not verify', () => {
    const h = new Harness();
    expect(h.apply(orderTx(alice, 1, 'Buy', 5, 5), false)).to.include({ ok: false, code: 'BAD_SIGNATURE' });
    expect(h.market.book.depth(0, 10, h.nowMs)).to.deep.equal([]);
    // The id was not consumed by the forged order.
    expect(h.apply(orderTx(alice, 1, 'Buy', 5, 5)).ok).to.equal(true);
  });

  it('uses an order_id once per owner, across markets', () => {
    const h = new Harness();
    h.apply(marketTx(mint(3), mint(4), 'X/Y'));
    h.order(alice, 1, 'Buy', 5, 5);
    expect(h.apply(orderTx(alice, 1, 'Buy', 5, 5))).to.include({ ok: false, code: 'ORDER_REPLAYED' });
    expect(h.apply(orderTx(alice, 1, 'Buy', 5, 5, 0n, mint(3), mint(4)))).to.include({
      ok: false,
      code: 'ORDER_REPLAYED',
    });
    expect(h.apply(orderTx(bob, 1, 'Buy', 5, 5)).ok).to.equal(true);
  });

  it('judges expiry by the tick timestamp: refuses expired orders and drops expired makers', () => {
    const h = new Harness();
    const nowSec = BigInt(h.nowMs / 1000);
    expect(h.apply(orderTx(alice, 1, 'Buy', 5, 5, nowSec))).to.include({ ok: false, code: 'ORDER_EXPIRED' });
    h.order(alice, 2, 'Sell', 5, 5, nowSec + 10n);
    h.order(bob, 3, 'Sell', 6, 5);
    h.nowMs += 10_000; // alice's sell expires now
    const t = h.order(carol, 1, 'Buy', 6, 5);
    expect(t.result.removals.map((r) => r.reason)).to.deep.equal(['expired']);
    expect(t.result.trades.map((x) => x.price)).to.deep.equal([6n]);
  });

  it('refuses a duplicate market pair, in either orientation, and a market of one mint', () => {
    const h = new Harness();
    expect(h.apply(marketTx())).to.include({ ok: false, code: 'DUPLICATE_MARKET' });
    expect(h.apply(marketTx(mint(2), mint(1)))).to.include({ ok: false, code: 'DUPLICATE_MARKET' });
    expect(h.apply(marketTx(mint(9), mint(9)))).to.include({ ok: false, code: 'INVALID_MARKET' });
    expect(h.apply(orderTx(alice, 1, 'Buy', 1, 1, 0n, mint(2), mint(1)))).to.include({
      ok: false,
      code: 'UNKNOWN_MARKET',
    });
  });
});

describe('dex engine: state root', () => {
  function randomFlow(h: Harness, n: number, seed: number): string[] {
    let s = seed;
    const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const owners = [alice, bob, carol];
    const roots: string[] = [];
    for (let i = 0; i < n; i++) {
      const owner = owners[Math.floor(rnd() * 3)]!;
      if (rnd() < 0.15) h.apply(cancelTx(owner, Math.floor(rnd() * i), h.marketId));
      else
        h.apply(
          orderTx(
            owner,
            1000 + i,
            rnd() < 0.5 ? 'Buy' : 'Sell',
            95 + Math.floor(rnd() * 10),
            1 + Math.floor(rnd() * 20),
          ),
        );
      if (i % 7 === 0) h.tick++;
      roots.push(toHex(h.market.book.root()));
    }
    return roots;
  }

  it('is the RFC 6962 root of the slot leaves, after every order', () => {
    const h = new Harness();
    let s = 7;
    const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 300; i++) {
      const buy = rnd() < 0.5;
      // The first 100 orders do not cross (the book, and so the tree, grows); then they mix.
      const price = i < 100 ? (buy ? 90 : 100) + Math.floor(rnd() * 10) : 95 + Math.floor(rnd() * 10);
      h.apply(orderTx([alice, bob, carol][i % 3]!, i, buy ? 'Buy' : 'Sell', price, 1 + Math.floor(rnd() * 20)));
      const book = h.market.book;
      const leaves: Uint8Array[] = new Array(book.tree.size).fill(new Uint8Array(0));
      for (const o of book.restingOrders()) leaves[o.slot] = encodeLeaf(o).slice();
      expect(toHex(book.root())).to.equal(toHex(merkleRoot(leaves)), `after order ${i}`);
    }
    expect(h.market.book.tree.size).to.be.greaterThan(64); // the tree grew at least once
  });

  it('is the same on every replay of the same transactions and differs with the order', () => {
    const a = randomFlow(new Harness(), 400, 11);
    const b = randomFlow(new Harness(), 400, 11);
    const c = randomFlow(new Harness(), 400, 12);
    expect(a).to.deep.equal(b);
    expect(a[a.length - 1]).to.not.equal(c[c.length - 1]);
  });
});

describe('dex engine: closed orders', () => {
  it('keeps a filled, cancelled or self-trade-cancelled id used (and its market) after dropping the order', () => {
    const h = new Harness();
    h.order(alice, 1, 'Sell', 10, 2);
    h.order(bob, 1, 'Buy', 10, 2); // fills alice#1 and bob#1 completely
    h.order(alice, 2, 'Sell', 11, 1);
    h.order(alice, 3, 'Buy', 11, 1); // self-trade: alice#2 is cancelled, alice#3 rests
    for (const [who, id] of [
      [alice, 1],
      [bob, 1],
      [alice, 2],
    ] as const) {
      expect(h.state.findOrder(who, BigInt(id))).to.deep.equal({ marketId: h.marketId, open: false, cancelled: false });
      expect(h.apply(orderTx(who, id, 'Buy', 1, 1))).to.include({ ok: false, code: 'ORDER_REPLAYED' });
      expect(h.apply(cancelTx(who, id, h.marketId))).to.include({ ok: false, code: 'ORDER_NOT_OPEN' });
    }
    expect(h.state.findOrder(alice, 3n)).to.include({ open: true });
    expect(h.state.findOrder(alice, 4n)).to.equal(undefined);
    // A cancel closes it as cancelled (a second cancel is a replay: gRPC SubmitTx answers ALREADY_EXISTS).
    expect(h.apply(cancelTx(alice, 3, h.marketId))).to.include({ ok: true, kind: 'cancel' });
    expect(h.state.findOrder(alice, 3n)).to.deep.equal({ marketId: h.marketId, open: false, cancelled: true });
  });
});
