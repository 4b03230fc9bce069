/**
 * The rows one database transaction writes: everything a run of consecutive stream
 * messages produced, gathered in memory and then written by writer.ts in a few set-based
 * statements. An order placed and changed within the run is inserted once, in its last
 * state; candles are merged per bucket before they meet the table.
 */
import type { BlockRecord } from '../chain/core/index.js';

export const RESOLUTIONS = { '1m': 60, '5m': 300, '1h': 3600, '1d': 86400 } as const;
export type Resolution = keyof typeof RESOLUTIONS;

export type OrderStatus = 'open' | 'filled' | 'cancelled' | 'expired' | 'self_trade';

export interface OrderRow {
  owner: string;
  orderId: bigint;
  marketId: string;
  side: 'Buy' | 'Sell';
  price: bigint;
  quantity: bigint;
  filled: bigint;
  expiry: bigint;
  status: OrderStatus;
  cs: bigint;
  txId: string;
  height: number;
  tsMs: number;
  endedBy: string | null;
}

export interface OrderChange {
  owner: string;
  orderId: bigint;
  filled: bigint;
  status: OrderStatus;
  endedBy: string | null;
}

export interface TradeRow {
  marketId: string;
  tradeId: bigint;
  price: bigint;
  quantity: bigint;
  takerSide: 'Buy' | 'Sell';
  makerOwner: string;
  makerOrderId: bigint;
  takerOwner: string;
  takerOrderId: bigint;
  cs: bigint;
  txId: string;
  height: number;
  tsMs: number;
}

export interface CandleRow {
  marketId: string;
  resolution: number;
  bucket: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  trades: number;
}

export interface TxRow {
  height: number;
  batch: number;
  index: number;
  cs: bigint;
  kind: string;
  marketId: string;
  owner: string;
  orderId: bigint;
  json: string;
}

export interface EventRow {
  marketId: string;
  height: number;
  json: string;
}

export interface MarketRow {
  height: number;
  batch: number;
  index: number;
  marketId: string;
  name: string;
  kind: string;
  baseMint: string;
  quoteMint: string;
  cs: bigint;
  json: string;
}

export interface BlockRow {
  block: BlockRecord;
  json: string;
}

export class BatchRows {
  readonly txs: TxRow[] = [];
  readonly newOrders = new Map<string, OrderRow>();
  readonly changedOrders = new Map<string, OrderChange>();
  readonly trades: TradeRow[] = [];
  readonly candles = new Map<string, CandleRow>();
  /** Next trade id of each market touched. */
  readonly nextTrade = new Map<string, bigint>();
  readonly blocks: BlockRow[] = [];
  /** Events in chain order (their ordinals are given at write time). */
  readonly events: EventRow[] = [];
  readonly markets: MarketRow[] = [];
  /** Counts for metrics. */
  txCount = 0;
  blockCount = 0;

  insertOrder(row: OrderRow): void {
    this.newOrders.set(orderKey(row.owner, row.orderId), row);
  }

  changeOrder(change: OrderChange): void {
    const key = orderKey(change.owner, change.orderId);
    const fresh = this.newOrders.get(key);
    if (fresh) {
      fresh.filled = change.filled;
      fresh.status = change.status;
      fresh.endedBy = change.endedBy;
    } else this.changedOrders.set(key, change);
  }

  trade(row: TradeRow): void {
    this.trades.push(row);
    const sec = Math.floor(row.tsMs / 1000);
    for (const resolution of Object.values(RESOLUTIONS)) {
      const bucket = sec - (sec % resolution);
      const key = `${row.marketId}/${resolution}/${bucket}`;
      const c = this.candles.get(key);
      if (!c) {
        this.candles.set(key, {
          marketId: row.marketId,
          resolution,
          bucket,
          open: row.price,
          high: row.price,
          low: row.price,
          close: row.price,
          volume: row.quantity,
          trades: 1,
        });
      } else {
        if (row.price > c.high) c.high = row.price;
        if (row.price < c.low) c.low = row.price;
        c.close = row.price;
        c.volume += row.quantity;
        c.trades++;
      }
    }
  }
}

export function orderKey(owner: string, orderId: bigint): string {
  return `${owner}/${orderId}`;
}
