/**
 * The order book engine (src/dex/engine/engine.ts): same ticks in, same applied-tick records
 * out; a state restored from a snapshot goes on exactly like the original; the
 * incremental state root equals an independent recomputation from client-visible views
 * (src/sdk/chain-root.ts) at every tick.
 */
import { expect } from 'chai';
import { OrderBookEngine, decodeSnapshot, encodeSnapshot, type DexState } from '../../src/dex/engine/index.js';
import { bookView } from '../../src/dex/views.js';
import { chainStateRootOf, toBase58, type MarketStateInput, type UsedIdInput } from '../../src/sdk/index.js';
import { applyAll, checkSignature as check, makeTicks, summarizeAll } from '../chain/support/flow.js';

/** The client-side inputs of the state root, from the engine's JSON views and the accepted orders. */
function clientInputs(state: DexState, usedIds: UsedIdInput[]): { markets: MarketStateInput[]; used: UsedIdInput[] } {
  const markets = state.marketList().map((m) => {
    const view = bookView(m, 1, 0, true);
    const trades = m.trades;
    return {
      market_id: m.info.marketId,
      base_mint: toBase58(m.info.baseMint),
      quote_mint: toBase58(m.info.quoteMint),
      name: m.info.name,
      kind: m.info.kind,
      created_seq: m.info.createdSeq,
      next_trade_id: trades.length > 0 ? trades[trades.length - 1]!.tradeId + 1n : 1n,
      tree_size: view.tree_size,
      orders: view.orders!,
    };
  });
  return { markets, used: usedIds };
}

describe('order book engine: applied-tick records', function () {
  this.timeout(60_000);
  const ticks = makeTicks(1500);

  it('same ticks in, same records out (two engines, byte-equal snapshots at the end)', () => {
    const a = new OrderBookEngine();
    const b = new OrderBookEngine();
    const ra = summarizeAll(a, ticks, check);
    const rb = summarizeAll(b, ticks, check);
    expect(ra).to.deep.equal(rb);
    expect(Buffer.from(encodeSnapshot(a.state)).equals(Buffer.from(encodeSnapshot(b.state)))).to.equal(true);
    // The flow exercises every outcome: trades, cancels, refusals of each kind.
    const codes = new Set(ra.flatMap((r) => (r as { txs: Array<{ code: string }> }).txs.map((t) => t.code)));
    for (const c of [
      'market',
      'order',
      'cancel',
      'DUPLICATE_MARKET',
      'ORDER_REPLAYED',
      'BAD_SIGNATURE',
      'ORDER_EXPIRED',
    ])
      expect(codes, c).to.include(c);
    const trades = ra.flatMap((r) => (r as { txs: Array<{ trades: string[] }> }).txs.flatMap((t) => t.trades));
    expect(trades.length).to.be.greaterThan(100);
  });

  it('a state restored from its snapshot applies the rest exactly like the original', () => {
    const whole = new OrderBookEngine();
    const expected = summarizeAll(whole, ticks, check);
    for (const cut of [1, 2, 700, 1499]) {
      const first = new OrderBookEngine();
      applyAll(first, ticks.slice(0, cut), check);
      const restored = new OrderBookEngine(decodeSnapshot(encodeSnapshot(first.state)));
      expect(Buffer.from(restored.stateRoot()).toString('hex'), `root right after restoring at ${cut}`).to.equal(
        Buffer.from(first.stateRoot()).toString('hex'),
      );
      const rest = summarizeAll(restored, ticks.slice(cut), check);
      expect(rest, `continuing after tick ${cut}`).to.deep.equal(expected.slice(cut));
      expect(Buffer.from(encodeSnapshot(restored.state)).equals(Buffer.from(encodeSnapshot(whole.state)))).to.equal(
        true,
      );
    }
  });

  it('the incremental state root equals a from-scratch recomputation by a client (SDK)', () => {
    const engine = new OrderBookEngine();
    const used: UsedIdInput[] = [];
    let checked = 0;
    for (const [i, t] of ticks.entries()) {
      const [r] = applyAll(engine, [t], check);
      const root = Buffer.from(r!.stateRoot()).toString('hex');
      for (const a of r!.txs) {
        if (a.outcome.ok && a.outcome.kind === 'order')
          used.push({ owner: toBase58(a.outcome.order.owner), order_id: a.outcome.order.orderId });
      }
      if (i % 97 === 0 || i === ticks.length - 1) {
        const inputs = clientInputs(engine.state, used);
        const roots = chainStateRootOf(inputs.markets, inputs.used);
        expect(roots.state_root, `tick ${t.tickNumber}`).to.equal(root);
        expect(roots.used_ids_root).to.equal(Buffer.from(engine.state.usedIdsRoot()).toString('hex'));
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(10);
    expect(used.length).to.equal(engine.state.usedIdCount);
  });

  it('refuses a tick applied twice or out of order; ticks without order book transactions keep the root', () => {
    const engine = new OrderBookEngine();
    const [r1] = applyAll(engine, ticks.slice(0, 1), check);
    const root1 = Buffer.from(r1!.stateRoot());
    expect(() => applyAll(engine, ticks.slice(0, 1), check)).to.throw(/already applied/);
    const empty = { ...ticks[1]!, tickNumber: 2, transactions: [] };
    const [r2] = applyAll(engine, [empty], check, { rootBefore: () => true });
    expect(r2!.txs).to.have.length(0);
    expect(Buffer.from(r2!.stateRoot()).equals(root1)).to.equal(true);
    expect(Buffer.from(r2!.rootBefore!).equals(root1)).to.equal(true);
    expect(() => r1!.stateRoot()).to.throw(/a later tick was applied/);
  });

  it('a snapshot that is truncated, has trailing bytes or another version is refused', () => {
    const engine = new OrderBookEngine();
    applyAll(engine, ticks.slice(0, 200), check);
    const bytes = encodeSnapshot(engine.state);
    expect(() => decodeSnapshot(bytes.subarray(0, bytes.length - 3))).to.throw();
    expect(() => decodeSnapshot(new Uint8Array([...bytes, 0]))).to.throw(/trailing/);
    const other = bytes.slice();
    other[6] = 9;
    expect(() => decodeSnapshot(other)).to.throw(/version/);
    expect(() => decodeSnapshot(new TextEncoder().encode('not a snapshot at all'))).to.throw(
      /not an order book snapshot/,
    );
  });
});
