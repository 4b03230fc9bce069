/**
 * The answer to a mass cancel (docs/dex-api.md "POST /orders/cancel-all"): the orders it
 * ended, in continuum_sequence order, with the quantity each still had resting, and a
 * receipt like a cancel's whose `order_id` is the mass cancel's `request_id` (docs/signing.md
 * "Receipts"). Shared by the single-process face (service.ts) and the gateway hub, which
 * sends the fields beside the receipt to the gateway process that signs the receipt.
 */
import type { CancelAllResult, CancelledOrderView } from '../core/index.js';
import type { CancelAllTx } from './engine/index.js';
import type { OkOutcome, Submitted } from './order-entry.js';
import { receiptDataOf, type ReceiptSigner } from './receipts.js';

/** A mass cancel applied by the engine: its record, tick and outcome. */
export type CancelAllSubmitted = Submitted & { outcome: OkOutcome<'cancel_all'> };

/** The answer's fields beside the receipt. */
export function cancelAllFields(s: CancelAllSubmitted): Omit<CancelAllResult, 'receipt'> {
  const tx = s.applied.tx as CancelAllTx;
  const cancelled: CancelledOrderView[] = s.outcome.ended.map((e) => ({
    order_id: e.order.orderId.toString(),
    side: e.order.side === 0 ? 'Buy' : 'Sell',
    price: e.order.price.toString(),
    cancelled_quantity: e.cancelled.toString(),
  }));
  return { request_id: tx.requestId.toString(), market_id: tx.marketId, side: tx.side ?? 'Both', cancelled };
}

/** The whole answer, its receipt signed by the node key (order_id = request_id). */
export async function cancelAllAnswer(
  s: CancelAllSubmitted,
  receipts: ReceiptSigner,
  sequencerId: string,
): Promise<CancelAllResult> {
  const tx = s.applied.tx as CancelAllTx;
  const data = receiptDataOf(s.applied, { orderId: tx.requestId, owner: tx.owner }, s.tick, sequencerId);
  return { receipt: await receipts.sign(data), ...cancelAllFields(s) };
}
