/**
 * Replaying the remaining quantity of the orders a tick touched, transaction by
 * transaction. An AppliedTick holds live engine orders whose `remaining` is the value after
 * the WHOLE tick; an owner event or a level change must know it after each trade. Trades are
 * the only thing that lowers `remaining` (a cancel or a removal takes the order out as it
 * is), so an order's remaining before the tick's first trade on it is its final remaining
 * plus the quantities it traded as a maker in this tick; a taker starts at its quantity minus
 * what it filled on arrival.
 */
import type { AppliedTick } from '../dex/engine/index.js';
import type { BookOrder } from '../dex/engine/index.js';

export class RunningRemaining {
  private readonly now = new Map<BookOrder, bigint>();
  /** Orders' last maker trade in the tick (the trade that may empty them). */
  private readonly lastMakerTrade = new Map<BookOrder, bigint>();

  constructor(applied: AppliedTick) {
    const traded = new Map<BookOrder, bigint>();
    for (const t of applied.txs) {
      const o = t.outcome;
      if (!o.ok || o.kind !== 'order') continue;
      for (const tr of o.result.trades) {
        traded.set(tr.maker, (traded.get(tr.maker) ?? 0n) + tr.quantity);
        this.lastMakerTrade.set(tr.maker, tr.tradeId);
      }
    }
    for (const [maker, q] of traded) this.now.set(maker, maker.remaining + q);
  }

  /** A taker placed: its remaining right after its own matching. */
  placed(taker: BookOrder, filled: bigint): bigint {
    const r = taker.quantity - filled;
    // A taker that rests can be a maker later in this tick: its start value is this one.
    this.now.set(taker, r);
    return r;
  }

  /** A maker traded `q`; returns its remaining after the trade. */
  traded(maker: BookOrder, q: bigint): bigint {
    const r = (this.now.get(maker) ?? maker.remaining + q) - q;
    this.now.set(maker, r);
    return r;
  }

  /** The current remaining of an order (a removed or cancelled one: what left the book). */
  remaining(o: BookOrder): bigint {
    return this.now.get(o) ?? o.remaining;
  }
}
