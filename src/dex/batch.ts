/**
 * Batch order entry (docs/dex-api.md "Batches"): up to MAX_BATCH_ITEMS signed orders and
 * cancels in one call (POST /orders/batch on the order book port, gRPC SubmitTxBatch),
 * each with its own signature, checks, answer and receipt, in the given order.
 *
 * What holds a batch together is only this: it is refused whole, before any item is taken,
 * when it is over a limit (items, bytes) or when its client address's fair share of
 * --max-pending has fewer free places than it has items (fair-share.ts: a batch takes one
 * place per item, all or none, so it neither bypasses the share nor is half-admitted);
 * otherwise its items are handed to the order entry in one synchronous pass, so they take
 * consecutive places in the arrival line, and each is judged like the single call it
 * stands for (a later duplicate order id is ORDER_REPLAYED, a cancel after its order in
 * the same batch cancels it). Items are not atomic together: one bad item refuses that
 * item only.
 *
 * This file does not parse HTTP, check signatures or sign receipts: each face does that
 * as for its single calls (the gateway processes, http.ts, the chain's gRPC service).
 */
import type { OrderIntent } from '../core/index.js';
import { ownerKeyOf } from './engine/index.js';
import { DexRefusal } from './errors.js';
import type { DexService } from './service.js';
import { asObject, parseCancel, parsePlaceOrder } from './validate.js';

/** Items in one batch at most; a longer batch is refused whole (400 BATCH_TOO_LARGE / INVALID_ARGUMENT). */
export const MAX_BATCH_ITEMS = 64;
/** Bytes of one batch request body (JSON, or the protobuf message) at most; above, refused whole (413 / INVALID_ARGUMENT). */
export const MAX_BATCH_BYTES = 64 * 1024;

/** One parsed item of a batch: an order or a cancel, with the fields of its single call. */
export type BatchItem =
  | { kind: 'order'; intent: OrderIntent; signature: Uint8Array }
  | { kind: 'cancel'; orderId: bigint; owner: Uint8Array; marketId: string; signature: Uint8Array };

/** One item's answer: the single call's `data`, or its error with the single call's HTTP status. */
export type BatchResult<T> = { ok: true; data: T } | { ok: false; error: string; code: string; status: number };

/** The whole-batch checks of a batch of `n` items (400 BATCH_TOO_LARGE, 400 BAD_REQUEST for none). */
export function checkBatchSize(n: number): void {
  if (n === 0)
    throw new DexRefusal('BAD_REQUEST', `a batch holds 1 to ${MAX_BATCH_ITEMS} orders and cancels; this one is empty`);
  if (n > MAX_BATCH_ITEMS) {
    throw new DexRefusal(
      'BATCH_TOO_LARGE',
      `a batch holds at most ${MAX_BATCH_ITEMS} orders and cancels; this one has ${n}; nothing of it was taken`,
    );
  }
}

/**
 * The POST /orders/batch body `{"items": [{"kind": "order", ...}, {"kind": "cancel", ...}]}`:
 * whole-batch problems throw; each item parses to its fields or to its own 400 (the single
 * call's code and message).
 */
export function parseBatch(body: unknown): Array<BatchItem | DexRefusal> {
  const items = asObject(body).items;
  if (!Array.isArray(items))
    throw new DexRefusal('BAD_REQUEST', `items must be an array of 1 to ${MAX_BATCH_ITEMS} orders and cancels`);
  checkBatchSize(items.length);
  return items.map((item: unknown) => {
    try {
      const kind = asObject(item).kind;
      if (kind === 'order') return { kind, ...parsePlaceOrder(item) };
      if (kind === 'cancel') return { kind, ...parseCancel(item) };
      throw new DexRefusal('INVALID_FIELD', 'kind must be "order" or "cancel"');
    } catch (err) {
      if (err instanceof DexRefusal) return err;
      throw err;
    }
  });
}

/**
 * For each item, whether it is a cancel of an order placed earlier in the same batch: such
 * a cancel is judged at once (after its order), never held waiting for the order to
 * arrive on another connection (docs/dex-api.md "Arrival order").
 */
export function cancelsOfBatchOrders(
  items: ReadonlyArray<{ kind: 'order' | 'cancel'; owner: Uint8Array; orderId: bigint } | undefined>,
): boolean[] {
  const placed = new Set<string>();
  return items.map((it) => {
    if (it === undefined) return false;
    const key = ownerKeyOf(it.owner) + it.orderId.toString();
    if (it.kind === 'order') {
      placed.add(key);
      return false;
    }
    return placed.has(key);
  });
}

/**
 * Hand a batch's items to the order entry: refuse it whole (503 QUEUE_FULL, nothing taken)
 * unless the fair share of `from` has a free place for each call, else start every call in
 * the given order in this one synchronous pass (consecutive places in the arrival line).
 * An item already refused (an DexRefusal) stays refused and takes no place.
 */
export function enterBatch<T>(room: number, calls: ReadonlyArray<(() => Promise<T>) | DexRefusal>): Array<Promise<T>> {
  const needed = calls.filter((c) => !(c instanceof DexRefusal)).length;
  if (needed > room) {
    throw new DexRefusal(
      'QUEUE_FULL',
      `this batch needs ${needed} places in this client address's fair share of pending requests and ${room} are free now; nothing of it was taken; retry later or send a smaller batch`,
    );
  }
  return calls.map((c) => (c instanceof DexRefusal ? Promise.reject(c) : c()));
}

/** Settle each item's answer, in order, as its result. */
export async function settleBatch<T>(answers: ReadonlyArray<Promise<T>>): Promise<Array<BatchResult<T>>> {
  const settled = await Promise.allSettled(answers);
  return settled.map((s) => (s.status === 'fulfilled' ? { ok: true, data: s.value } : itemError(s.reason)));
}

/** An item's refusal as its result (an unexpected error is INTERNAL, as for a single call). */
export function itemError(err: unknown): { ok: false; error: string; code: string; status: number } {
  const e = err instanceof DexRefusal ? err : new DexRefusal('INTERNAL', 'internal error');
  return { ok: false, error: e.message, code: e.code, status: e.status };
}

/** POST /orders/batch on the single-process face (http.ts): each item through DexService as its single call. */
export function placeBatch(
  service: DexService,
  body: unknown,
  from: string | undefined,
): Promise<{ results: Array<BatchResult<unknown>> }> {
  const items = parseBatch(body);
  const judgeNow = cancelsOfBatchOrders(items.map(keyOf));
  const calls = items.map((it, i): (() => Promise<unknown>) | DexRefusal => {
    if (it instanceof DexRefusal) return it;
    if (it.kind === 'order') return () => service.placeOrder(it.intent, it.signature, from);
    return () => service.cancelOrder(it.orderId, it.owner, it.marketId, it.signature, from, judgeNow[i]);
  });
  return settleBatch(enterBatch(service.orderEntry.roomFor(from), calls)).then((results) => ({ results }));
}

function keyOf(
  it: BatchItem | DexRefusal,
): { kind: 'order' | 'cancel'; owner: Uint8Array; orderId: bigint } | undefined {
  if (it instanceof DexRefusal) return undefined;
  return it.kind === 'order' ? { kind: 'order', owner: it.intent.owner, orderId: it.intent.orderId } : it;
}
