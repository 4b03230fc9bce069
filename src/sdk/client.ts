/**
 * A small fetch-based client for the order book API. Runs wherever `fetch` exists
 * (Node 20, browsers). Every call returns the `data` of the success envelope or throws a
 * DexApiError carrying the HTTP status, the `code` and the server's `error` message.
 */
import type {
  CancelAllResult,
  CancelResult,
  HealthView,
  MarketView,
  OrderBookView,
  OrderResult,
  TradeView,
} from '../core/browser-safe.js';
import type { Envelope, CancelOrderBody, CreateMarketBody, PlaceOrderBody } from './api-json.js';
import type { CancelAllBody } from './cancel-all.js';

export class DexApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DexApiError';
  }
}

/** One item of POST /orders/batch: the body of POST /orders or POST /orders/cancel with its kind. */
export type BatchItemBody = ({ kind: 'order' } & PlaceOrderBody) | ({ kind: 'cancel' } & CancelOrderBody);

/** One item's answer in a batch: the single call's data, or its refusal with the single call's HTTP status. */
export type BatchItemResult =
  | { ok: true; data: OrderResult | CancelResult }
  | { ok: false; error: string; code: string; status: number };

export class DexClient {
  private readonly base: string;

  constructor(baseUrl: string) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.headers = { 'content-type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    const res = await fetch(this.base + path, init);
    const text = await res.text();
    let env: Envelope<T>;
    try {
      env = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new DexApiError(res.status, 'BAD_RESPONSE', `non-JSON response (${res.status}): ${text.slice(0, 200)}`);
    }
    if (!env.ok) throw new DexApiError(res.status, env.code, env.error);
    return env.data;
  }

  health(): Promise<HealthView> {
    return this.call('GET', '/health');
  }
  listMarkets(): Promise<MarketView[]> {
    return this.call('GET', '/markets');
  }
  createMarket(body: CreateMarketBody): Promise<MarketView> {
    return this.call('POST', '/markets', body);
  }
  orderBook(marketId: string, depth?: number, withOrders = false): Promise<OrderBookView> {
    const q = new URLSearchParams();
    if (depth) q.set('depth', String(depth));
    if (withOrders) q.set('orders', 'true');
    const qs = q.toString();
    return this.call('GET', `/markets/${encodeURIComponent(marketId)}/orderbook${qs ? `?${qs}` : ''}`);
  }
  trades(marketId: string, limit?: number): Promise<TradeView[]> {
    return this.call('GET', `/markets/${encodeURIComponent(marketId)}/trades${limit ? `?limit=${limit}` : ''}`);
  }
  placeOrder(body: PlaceOrderBody): Promise<OrderResult> {
    return this.call('POST', '/orders', body);
  }
  cancelOrder(body: CancelOrderBody): Promise<CancelResult> {
    return this.call('POST', '/orders/cancel', body);
  }
  /** POST /orders/batch: up to 64 orders and cancels; one result per item, in order (a batch refused whole throws). */
  async placeBatch(items: BatchItemBody[]): Promise<BatchItemResult[]> {
    return (await this.call<{ results: BatchItemResult[] }>('POST', '/orders/batch', { items })).results;
  }

  /** Cancel every open order of the owner in one market (or one side): docs/dex-api.md. */
  cancelAll(body: CancelAllBody): Promise<CancelAllResult> {
    return this.call('POST', '/orders/cancel-all', body);
  }
}
