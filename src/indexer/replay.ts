/**
 * Trades, fills and the life of each order, re-derived from the stream's transactions:
 * the stream carries accepted orders and cancels, not the trades they made, so the
 * indexer keeps each market's book with the node's own matching (dex/engine OrderBook:
 * price-time priority, self-trade prevention, expiry) and replays every transaction in
 * continuum_sequence order. Every order's status and filled_quantity and every cancel's
 * cancelled_quantity are checked against the node's: a difference is a ReplayMismatch and
 * the indexer stops rather than write a history the node did not make.
 *
 * The only clock is the transaction's timestamp_ms (the stream carries no tick
 * timestamps); docs/indexer.md says what that can change. Open orders live in the
 * database too, so the books are rebuilt from it after a restart or a failed write.
 */
import { OrderBook, BUY, SELL, encodeLeaf, type BookOrder } from '../dex/engine/index.js';
import type { TxRecord } from './records.js';
import { orderKey, type BatchRows } from './rows.js';

export class ReplayMismatch extends Error {
  override readonly name = 'ReplayMismatch';
}

interface Resting extends BookOrder {
  height: number;
}

/** An open order as the database keeps it (for a restore). */
export interface OpenOrder {
  owner: string;
  orderId: bigint;
  marketId: string;
  side: 'Buy' | 'Sell';
  price: bigint;
  quantity: bigint;
  filled: bigint;
  expiry: bigint;
  cs: bigint;
}

const NO_OWNER_BYTES = new Uint8Array(32);

export class Books {
  private readonly books = new Map<string, OrderBook>();
  private readonly open = new Map<string, Resting>();

  /** Books from the database: open orders in continuum_sequence order, each market's next trade id. */
  static restore(openOrders: readonly OpenOrder[], nextTrade: ReadonlyMap<string, bigint>): Books {
    const books = new Books();
    const byMarket = new Map<string, Resting[]>();
    for (const o of openOrders) {
      const resting: Resting = {
        seq: o.cs,
        marketId: o.marketId,
        orderId: o.orderId,
        owner: NO_OWNER_BYTES,
        ownerKey: o.owner,
        side: o.side === 'Buy' ? BUY : SELL,
        price: o.price,
        quantity: o.quantity,
        remaining: o.quantity - o.filled,
        expiry: o.expiry,
        slot: -1,
        open: true,
        height: 0,
      };
      books.open.set(orderKey(o.owner, o.orderId), resting);
      let list = byMarket.get(o.marketId);
      if (!list) byMarket.set(o.marketId, (list = []));
      list.push(resting);
    }
    for (const [marketId, next] of nextTrade) {
      const list = byMarket.get(marketId) ?? [];
      list.forEach((o, i) => (o.slot = i));
      books.bookOf(marketId).restore(list, { next: list.length, free: [] }, next, 0n, 0);
      byMarket.delete(marketId);
    }
    if (byMarket.size > 0)
      throw new Error(`open orders of markets without a book row: ${[...byMarket.keys()].join(', ')}`);
    return books;
  }

  get openCount(): number {
    return this.open.size;
  }

  /** Replay one transaction, adding what it changed to `rows`. */
  apply(rec: TxRecord, rows: BatchRows): void {
    if (rec.tx.kind === 'order') this.place(rec, rows);
    else if (rec.tx.kind === 'cancel_all') this.cancelAll(rec, rows);
    else this.cancel(rec, rows);
  }

  private bookOf(marketId: string): OrderBook {
    let book = this.books.get(marketId);
    if (!book) this.books.set(marketId, (book = new OrderBook(encodeLeaf)));
    return book;
  }

