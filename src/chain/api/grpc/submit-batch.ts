/**
 * ChainService.SubmitTxBatch (docs/chain.md "SubmitTxBatch"): up to MAX_BATCH_ITEMS signed
 * orders and cancels in one call, each checked as SubmitTx checks it (submit-check.ts),
 * handed to the order entry in the given order in one pass (src/dex/batch.ts: consecutive
 * places in the arrival line, the fair share judged for the whole batch), and each answered
 * with what SubmitTx would have answered: its record, or its status code and details.
 *
 * Refused whole, before any item is taken, with the call's own status: INVALID_ARGUMENT
 * for a malformed message, over 64 KiB, no items or more than 64; RESOURCE_EXHAUSTED when
 * the per-address rate limit (a token per item) or the address's fair share of
 * --max-pending has no room for every item; UNAVAILABLE while the node starts or stops.
 * Signatures are checked on the order book's signature pool (as SubmitTx without intake
 * threads); market creations are not batch items.
 */
import {
  status as grpcStatus,
  type Metadata,
  type ServerUnaryCall,
  type ServiceError,
  type sendUnaryData,
} from '@grpc/grpc-js';
import {
  DexRefusal,
  cancelsOfBatchOrders,
  checkBatchSize,
  enterBatch,
  MAX_BATCH_BYTES,
  type OrderEntry,
} from '../../../dex/index.js';
import { isIntakeRefusal } from '../../../intake/index.js';
import { Writer, peerAddress } from '../../../wire/index.js';
import type { Chain } from '../../core/index.js';
import { encodeSubmitTxResponse } from './encode.js';
import type { PeerRateLimiter } from './rate-limit.js';
import { checkSubmitTx, type CheckedSubmitTx, type SubmitTxRequest } from './submit-check.js';

type Status = Partial<ServiceError> & { code: grpcStatus; details: string };
type Applied = Promise<{ applied: { continuumSequence: bigint } }>;

export interface SubmitTxBatchParts {
  backend: () => { chain: Chain; gateway: OrderEntry } | undefined;
  stopping: () => boolean;
  /** SubmitTx's per-address limiter: a batch takes one token per item. */
  limiter: PeerRateLimiter;
  /** SubmitTx's status of a refusal (service.ts). */
  status: (err: unknown) => Status;
  retryHint: () => Metadata;
}

/** The details of a request above the byte limit. */
export function batchTooLarge(bytes: number): string {
  return `SubmitTxBatch request of ${bytes} bytes is above the limit of ${MAX_BATCH_BYTES}; nothing of it was taken`;
}

type Item = { refused: Status } | { checked: CheckedSubmitTx & { tx: 'order' | 'cancel' } };

export function submitTxBatchHandler(parts: SubmitTxBatchParts) {
  return (
    call: ServerUnaryCall<{ items: SubmitTxRequest[] } | { malformed: string }, Buffer>,
    callback: sendUnaryData<Buffer>,
  ) => {
    const req = call.request;
    if ('malformed' in req) return callback({ code: grpcStatus.INVALID_ARGUMENT, details: req.malformed });
    if (parts.stopping()) return callback({ code: grpcStatus.UNAVAILABLE, details: 'node is shutting down' });
    const backend = parts.backend();
    if (!backend) return callback({ code: grpcStatus.UNAVAILABLE, details: 'the chain is starting; retry shortly' });
    try {
      checkBatchSize(req.items.length);
    } catch (err) {
      return callback({
        code: grpcStatus.INVALID_ARGUMENT,
        details: `${(err as DexRefusal).code}: ${(err as DexRefusal).message}`,
      });
    }
    if (!parts.limiter.take(call.getPeer(), performance.now(), req.items.length)) {
      const details = `rate limit: at most ${parts.limiter.rate} SubmitTx (a batch counts each item) per second per client address; nothing of this batch was taken`;
      return callback({ code: grpcStatus.RESOURCE_EXHAUSTED, details, metadata: parts.retryHint() });
    }
    const from = peerAddress(call.getPeer());
    const items = req.items.map(checkItem);
    const judgeNow = cancelsOfBatchOrders(items.map(keyOf));
    const calls = items.map((it, i): (() => Applied) | DexRefusal => {
      if ('refused' in it) return ITEM_REFUSED;
      const c = it.checked;
      if (c.tx === 'order') return () => backend.gateway.placeOrder(c.intent, c.signature, { from });
      return () =>
        backend.gateway.cancelOrder(c.orderId, c.owner, c.marketId, c.signature, { from, judgeNow: judgeNow[i]! });
    });
    let works: Applied[];
    try {
      works = enterBatch(backend.gateway.roomFor(from), calls);
    } catch (err) {
      const s = parts.status(err);
      return callback({ ...s, metadata: parts.retryHint() });
    }
    answer(items, works, backend.chain, parts).then(
      (bytes) => callback(null, bytes),
      (err: unknown) => callback(parts.status(err)),
    );
  };
}

/** Stands for an item refused by its own checks: it takes no place (its own status is answered). */
const ITEM_REFUSED = new DexRefusal('BAD_REQUEST', 'refused by its checks');

function checkItem(item: SubmitTxRequest): Item {
  const c = checkSubmitTx(item);
  if (isIntakeRefusal(c)) return { refused: c.refused as Status };
  if (c.tx === 'market' || c.tx === 'cancel_all') {
    const what = c.tx === 'market' ? 'create a market' : 'send a mass cancel';
    return {
      refused: {
        code: grpcStatus.INVALID_ARGUMENT,
        details: `a batch holds orders and cancels only: ${what} with SubmitTx`,
      },
    };
  }
  return { checked: c };
}

function keyOf(it: Item): { kind: 'order' | 'cancel'; owner: Uint8Array; orderId: bigint } | undefined {
  if ('refused' in it) return undefined;
  const c = it.checked;
  return c.tx === 'order'
    ? { kind: 'order', owner: c.intent.owner, orderId: c.intent.orderId }
    : { kind: 'cancel', owner: c.owner, orderId: c.orderId };
}

/** SubmitTxBatchResponse once every item settled: each its record (as derived) or its status. */
async function answer(items: Item[], works: Applied[], chain: Chain, parts: SubmitTxBatchParts): Promise<Buffer> {
  const settled = await Promise.allSettled(works);
  const results: Array<Buffer | Status> = [];
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    const s = settled[i]!;
    if ('refused' in it) results.push(it.refused);
    else if (s.status === 'rejected') results.push(parts.status(s.reason));
    else {
      const t = await chain.derivedRecord(s.value.applied.continuumSequence);
      results.push(
        t
          ? encodeSubmitTxResponse(t)
          : { code: grpcStatus.INTERNAL, details: 'the transaction was applied but its chain record is missing' },
      );
    }
  }
  const w = new Writer(256 + results.length * 600);
  for (const r of results) {
    w.nested(1, (res) => {
      if (Buffer.isBuffer(r)) res.message(1, r);
      else res.nested(2, (e) => e.uint(1, r.code).string(2, r.details));
    });
  }
  return w.finish();
}
