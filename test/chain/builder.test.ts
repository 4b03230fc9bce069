/**
 * The block builder (src/chain/core/builder.ts): the cutting rule on tick timestamps, no empty
 * blocks, heights from 1, ids, counts, events per (batch, market), produced_at, the
 * state root of the block's last batch and the anchor (its last tick's output hash); a builder restored from its exported state goes
 * on identically; and the id format's bad inputs.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { BlockBuilder, type BuildStep } from '../../src/chain/core/builder.js';
import { formatId, parseId } from '../../src/chain/core/ids.js';
import { OrderBookEngine } from '../../src/dex/engine/index.js';
import type { Tick } from '../../src/core/types.js';
import { applyAll, checkSignature, keyOf, makeTicks, marketTx, orderTx, cancelTx, tickOf } from './support/flow.js';

const T0 = 1_700_000_000_000_000; // µs, a multiple of 200 ms

function build(
  ticks: Tick[],
  blockMs = 200,
  builder = new BlockBuilder(blockMs),
  engine = new OrderBookEngine(),
): { steps: BuildStep[]; builder: BlockBuilder; engine: OrderBookEngine } {
  const steps: BuildStep[] = [];
  applyAll(engine, ticks, checkSignature, {
    rootBefore: (t) => builder.closes(t),
    visit: (r) => steps.push(builder.apply(r)),
  });
  return { steps, builder, engine };
}

describe('chain: block builder', () => {
  const alice = keyOf(1);
  const bob = keyOf(2);

  it('cuts a block at the first tick of a later interval; heights from 1; no empty blocks', () => {
    const ticks = [
      tickOf(1, T0 + 10_000, [marketTx(1, 2, 'A/B')]), // window 0: opens block 1
      tickOf(2, T0 + 50_000, []), // empty tick, same window
      tickOf(3, T0 + 150_000, [orderTx(alice, 1, 'Sell', 10, 5, 1, 2)]), // window 0: batch 1 of block 1
      tickOf(4, T0 + 210_000, []), // window 1, empty: cuts block 1, opens nothing
      tickOf(5, T0 + 900_000, []), // window 4, still nothing open
      tickOf(6, T0 + 1_000_000, [orderTx(bob, 1, 'Buy', 10, 2, 1, 2), orderTx(bob, 2, 'Buy', 9, 1, 1, 2)]), // window 5: block 2
      tickOf(7, T0 + 1_000_500, [cancelTx(alice, 1, 1, 2)]), // same window
      tickOf(8, T0 + 1_250_000, []), // cuts block 2
    ];
    ticks.forEach((t, i) => (t.vdfProof.output = new Uint8Array(256).fill(i + 1))); // a distinct output per tick
    const { steps } = build(ticks);
    const cuts = steps.filter((s) => s.cut).map((s) => [s.tickNumber, s.cut!.height]);
    expect(cuts).to.deep.equal([
      [4, 1],
      [8, 2],
    ]);
    const b1 = steps[3]!.cut!;
    expect(
      b1.batch_summaries.map((b) => [b.index, b.tick_number, b.order_count, b.cancel_count, b.market_count]),
    ).to.deep.equal([
      [0, 1, 0, 0, 1],
      [1, 3, 1, 0, 0],
    ]);
    // The market creation (entry 0 of batch 0) is not a transaction; the order keeps id 1-1-0.
    expect(b1.transaction_ids).to.deep.equal([formatId(1, 1, 0)]);
    expect(b1.batch_summaries[0]!.continuum_sequences).to.have.length(1); // the market creation's
    expect(b1.total_orders).to.equal(1);
    expect(b1.total_markets).to.equal(1);
    expect(b1.applied_batches).to.equal(2);
    expect(b1.produced_at).to.equal(Math.floor((T0 + 150_000) / 1e6));
    expect([b1.first_tick, b1.last_tick]).to.deep.equal([1, 3]);
    // The anchor is tick last_tick's output (tick 3), not the output of the empty tick 2 or of the cutting tick 4.
    expect(b1.last_tick_output_hash).to.equal(createHash('sha256').update(ticks[2]!.vdfProof.output).digest('hex'));
    expect(b1.last_tick_output_hash).to.not.equal(createHash('sha256').update(ticks[3]!.vdfProof.output).digest('hex'));
    const b2 = steps[7]!.cut!;
    expect(b2.last_tick_output_hash).to.equal(createHash('sha256').update(ticks[6]!.vdfProof.output).digest('hex'));
    expect(b2.height).to.equal(2);
    expect(b2.applied_batches).to.equal(4);
    expect(b2.total_orders).to.equal(2);
    expect(b2.total_cancels).to.equal(1);
    expect(b2.applied_orders).to.equal(1); // bob's first buy matched; his second did not
    expect(b2.trade_count).to.equal(1);
    expect(b2.batch_summaries[0]!.continuum_sequences).to.deep.equal([(6n << 32n) | 0n, (6n << 32n) | 1n]);
    expect(b2.event_ids).to.deep.equal([formatId(2, 0, 0), formatId(2, 1, 0)]);
    // Transaction ids are known when the tick is applied, before the block is cut.
    expect(steps[5]!.batch!.transactions.map((t) => t.id)).to.deep.equal([formatId(2, 0, 0), formatId(2, 0, 1)]);
    const cancel = steps[6]!.batch!.transactions[0]!;
    expect(cancel).to.include({ kind: 'cancel', cancelled_quantity: 3n, block_height: 2, batch_index: 1 });
  });

  it('keeps only the transactions that changed the state; one event per (batch, market) in order of first touch', () => {
    const ticks = [
      tickOf(1, T0, [marketTx(1, 2, 'A/B'), marketTx(3, 4, 'C/D', 'Perp'), marketTx(2, 1, 'B/A duplicate')]),
      tickOf(2, T0 + 1000, [
        orderTx(alice, 1, 'Sell', 10, 5, 3, 4),
        orderTx(alice, 2, 'Sell', 10, 5, 1, 2, { badSignature: true }),
        orderTx(alice, 1, 'Sell', 11, 5, 1, 2), // replayed id: refused
        orderTx(bob, 1, 'Buy', 10, 1, 3, 4),
        orderTx(bob, 2, 'Buy', 10, 1, 1, 2),
      ]),
      tickOf(3, T0 + 300_000, []),
    ];
    const { steps } = build(ticks);
    const first = steps[0]!.batch!;
    // Market creations are not ExplorerTransactions: they are the batch's `markets`,
    // numbered with the batch's entries.
    expect(first.transactions).to.deep.equal([]);
    expect(first.markets.map((m) => [m.id, m.market_name, m.market_kind])).to.deep.equal([
      [formatId(1, 0, 0), 'A/B', 'Spot'],
      [formatId(1, 0, 1), 'C/D', 'Perp'],
    ]);
    const second = steps[1]!.batch!;
    expect(second.transactions.map((t) => [t.order_id, t.market_name])).to.deep.equal([
      [1n, 'C/D'],
      [1n, 'C/D'],
      [2n, 'A/B'],
    ]);
    expect(second.transactions.map((t) => t.id)).to.deep.equal([
      formatId(1, 1, 0),
      formatId(1, 1, 1),
      formatId(1, 1, 2),
    ]);
    expect(
      second.events.map((e) => [e.id, e.market_name, e.order_count, e.applied_orders, e.trade_count]),
    ).to.deep.equal([
      [formatId(1, 1, 0), 'C/D', 2, 1, 1],
      [formatId(1, 1, 1), 'A/B', 1, 0, 0],
    ]);
    expect(second.eventOrdinals).to.deep.equal([3, 4]);
    expect(second.marketOrdinals).to.deep.equal([2, 2]);
    const block = steps[2]!.cut!;
    expect(block.total_orders).to.equal(3);
    expect(block.state_root).to.have.length(32);
  });

  it('the block state root is the root after its last batch, not after the cutting tick', () => {
    const ticks = [
      tickOf(1, T0, [marketTx(1, 2, 'A/B')]),
      tickOf(2, T0 + 250_000, [orderTx(alice, 1, 'Sell', 10, 5, 1, 2)]),
      tickOf(3, T0 + 500_000, []),
    ];
    const engine = new OrderBookEngine();
    const builder = new BlockBuilder(200);
    const roots: number[][] = [];
    const steps: BuildStep[] = [];
    applyAll(engine, ticks, checkSignature, {
      rootBefore: (t) => builder.closes(t),
      visit: (r) => (roots.push(Array.from(r.stateRoot())), steps.push(builder.apply(r))),
    });
    expect(steps[1]!.cut!.state_root).to.deep.equal(roots[0]);
    expect(steps[2]!.cut!.state_root).to.deep.equal(roots[1]);
    expect(steps[1]!.cut!.state_root).to.not.deep.equal(steps[2]!.cut!.state_root);
  });

  it('a builder restored from its exported state builds exactly the same blocks', () => {
    const ticks = makeTicks(900, 3);
    const whole = build(ticks, 50);
    for (const cut of [5, 333, 899]) {
      const a = build(ticks.slice(0, cut), 50);
      const restored = new BlockBuilder(50, JSON.parse(JSON.stringify(a.builder.exportState())));
      const rest = build(ticks.slice(cut), 50, restored, a.engine);
      expect(rest.steps).to.deep.equal(whole.steps.slice(cut));
    }
    const produced = whole.steps.filter((s) => s.cut).length;
    expect(produced).to.be.greaterThan(10);
  });

  it('refuses a closing tick without the root before it', () => {
    const engine = new OrderBookEngine();
    const builder = new BlockBuilder(200);
    const [r1, r2] = applyAll(
      engine,
      [tickOf(1, T0, [marketTx(1, 2, 'A/B')]), tickOf(2, T0 + 300_000, [])],
      checkSignature,
    );
    builder.apply(r1!);
    expect(() => builder.apply(r2!)).to.throw(/without the state root/);
  });

  it('refuses a tick built twice and a bad interval', () => {
    const { builder, engine } = build([tickOf(1, T0, [])]);
    const again = applyAll(new OrderBookEngine(), [tickOf(1, T0, [])], checkSignature)[0]!;
    expect(() => builder.apply(again)).to.throw(/already built/);
    void engine;
    expect(() => new BlockBuilder(0)).to.throw(RangeError);
    expect(() => new BlockBuilder(1.5)).to.throw(RangeError);
  });

  it('ids: canonical text only; bad shapes, non-hex groups, height 0 and huge heights are refused with a message', () => {
    expect(formatId(1, 0, 0)).to.equal('0000000000000001-0000-0000');
    expect(formatId(0x1a, 0x10000, 3)).to.equal('000000000000001a-10000-0003');
    expect(parseId('0000000000000001-0000-0002')).to.deep.equal({ height: 1, batch: 0, index: 2 });
    expect(parseId('000000000000001A-000B-000C')).to.deep.equal({ height: 26, batch: 11, index: 12 });
    expect(parseId('000000000000001a-10000-0003')).to.deep.equal({ height: 26, batch: 0x10000, index: 3 });
    for (const bad of [
      '',
      '1-0-0',
      '0000000000000001-000-0000',
      '0000000000000001-0000-00000', // 5 digits for a value below 0x10000: not canonical
      '0000000000000001-0000-000g',
      '000000000000000x-0000-0000',
      '0000000000000001_0000_0000',
      '00000000000000001-0000-0000',
      '0000000000000000-0000-0000', // height 0
      'ffffffffffffffff-0000-0000', // above 2^53
      '0000000000000001-0000-0000-0000',
      ' 0000000000000001-0000-0000',
      'a'.repeat(10_000),
    ]) {
      expect(parseId(bad), JSON.stringify(bad.slice(0, 40))).to.be.a('string');
    }
  });
});