  private place(rec: TxRecord, rows: BatchRows): void {
    const t = rec.tx;
    const cs = t.continuum_sequence;
    const book = this.bookOf(t.market_id);
    const quantity = t.quantity!;
    const taker: Resting = {
      seq: cs,
      marketId: t.market_id,
      orderId: t.order_id,
      owner: NO_OWNER_BYTES,
      ownerKey: t.owner,
      side: t.side === 'Buy' ? BUY : SELL,
      price: t.price!,
      quantity,
      remaining: quantity,
      expiry: t.expiry ?? 0n,
      slot: -1,
      open: false,
      height: t.block_height,
    };
    const result = book.place(taker, Number(cs >> 32n), t.timestamp_ms);
    if (result.status !== t.status || result.filled !== t.filled_quantity) {
      throw new ReplayMismatch(
        `order ${t.id}: the node says ${t.status} with ${t.filled_quantity} filled, the replayed book ${result.status} with ${result.filled}`,
      );
    }
    for (const trade of result.trades) {
      const maker = trade.maker;
      const common = {
        marketId: t.market_id,
        tradeId: trade.tradeId,
        price: trade.price,
        quantity: trade.quantity,
        cs,
        txId: t.id,
        height: t.block_height,
        tsMs: t.timestamp_ms,
      };
      rows.trade({
        ...common,
        takerSide: t.side!,
        makerOwner: maker.ownerKey,
        makerOrderId: maker.orderId,
        takerOwner: t.owner,
        takerOrderId: t.order_id,
      });
      const done = maker.remaining === 0n;
      rows.changeOrder({
        owner: maker.ownerKey,
        orderId: maker.orderId,
        filled: maker.quantity - maker.remaining,
        status: done ? 'filled' : 'open',
        endedBy: done ? t.id : null,
      });
      if (done) this.open.delete(orderKey(maker.ownerKey, maker.orderId));
    }
    for (const removal of result.removals) {
      const o = removal.order;
      rows.changeOrder({
        owner: o.ownerKey,
        orderId: o.orderId,
        filled: o.quantity - o.remaining,
        status: removal.reason,
        endedBy: t.id,
      });
      this.open.delete(orderKey(o.ownerKey, o.orderId));
    }
    rows.insertOrder({
      owner: t.owner,
      orderId: t.order_id,
      marketId: t.market_id,
      side: t.side!,
      price: t.price!,
      quantity,
      filled: result.filled,
      expiry: t.expiry ?? 0n,
      status: taker.open ? 'open' : 'filled',
      cs,
      txId: t.id,
      height: t.block_height,
      tsMs: t.timestamp_ms,
      endedBy: taker.open ? null : t.id,
    });
    if (taker.open) this.open.set(orderKey(t.owner, t.order_id), taker);
    rows.nextTrade.set(t.market_id, book.nextTrade);
  }

  private cancel(rec: TxRecord, rows: BatchRows): void {
    const t = rec.tx;
    const key = orderKey(t.owner, t.order_id);
    const o = this.open.get(key);
    if (!o || o.marketId !== t.market_id)
      throw new ReplayMismatch(
        `cancel ${t.id}: order ${t.order_id} of ${t.owner} is not open in market ${t.market_id} in the replayed books`,
      );
    const book = this.bookOf(t.market_id);
    const left = book.cancel(o, t.continuum_sequence, Number(t.continuum_sequence >> 32n));
    if (left !== t.cancelled_quantity) {
      throw new ReplayMismatch(
        `cancel ${t.id}: the node cancelled ${t.cancelled_quantity}, the replayed book had ${left} resting`,
      );
    }
    this.open.delete(key);
    rows.changeOrder({
      owner: t.owner,
      orderId: t.order_id,
      filled: o.quantity - o.remaining,
      status: 'cancelled',
      endedBy: t.id,
    });
    rows.nextTrade.set(t.market_id, book.nextTrade);
  }

  /**
   * A mass cancel: exactly the orders the node lists, each open in the market in the
   * replayed books, and no other order of the owner open in that market (on its side).
   */
  private cancelAll(rec: TxRecord, rows: BatchRows): void {
    const t = rec.tx;
    const book = this.bookOf(t.market_id);
    let total = 0n;
    for (const id of t.cancelled_order_ids ?? []) {
      const key = orderKey(t.owner, id);
      const o = this.open.get(key);
      if (!o || o.marketId !== t.market_id) {
        throw new ReplayMismatch(
          `mass cancel ${t.id}: order ${id} of ${t.owner} is not open in market ${t.market_id} in the replayed books`,
        );
      }
      total += book.cancel(o, t.continuum_sequence, Number(t.continuum_sequence >> 32n));
      this.open.delete(key);
      const filled = o.quantity - o.remaining;
      rows.changeOrder({ owner: t.owner, orderId: id, filled, status: 'cancelled', endedBy: t.id });
    }
    const said = t.cancelled_quantity ?? 0n;
    if (total !== said) {
      throw new ReplayMismatch(
        `mass cancel ${t.id}: the node cancelled ${said}, the replayed book had ${total} resting`,
      );
    }
    for (const o of this.open.values()) {
      const sameSide = t.side === undefined || (o.side === BUY) === (t.side === 'Buy');
      if (o.ownerKey === t.owner && o.marketId === t.market_id && sameSide) {
        throw new ReplayMismatch(
          `mass cancel ${t.id}: order ${o.orderId} of ${t.owner} is still open in the replayed books`,
        );
      }
    }
    rows.nextTrade.set(t.market_id, book.nextTrade);
  }
}
