/**
 * The aggregated levels of every market's book as the book channel shows them: price ->
 * (total quantity, order count) per side. The book source keeps this mirror and folds each
 * tick's level changes (book-deltas.ts) into it, so a snapshot is always exactly the state
 * after the last delta it published, whatever the engine has applied since. `levelsOfBook`
 * computes the same from an engine book (to seed the mirror at start, and in tests to check
 * that the mirror never drifts). The mirror also keeps the book's checksum (the SDK's
 * book-checksum.ts, docs/chain.md "Book checksum"): each level holds its hash, and a change
 * takes the old hash out of the sum and puts the new one in, so a delta costs one SHA-256
 * per changed level, never a pass over the book.
 */
import type { OrderBook } from '../dex/engine/index.js';
import { BUY, type SideCode } from '../dex/engine/index.js';
import { BookChecksum } from '../core/index.js';
import type { LevelChange } from './book-deltas.js';

/** A level as sent: [price, quantity, orders]; quantity 0 and orders 0 in a delta = the level is gone. */
export type LevelRow = [price: bigint, quantity: bigint, orders: number];

interface Level {
  quantity: bigint;
  orders: number;
  hash: bigint; // the level's term of the checksum
}

export class MarketLevels {
  private readonly sides: [Map<bigint, Level>, Map<bigint, Level>] = [new Map(), new Map()];
  private readonly sum: BookChecksum;

  constructor(marketId: string) {
    this.sum = new BookChecksum(marketId);
  }

  /** Fold net changes in; returns the levels whose totals changed, as they are now. */
  apply(changes: Iterable<LevelChange>): { bids: LevelRow[]; asks: LevelRow[] } {
    const bids: LevelRow[] = [];
    const asks: LevelRow[] = [];
    for (const c of changes) {
      if (c.quantity === 0n && c.orders === 0) continue;
      const side = this.sides[c.side];
      const l = side.get(c.price) ?? { quantity: 0n, orders: 0, hash: 0n };
      l.quantity += c.quantity;
      l.orders += c.orders;
      if (l.orders < 0 || l.quantity < 0n || (l.orders === 0) !== (l.quantity === 0n)) {
        throw new Error(
          `book mirror out of step at ${c.side === BUY ? 'bid' : 'ask'} ${c.price}: ${l.quantity} in ${l.orders} orders`,
        );
      }
      this.sum.remove(l.hash);
      if (l.orders === 0) side.delete(c.price);
      else {
        l.hash = this.sum.hash(c.side, c.price, l.quantity, BigInt(l.orders));
        this.sum.add(l.hash);
        side.set(c.price, l);
      }
      (c.side === BUY ? bids : asks).push([c.price, l.quantity, l.orders]);
    }
    return { bids, asks };
  }

  /** Set one level (seeding). */
  set(side: SideCode, price: bigint, quantity: bigint, orders: number): void {
    if (orders <= 0) return;
    const old = this.sides[side].get(price);
    if (old !== undefined) this.sum.remove(old.hash);
    const hash = this.sum.hash(side, price, quantity, BigInt(orders));
    this.sum.add(hash);
    this.sides[side].set(price, { quantity, orders, hash });
  }

  /** The book's checksum now: 16 hex digits (docs/chain.md "Book checksum"). */
  checksum(): string {
    return this.sum.hex();
  }

  /** Every level, best first (bids descending, asks ascending). */
  rows(): { bids: LevelRow[]; asks: LevelRow[] } {
    const sorted = (side: SideCode, desc: boolean): LevelRow[] =>
      [...this.sides[side]]
        .map(([p, l]): LevelRow => [p, l.quantity, l.orders])
        .sort((a, b) => (a[0] === b[0] ? 0 : a[0] < b[0] === desc ? 1 : -1));
    return { bids: sorted(BUY, true), asks: sorted(1, false) };
  }
}

/** The levels of an engine book (every open order, expired or not), best first. */
export function levelsOfBook(book: OrderBook): { bids: LevelRow[]; asks: LevelRow[] } {
  const side = (
    levels: ReadonlyArray<{ price: bigint; orders: ReadonlyArray<{ open: boolean; remaining: bigint }>; head: number }>,
  ): LevelRow[] => {
    const rows: LevelRow[] = [];
    for (let i = levels.length - 1; i >= 0; i--) {
      const l = levels[i]!;
      let q = 0n;
      let n = 0;
      for (let j = l.head; j < l.orders.length; j++) {
        const o = l.orders[j]!;
        if (!o.open) continue;
        q += o.remaining;
        n++;
      }
      if (n > 0) rows.push([l.price, q, n]);
    }
    return rows;
  };
  return { bids: side(book.bids.levels), asks: side(book.asks.levels) };
}
