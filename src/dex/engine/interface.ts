/**
 * Types of the pure order book engine (src/dex/engine): sides, markets, orders resting in
 * a book, trades, removals and the outcome of placing an order, and the tick context every
 * state transition is judged in. Nothing here knows a runtime, a face or a thread pool.
 */

export const BUY = 0;
export const SELL = 1;
export type SideCode = 0 | 1;
export type MarketKind = 'Spot' | 'Perp';

/** An order resting in (or passing through) a book. Prices and quantities are u64 bigints. */
export interface BookOrder {
  seq: bigint; // continuum_sequence = (tick_number << 32) | index_in_tick
  marketId: string;
  orderId: bigint;
  owner: Uint8Array; // 32 bytes
  ownerKey: string; // the owner's 32 bytes as a latin1 string: a cheap Map key, never shown
  side: SideCode;
  price: bigint;
  quantity: bigint;
  remaining: bigint;
  expiry: bigint; // unix seconds, 0 = good until cancelled
  slot: number; // commitment slot while resting, -1 otherwise
  open: boolean;
}

export interface Trade {
  tradeId: bigint; // per market, from 1
  price: bigint; // the maker's price
  quantity: bigint;
  takerSide: SideCode;
  maker: BookOrder;
  taker: BookOrder;
  tickNumber: number;
  seq: bigint; // the taker's continuum_sequence
  timestampMs: number;
}

/** Why a resting order left the book without trading. */
export interface Removal {
  order: BookOrder;
  reason: 'expired' | 'self_trade';
}

export type PlaceStatus = 'resting' | 'partially_filled' | 'filled';

export interface PlaceResult {
  status: PlaceStatus;
  filled: bigint;
  trades: Trade[]; // do not mutate (may be a shared empty array)
  removals: Removal[]; // resting orders that left untraded (expired, self-trade); do not mutate
  selfTraded: boolean;
  /** The commitment slot the taker came to rest in, -1 when it did not rest (filled on arrival). */
  slot: number;
}

/** The context every state transition is judged in: the tick, never the wall clock. */
export interface TickContext {
  tickNumber: number;
  index: number; // index of the transaction in its tick
  timestampMs: number; // the tick's timestamp, milliseconds
}

export interface MarketInfo {
  marketId: string;
  baseMint: Uint8Array;
  quoteMint: Uint8Array;
  name: string;
  kind: MarketKind;
  createdTick: number;
  createdSeq: bigint;
}
