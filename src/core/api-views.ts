/**
 * The order book API's answers (spec/2, docs/dex-api.md) as JSON types: what the node writes
 * and a client reads. u64 values travel as decimal strings (JSON numbers lose precision above
 * 2^53); keys and mints as Base58; signatures and hashes as lowercase hex. Types only: the
 * node's views (src/dex) build them, the SDK's client returns them. The bodies a client builds
 * are the SDK's.
 */
import type { Side } from './order-messages.js';

export interface Receipt {
  order_id: string;
  owner: string; // Base58
  timestamp_ms: number;
  sequencer_id: string;
  merkle_root: string; // 64 hex
  sequencer_signature: string; // 128 hex
  tick_number: number;
  continuum_sequence: string; // decimal u64: (tick_number << 32) | index_in_tick
  tx_hash: string; // 64 hex, full SHA-256 of the transaction; its first 8 are the short hash
}

export interface MarketView {
  market_id: string;
  base_mint: string;
  quote_mint: string;
  name: string;
  kind: 'Spot' | 'Perp';
  created_tick: number;
}

export interface LevelView {
  price: string;
  quantity: string;
  orders: number;
}

export interface OrderBookView {
  market_id: string;
  bids: LevelView[];
  asks: LevelView[];
  merkle_root: string;
  last_sequence: string;
  tick_number: number;
  tree_size: number; // slots covered by merkle_root
  orders?: SlotOrderView[]; // with ?orders=true: every resting order with its slot
}

export interface TradeView {
  trade_id: string;
  market_id: string;
  price: string;
  quantity: string;
  taker_side: 'Buy' | 'Sell';
  maker_order_id: string;
  maker_owner: string;
  taker_order_id: string;
  taker_owner: string;
  tick_number: number;
  continuum_sequence: string;
  timestamp_ms: number;
}

export interface OrderResult {
  receipt: Receipt;
  status: 'resting' | 'partially_filled' | 'filled';
  filled_quantity: string;
  remaining_quantity: string;
  trades: TradeView[];
}

export interface CancelResult {
  receipt: Receipt;
  order_id: string;
  cancelled_quantity: string;
}

export interface HealthView {
  status: 'ok';
  sequencer_id: string;
  public_key: string; // Base58
  public_key_hex: string;
  timestamp: number; // microseconds
  tick_number: number;
  markets: number;
}

/** One order a mass cancel ended: its id, side, price and the quantity that was still resting. */
export interface CancelledOrderView {
  order_id: string;
  side: Side;
  price: string;
  cancelled_quantity: string;
}

export interface CancelAllResult {
  receipt: Receipt; // its order_id is the request_id
  request_id: string;
  market_id: string;
  side: Side | 'Both';
  /**
   * Every order of the owner in the market (and side) still open when it was applied, in
   * continuum_sequence order; may be empty.
   */
  cancelled: CancelledOrderView[];
}

/** A resting order in its slot of the state tree (GET /markets/:id/orderbook?orders=true). */
export interface SlotOrderView {
  slot: number;
  continuum_sequence: string;
  order_id: string;
  owner: string; // Base58
  side: 'Buy' | 'Sell';
  price: string;
  quantity: string;
  remaining: string;
  expiry: string;
}
