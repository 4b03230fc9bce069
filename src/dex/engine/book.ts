/**
 * One market's limit order book: price-time priority, partial fills, cancels, expiry and
 * self-trade prevention. Pure and deterministic: the only clock is the tick timestamp
 * passed in, and time priority is the continuum_sequence order in which orders arrive.
 *
 * Layout: each side keeps its price levels in an array sorted so that the best price is
 * the last element (bids ascending, asks descending): taking the best level and removing
 * an emptied one are O(1) at the end; a new level is inserted by binary search. A level
 * is a FIFO array with a head index; a cancelled order is marked closed and skipped, and
 * the array is compacted when the head passes half of it.
 *
 * Self-trade policy (cancel resting): when an incoming order would match a resting order
 * of the same owner, the resting order is cancelled (it leaves the book untraded) and
 * matching continues. Expired resting orders met while matching are removed likewise; an
 * order is expired when expiry != 0 and expiry * 1000 <= the tick's timestamp in ms.
 */
import { SlotTree } from './slot-tree.js';
import type { BookOrder, PlaceResult, Removal, SideCode, Trade } from './interface.js';
import { BUY } from './interface.js';

export interface Level {
  price: bigint;
  orders: BookOrder[];
  head: number;
  count: number; // open orders
}

class BookSide {
  /** Sorted so the best price is last. */
  readonly levels: Level[] = [];

  constructor(private readonly ascending: boolean) {}

  /** Index of the level with `price`, or -(insertion point) - 1. */
  find(price: bigint): number {
    const lv = this.levels;
    let lo = 0;
    let hi = lv.length - 1;
    // Most activity is near the best price (the end): check it first.
    if (hi >= 0 && lv[hi]!.price === price) return hi;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const p = lv[mid]!.price;
      if (p === price) return mid;
      if (this.ascending ? p < price : p > price) lo = mid + 1;
      else hi = mid - 1;
    }
    return -lo - 1;
  }

  levelFor(price: bigint): Level {
    let i = this.find(price);
    if (i >= 0) return this.levels[i]!;
    i = -i - 1;
    const level: Level = { price, orders: [], head: 0, count: 0 };
    if (i === this.levels.length) this.levels.push(level);
    else this.levels.splice(i, 0, level);
    return level;
  }

  removeLevel(level: Level): void {
    const lv = this.levels;
    if (lv[lv.length - 1] === level) {
      lv.pop();
      return;
    }
    const i = this.find(level.price);
    if (i >= 0) lv.splice(i, 1);
  }
}

