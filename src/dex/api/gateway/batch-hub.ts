/**
 * The node process's side of a gateway's batch frame (batch-frames.ts): the whole batch is
 * refused at once when its client address's fair share has fewer free places than it has
 * items (nothing taken, no item reply), else it is answered "taken" and its items are
 * started in one pass, in order, so they take consecutive places in the arrival line
 * (src/dex/batch.ts), each answered by its own id like a single request (hub.ts).
 *
 * The per-item work (decoding the payload, the order entry's call, the answer) is hub.ts's,
 * passed in: this file only holds the batch together.
 */
import { DexRefusal, cancelsOfBatchOrders, enterBatch, type Submitted } from '../../index.js';
import { encodeTaken, type BatchRequest } from './batch-frames.js';
import { encodeRefused, type ChannelRequest, type TurnWriter } from './frames.js';

type Work = Promise<Submitted & { outcome: unknown }>;

/** A request's call into the order entry, not started yet, and its answer's other fields. */
export interface PreparedItem {
  /** The order's or cancel's owner and order id (a batch's cancels of its own orders). */
  key: { kind: 'order' | 'cancel'; owner: Uint8Array; orderId: bigint };
  /** Start it; `judgeNow`: a cancel judged at once, never held for its order. */
  start(judgeNow: boolean): Work;
  rest(s: Submitted & { outcome: unknown }): string;
}

export interface BatchHubParts {
  roomFor(from: string): number;
  /** undefined: the item's payload does not decode. */
  prepare(req: ChannelRequest): PreparedItem | undefined;
  answer(id: number, work: Work, rest: PreparedItem['rest']): void;
  malformed(id: number): Buffer;
}

export function handleBatch(batch: BatchRequest, out: TurnWriter, parts: BatchHubParts): void {
  const prepared = batch.items.map((req) => parts.prepare(req));
  const judgeNow = cancelsOfBatchOrders(prepared.map((p) => p?.key));
  const calls = prepared.map((p, i) => (p === undefined ? MALFORMED : () => p.start(judgeNow[i]!)));
  let works: Work[];
  try {
    works = enterBatch(parts.roomFor(batch.from), calls);
  } catch (err) {
    const e = err instanceof DexRefusal ? err : new DexRefusal('INTERNAL', 'internal error');
    out.push(encodeRefused({ id: batch.id, status: e.status, code: e.code, message: e.message }));
    return;
  }
  out.push(encodeTaken(batch.id));
  batch.items.forEach((req, i) => {
    const p = prepared[i];
    if (p === undefined) {
      works[i]!.catch(() => undefined);
      out.push(parts.malformed(req.id));
    } else {
      parts.answer(req.id, works[i]!, p.rest);
    }
  });
}

/** Stands for an item whose payload does not decode: it takes no place. */
const MALFORMED = new DexRefusal('MALFORMED', 'the gateway sent a payload that does not decode');
