/**
 * JSON views of the engine's objects (markets, books, trades, order results): u64 as
 * decimal strings, keys and mints as Base58, hashes as lowercase hex.
 */
import { toBase58Key as toBase58 } from '../crypto/index.js';
import type { MarketView, OrderBookView, TradeView } from '../core/index.js';
import { BUY, SELL, type Trade } from './engine/index.js';
import type { Market } from './engine/index.js';
import { bytesToHex } from '../crypto/index.js';

export function marketView(m: Market): MarketView {
  return {
    market_id: m.info.marketId,
    base_mint: toBase58(m.info.baseMint),
    quote_mint: toBase58(m.info.quoteMint),
    name: m.info.name,
    kind: m.info.kind,
    created_tick: m.info.createdTick,
  };
}

export function tradeView(marketId: string, t: Trade): TradeView {
  return {
    trade_id: t.tradeId.toString(),
    market_id: marketId,
    price: t.price.toString(),
    quantity: t.quantity.toString(),
    taker_side: t.takerSide === BUY ? 'Buy' : 'Sell',
    maker_order_id: t.maker.orderId.toString(),
    maker_owner: toBase58(t.maker.owner),
    taker_order_id: t.taker.orderId.toString(),
    taker_owner: toBase58(t.taker.owner),
    tick_number: t.tickNumber,
    continuum_sequence: t.seq.toString(),
    timestamp_ms: t.timestampMs,
  };
}

export function bookView(m: Market, depth: number, nowMs: number, withOrders = false): OrderBookView {
  const lv = (side: 0 | 1) =>
    m.book
      .depth(side, depth, nowMs)
      .map((l) => ({ price: l.price.toString(), quantity: l.quantity.toString(), orders: l.orders }));
  return {
    market_id: m.info.marketId,
    bids: lv(BUY),
    asks: lv(SELL),
    merkle_root: bytesToHex(m.book.root()),
    last_sequence: m.book.lastSeq.toString(),
    tick_number: m.book.lastTick,
    tree_size: m.book.tree.size,
    ...(withOrders
      ? {
          orders: m.book.restingOrders().map((o) => ({
            slot: o.slot,
            continuum_sequence: o.seq.toString(),
            order_id: o.orderId.toString(),
            owner: toBase58(o.owner),
            side: o.side === BUY ? ('Buy' as const) : ('Sell' as const),
            price: o.price.toString(),
            quantity: o.quantity.toString(),
            remaining: o.remaining.toString(),
            expiry: o.expiry.toString(),
          })),
        }
      : {}),
  };
}
