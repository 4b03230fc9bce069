/**
 * Price level changes of one applied tick, per market (docs/chain.md "Channels", book
 * channel): a pure function of the AppliedTick. Each accepted order lowers the levels it
 * traded against (quantity per trade, one order less when a trade empties a maker), takes
 * out the resting orders matching removed (expired, self-trade), and adds its rest to its
 * own level; each accepted cancel takes the cancelled quantity and one order out of its
 * level, and a mass cancel does so for every order it ended. The changes are net per
 * (side, price) over the tick, so a level touched several
 * times in a tick yields one change.
 *
 * The levels are the book's resting orders as the engine holds them (what the state root
 * commits to): an expired order stays on its level until matching meets it or it is
 * cancelled (docs/dex-api.md).
 */
import type { AppliedTick } from '../dex/engine/index.js';
import { BUY, SELL, type BookOrder, type SideCode } from '../dex/engine/index.js';
import { RunningRemaining } from './running.js';

/** A net change of one level over a tick: added quantity and orders (negative: taken out). */
export interface LevelChange {
  side: SideCode;
  price: bigint;
  quantity: bigint;
  orders: number;
}

/** market_id -> its level changes, in order of first touch; markets created by the tick have an (empty) entry. */
export type TickLevelChanges = Map<string, Map<string, LevelChange>>;

function add(
  out: TickLevelChanges,
  marketId: string,
  side: SideCode,
  price: bigint,
  quantity: bigint,
  orders: number,
): void {
  let levels = out.get(marketId);
  if (levels === undefined) {
    levels = new Map();
    out.set(marketId, levels);
  }
  const key = `${side}:${price}`;
  const c = levels.get(key);
  if (c === undefined) levels.set(key, { side, price, quantity, orders });
  else {
    c.quantity += quantity;
    c.orders += orders;
  }
}

function takeOut(o: BookOrder, out: TickLevelChanges, quantity: bigint): void {
  add(out, o.marketId, o.side, o.price, -quantity, -1);
}

export function levelChangesOf(applied: AppliedTick): TickLevelChanges {
  const out: TickLevelChanges = new Map();
  const running = new RunningRemaining(applied);
  for (const t of applied.txs) {
    const o = t.outcome;
    if (!o.ok) continue;
    if (o.kind === 'market') {
      if (!out.has(o.market.info.marketId)) out.set(o.market.info.marketId, new Map());
      continue;
    }
    if (o.kind === 'cancel') {
      takeOut(o.order, out, o.cancelled);
      continue;
    }
    if (o.kind === 'cancel_all') {
      for (const e of o.ended) takeOut(e.order, out, e.cancelled);
      continue;
    }
    const taker = o.order;
    const makerSide: SideCode = taker.side === BUY ? SELL : BUY;
    for (const tr of o.result.trades) {
      const left = running.traded(tr.maker, tr.quantity);
      add(out, taker.marketId, makerSide, tr.maker.price, -tr.quantity, left === 0n ? -1 : 0);
    }
    for (const rm of o.result.removals) takeOut(rm.order, out, running.remaining(rm.order));
    const rest = running.placed(taker, o.result.filled);
    if (rest > 0n) add(out, taker.marketId, taker.side, taker.price, rest, 1);
  }
  return out;
}
