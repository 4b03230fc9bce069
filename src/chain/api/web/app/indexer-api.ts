/**
 * The explorer page's access to an svc indexer's history reads (docs/indexer.md "History"):
 * a market's candles and recent trades, an owner's fills. The indexer is the one the node
 * names in the served HTML (`data-indexer` of <body>, from --indexer-url); without it
 * `indexerUrl()` is undefined and the page asks the indexer nothing. u64 values arrive as
 * decimal strings. A fetch that does not reach the indexer is an IndexerUnreachable, told
 * apart from the indexer's own `{"error": ...}` answers (ExplorerApiError with its status).
 */
import { ExplorerApiError } from './api.js';

export type Resolution = '1m' | '5m' | '1h' | '1d';

/** The resolutions the page offers, with their seconds. */
export const RESOLUTIONS: readonly { name: Resolution; seconds: number }[] = [
  { name: '1m', seconds: 60 },
  { name: '5m', seconds: 300 },
  { name: '1h', seconds: 3_600 },
  { name: '1d', seconds: 86_400 },
];

/** Buckets the chart asks for, ending with the current one (the indexer allows 5,000). */
export const CHART_BUCKETS = 500;

export interface Candle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  trades: number;
}

export interface Trade {
  trade_id: number;
  price: string;
  quantity: string;
  taker_side: 'Buy' | 'Sell';
  maker_owner: string;
  taker_owner: string;
  transaction_id: string;
  block_height: number;
  timestamp_ms: number;
}

export interface Fill {
  market_id: string;
  trade_id: number;
  order_id: string;
  role: 'maker' | 'taker';
  side: 'Buy' | 'Sell';
  price: string;
  quantity: string;
  counterparty: string;
  transaction_id: string;
  block_height: number;
  timestamp_ms: number;
}

export class IndexerUnreachable extends Error {}

/** The indexer the node names, or undefined (no --indexer-url). */
export function indexerUrl(): string | undefined {
  const url = document.body.dataset.indexer;
  return url === undefined || url === '' ? undefined : url;
}

/** The window of `CHART_BUCKETS` buckets ending with the one holding `nowMs`, in unix seconds. */
export function chartRange(seconds: number, nowMs: number): { from: number; to: number } {
  const to = (Math.floor(nowMs / 1000 / seconds) + 1) * seconds;
  return { from: Math.max(0, to - CHART_BUCKETS * seconds), to };
}

export function indexerApi(base: string) {
  const get = <T>(path: string) => getIndexerJson<T>(`${base}${path}`);
  const id = encodeURIComponent;
  return {
    candles: (market: string, r: Resolution, from: number, to: number) =>
      get<{ candles: Candle[] }>(`/markets/${id(market)}/candles?resolution=${r}&from=${from}&to=${to}`),
    trades: (market: string, limit: number) => get<{ trades: Trade[] }>(`/markets/${id(market)}/trades?limit=${limit}`),
    fills: (owner: string, limit: number) => get<{ fills: Fill[] }>(`/owners/${id(owner)}/fills?limit=${limit}`),
  };
}

export type IndexerApi = ReturnType<typeof indexerApi>;

async function getIndexerJson<T>(url: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' } });
  } catch (err) {
    throw new IndexerUnreachable(err instanceof Error ? err.message : String(err));
  }
  const text = await res.text();
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? message;
    } catch {
      // not JSON: keep the status line
    }
    throw new ExplorerApiError(res.status, message);
  }
  return JSON.parse(text) as T;
}
