/**
 * The order book's HTTP-facing service (spec/2): market creation, orders and cancels
 * through the order book runtime's order entry (order-entry.ts), answered with the HTTP
 * shapes and, for orders and cancels, a receipt signed by the node (receipts.ts). The
 * engine, the tick feed and the signer behind it are the runtime's (runtime.ts).
 */
import type { CancelResult, MarketView, OrderResult } from '../core/index.js';
import type { CancelAllData, CancelAllResult, OrderIntent } from '../core/index.js';
import type { DexState, MarketKind } from './engine/index.js';
import type { NodeKey } from './node-key.js';
import type { OrderEntry } from './order-entry.js';
import { cancelAllAnswer } from './cancel-all.js';
import { receiptDataOf, type ReceiptSigner } from './receipts.js';
import type { OrderBookRuntime } from './runtime.js';
import { marketView, tradeView } from './views.js';

export class DexService {
  readonly key: NodeKey;
  readonly orderEntry: OrderEntry;
  private readonly receipts: ReceiptSigner;

  constructor(private readonly book: Pick<OrderBookRuntime, 'key' | 'orderEntry' | 'receipts' | 'state'>) {
    this.key = book.key;
    this.orderEntry = book.orderEntry;
    this.receipts = book.receipts;
  }

  get state(): DexState {
    return this.book.state;
  }

  async createMarket(baseMint: Uint8Array, quoteMint: Uint8Array, name: string, kind: MarketKind): Promise<MarketView> {
    const { outcome } = await this.orderEntry.createMarket(baseMint, quoteMint, name, kind);
    return marketView(outcome.market);
  }

  /** `from`: the client's address (the order entry's fair share). */
  async placeOrder(intent: OrderIntent, signature: Uint8Array, from?: string): Promise<OrderResult> {
    const {
      applied,
      tick,
      outcome: o,
    } = await this.orderEntry.placeOrder(intent, signature, { root: true, ...(from !== undefined ? { from } : {}) });
    const receipt = await this.receipts.sign(receiptDataOf(applied, o.order, tick, this.key.sequencerId));
    return {
      receipt,
      status: o.result.status,
      filled_quantity: o.result.filled.toString(),
      remaining_quantity: (o.order.quantity - o.result.filled).toString(),
      trades: o.result.trades.map((t) => tradeView(o.market.info.marketId, t)),
    };
  }

  /** `judgeNow`: never held waiting for its order (a batch's cancel of an order earlier in it: batch.ts). */
  async cancelOrder(
    orderId: bigint,
    owner: Uint8Array,
    marketId: string,
    signature: Uint8Array,
    from?: string,
    judgeNow = false,
  ): Promise<CancelResult> {
    const options = { root: true, judgeNow, ...(from !== undefined ? { from } : {}) };
    const {
      applied,
      tick,
      outcome: o,
    } = await this.orderEntry.cancelOrder(orderId, owner, marketId, signature, options);
    const receipt = await this.receipts.sign(receiptDataOf(applied, o.order, tick, this.key.sequencerId));
    return { receipt, order_id: orderId.toString(), cancelled_quantity: o.cancelled.toString() };
  }

  /** A mass cancel: the orders it ended, and a receipt whose order_id is the request_id. */
  async cancelAll(data: CancelAllData, signature: Uint8Array, from?: string): Promise<CancelAllResult> {
    const options = { root: true, ...(from !== undefined ? { from } : {}) };
    const submitted = await this.orderEntry.cancelAll(data, signature, options);
    return cancelAllAnswer(submitted, this.receipts, this.key.sequencerId);
  }
}