export class OrderBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);
  /** slot -> resting order, for the commitment's leaf records. */
  private readonly bySlot: Array<BookOrder | undefined> = [];
  readonly tree: SlotTree;
  /** Next trade id of this market (from 1). */
  private nextTradeId = 1n;
  lastSeq = 0n;
  lastTick = 0;
  private nowMs = -1;
  private nowSec = 0n;

  constructor(encodeLeaf: (o: BookOrder) => Uint8Array) {
    this.tree = new SlotTree((slot) => {
      const o = this.bySlot[slot];
      return o === undefined ? undefined : encodeLeaf(o);
    });
  }

  private closeResting(o: BookOrder, level: Level): void {
    o.open = false;
    level.count--;
    this.bySlot[o.slot] = undefined;
    this.tree.release(o.slot);
    o.slot = -1;
  }

  /**
   * Match `taker` against the opposite side, then rest what is left. `nowMs` is the tick's
   * timestamp. The caller has checked bounds (price, quantity > 0, u64) and expiry.
   */
  place(taker: BookOrder, tickNumber: number, nowMs: number): PlaceResult {
    let trades: Trade[] | undefined;
    let removals: Removal[] | undefined;
    const isBuy = taker.side === BUY;
    const opposite = isBuy ? this.asks : this.bids;
    const levels = opposite.levels;
    let selfTraded = false;
    if (nowMs !== this.nowMs) {
      this.nowMs = nowMs;
      this.nowSec = BigInt(Math.floor(nowMs / 1000));
    }
    const nowSec = this.nowSec;
    this.lastSeq = taker.seq;
    this.lastTick = tickNumber;

    while (taker.remaining > 0n && levels.length > 0) {
      const level = levels[levels.length - 1]!;
      if (isBuy ? level.price > taker.price : level.price < taker.price) break;
      const orders = level.orders;
      while (taker.remaining > 0n && level.head < orders.length) {
        const maker = orders[level.head]!;
        if (!maker.open) {
          level.head++;
          continue;
        }
        if (maker.expiry !== 0n && maker.expiry <= nowSec) {
          this.closeResting(maker, level);
          level.head++;
          (removals ??= []).push({ order: maker, reason: 'expired' });
          continue;
        }
        if (maker.ownerKey === taker.ownerKey) {
          this.closeResting(maker, level);
          level.head++;
          selfTraded = true;
          (removals ??= []).push({ order: maker, reason: 'self_trade' });
          continue;
        }
        const q = maker.remaining < taker.remaining ? maker.remaining : taker.remaining;
        maker.remaining -= q;
        taker.remaining -= q;
        (trades ??= []).push({
          tradeId: this.nextTradeId++,
          price: level.price,
          quantity: q,
          takerSide: taker.side,
          maker,
          taker,
          tickNumber,
          seq: taker.seq,
          timestampMs: nowMs,
        });
        if (maker.remaining === 0n) {
          maker.open = false;
          level.count--;
          this.bySlot[maker.slot] = undefined;
          this.tree.release(maker.slot);
          maker.slot = -1;
          level.head++;
        } else {
          this.tree.touch(maker.slot);
        }
      }
      if (level.count === 0) levels.pop();
      else if (level.head > 32 && level.head * 2 > orders.length) {
        level.orders = orders.slice(level.head);
        level.head = 0;
      }
    }

    const filled = taker.quantity - taker.remaining;
    if (taker.remaining > 0n) {
      const side = isBuy ? this.bids : this.asks;
      const level = side.levelFor(taker.price);
      level.orders.push(taker);
      level.count++;
      taker.open = true;
      taker.slot = this.tree.allocate();
      this.bySlot[taker.slot] = taker;
    } else {
      taker.open = false;
    }
    const status = taker.remaining === 0n ? 'filled' : filled > 0n ? 'partially_filled' : 'resting';
    return {
      status,
      filled,
      trades: trades ?? NO_TRADES,
      removals: removals ?? NO_REMOVALS,
      selfTraded,
      slot: taker.slot,
    };
  }

  /** Take an open order out of the book (cancel). Returns the quantity that was resting. */
  cancel(o: BookOrder, seq: bigint, tickNumber: number): bigint {
    this.lastSeq = seq;
    this.lastTick = tickNumber;
    if (!o.open) return 0n;
    const side = o.side === BUY ? this.bids : this.asks;
    const i = side.find(o.price);
    if (i < 0) throw new Error('book invariant: open order without its level');
    const level = side.levels[i]!;
    const left = o.remaining;
    this.closeResting(o, level);
    if (level.count === 0) side.removeLevel(level);
    return left;
  }

  root(): Uint8Array {
    return this.tree.root();
  }

  /** The id the next trade of this market gets. */
  get nextTrade(): bigint {
    return this.nextTradeId;
  }

  /**
   * Rebuild from a snapshot (snapshot.ts): `resting` are the open orders with their
   * slots, in continuum_sequence order (which is each level's FIFO order: orders join a
   * level's tail in that order and a partial fill keeps its place).
   */
  restore(
    resting: readonly BookOrder[],
    slots: { next: number; free: readonly number[] },
    nextTradeId: bigint,
    lastSeq: bigint,
    lastTick: number,
  ): void {
    for (const o of resting) {
      const level = (o.side === BUY ? this.bids : this.asks).levelFor(o.price);
      level.orders.push(o);
      level.count++;
      o.open = true;
      this.bySlot[o.slot] = o;
    }
    this.tree.restore(
      slots.next,
      slots.free,
      resting.map((o) => o.slot),
    );
    this.nextTradeId = nextTradeId;
    this.lastSeq = lastSeq;
    this.lastTick = lastTick;
  }

  /** Aggregated levels, best first, skipping orders expired at `nowMs` (a view, not a change). */
  depth(side: SideCode, limit: number, nowMs: number): Array<{ price: bigint; quantity: bigint; orders: number }> {
    const levels = (side === BUY ? this.bids : this.asks).levels;
    const nowSec = BigInt(Math.floor(nowMs / 1000));
    const out: Array<{ price: bigint; quantity: bigint; orders: number }> = [];
    for (let i = levels.length - 1; i >= 0 && out.length < limit; i--) {
      const level = levels[i]!;
      let quantity = 0n;
      let orders = 0;
      for (let j = level.head; j < level.orders.length; j++) {
        const o = level.orders[j]!;
        if (!o.open || (o.expiry !== 0n && o.expiry <= nowSec)) continue;
        quantity += o.remaining;
        orders++;
      }
      if (orders > 0) out.push({ price: level.price, quantity, orders });
    }
    return out;
  }

  /** Every resting order with its slot (for audits of the root), in slot order. */
  restingOrders(): BookOrder[] {
    return this.bySlot.filter((o): o is BookOrder => o !== undefined);
  }
}

// Shared empty results (most orders have no removals, many no trades): never mutated.
const NO_REMOVALS: Removal[] = [];
const NO_TRADES: Trade[] = [];
