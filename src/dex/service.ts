/**
 * The order book's HTTP-facing service (spec/2): market creation, orders and cancels
 * through the shared write path (gateway.ts), answered with the HTTP shapes and, for
 * orders and cancels, a receipt signed by the node (receipts.ts). The engine and the tick
 * feed behind it are the applier's (applier.ts, engine.ts); this class only consumes
 * applied-tick records, like the chain does.
 */
import type { CancelResult, MarketView, OrderResult } from '../sdk/client.js';
import type { OrderIntent } from '../sdk/messages.js';
import type { TickApplier } from './applier.js';
import { OrderBookGateway } from './gateway.js';
import type { MarketKind } from './engine/index.js';
import type { NodeKey } from './node-key.js';
import { receiptDataOf, ReceiptSigner } from './receipts.js';
import type { DexState } from './engine/index.js';
import type { Sequencer } from '../sequencer/interface.js';
import type { BatchVerifier } from './verifier.js';
import { marketView, tradeView } from './views.js';

export interface DexServiceOptions {
  sequencer: Pick<Sequencer, 'submit' | 'submitBatch'>;
  applier: TickApplier;
  verifier: BatchVerifier; // signature checks and receipt signing (a pool of its own or the node's)
  key: NodeKey;
  /** Receipts of one turn signed on the main thread when at most this many (else one pool task). */
  signInlineMax: number;
  /** The node's shared write path (also used by gRPC SubmitTx); default: one of its own. */
  gateway?: OrderBookGateway;
}

export class DexService {
  readonly key: NodeKey;
  readonly verifier: BatchVerifier;
  readonly gateway: OrderBookGateway;
  readonly applier: TickApplier;
  private readonly receipts: ReceiptSigner;
  private readonly ownsGateway: boolean;

  constructor(options: DexServiceOptions) {
    this.key = options.key;
    this.verifier = options.verifier;
    this.applier = options.applier;
    this.gateway = options.gateway ?? new OrderBookGateway(options.sequencer, options.applier, options.verifier);
    this.ownsGateway = options.gateway === undefined;
    this.receipts = new ReceiptSigner(options.key, options.verifier, options.signInlineMax);
  }

  get state(): DexState {
    return this.applier.engine.state;
  }

  /** Refuse new submissions and fail the waiting ones. */
  stop(): void {
    if (this.ownsGateway) this.gateway.close();
  }

  async createMarket(baseMint: Uint8Array, quoteMint: Uint8Array, name: string, kind: MarketKind): Promise<MarketView> {
    const { outcome } = await this.gateway.createMarket(baseMint, quoteMint, name, kind);
    return marketView(outcome.market);
  }

  async placeOrder(intent: OrderIntent, signature: Uint8Array): Promise<OrderResult> {
    const { applied, tick, outcome: o } = await this.gateway.placeOrder(intent, signature, { root: true });
    const receipt = await this.receipts.sign(receiptDataOf(applied, o.order, tick, this.key.sequencerId));
    return {
      receipt,
      status: o.result.status,
      filled_quantity: o.result.filled.toString(),
      remaining_quantity: (o.order.quantity - o.result.filled).toString(),
      trades: o.result.trades.map((t) => tradeView(o.market.info.marketId, t)),
    };
  }

  async cancelOrder(orderId: bigint, owner: Uint8Array, marketId: string, signature: Uint8Array): Promise<CancelResult> {
    const { applied, tick, outcome: o } = await this.gateway.cancelOrder(orderId, owner, marketId, signature, { root: true });
    const receipt = await this.receipts.sign(receiptDataOf(applied, o.order, tick, this.key.sequencerId));
    return { receipt, order_id: orderId.toString(), cancelled_quantity: o.cancelled.toString() };
  }
}
