/**
 * The sequencer across a thread boundary: the ordering thread (the process's main thread)
 * runs the real Sequencer and hosts it on a MessagePort (`hostSequencer`); the node thread
 * (workers/node.worker.ts: order book, chain, channels, faces) sees it as a `SequencerProxy`
 * that implements the same interface over that port. The one message contract:
 *
 *   node -> ordering   { t: 'call', id, op, args }        a Sequencer method, answered once
 *                      { t: 'prepared', id, batch }        the body of an earlier submitPrepared
 *   ordering -> node   { t: 'reply', id, ok, value | error, status, ordered }
 *                      { t: 'ordered', packed, status, ordered }  a tick as soon as it is durable,
 *                                             packed (src/store/packed.ts) and transferred
 *                      { t: 'proven', tickNumber, proof, status, ordered, tick? }
 *
 * Every message carries the sequencer's status (proven and ordered), so the proxy's
 * synchronous `status()` is the ordering thread's as of the last message. A proven tick
 * travels as its proof alone when its ordered form already crossed (the tick is the
 * ordered one with its proof filled in).
 *
 * With `reads`, the proxy serves tick reads (getTick, readTicks, findTransactions,
 * recentTicks) itself: from the node's memory window of the newest proven ticks (warmed
 * from disk at start, then the ticks it is handed) and, older, from the one LevelDB through
 * the node thread's own handle, up to the last tick the ordering thread called proven. The
 * ordered reads (start-up replays) still cross.
 *
 * What it does not do: anything with a tick but carry it. The port is FIFO both ways, so an
 * answer and the ticks around it keep their order.
 *
 * This file is the contract (the messages and how a refusal crosses); the ordering thread's
 * side is sequencer-host.ts, the node thread's sequencer-proxy.ts.
 */
import type { SequencerStatus, SubmitResult, Tick } from '../core/index.js';
import { SubmitError, type PreparedBatch, type SubmitErrorCode } from '../sequencer/index.js';

/** Ticks per readTicks round trip. */
export const READ_CHUNK = 256;

export type Op =
  | 'submit'
  | 'submitBatch'
  | 'submitPrepared'
  | 'getTick'
  | 'findTransactions'
  | 'findUnprovenTransactions'
  | 'readTicks'
  | 'readOrdered'
  | 'recentTicks';

export interface CallMessage {
  t: 'call';
  id: number;
  op: Op;
  args: unknown[];
}
export interface PreparedMessage {
  t: 'prepared';
  id: number;
  batch?: PreparedBatch;
  error?: WireError; // the preparation failed (a request malformed as a whole: INVALID_ARGUMENT)
}
export type ToOrdering = CallMessage | PreparedMessage;

export interface Statuses {
  status: SequencerStatus;
  ordered: SequencerStatus;
}
export interface WireError {
  code?: string;
  message: string;
}
export type ReplyMessage = Statuses & { t: 'reply'; id: number } & (
    | { ok: true; value: unknown }
    | { ok: false; error: WireError }
  );
export type OrderedMessage = Statuses & { t: 'ordered'; packed: Uint8Array };
export type ProvenMessage = Statuses & { t: 'proven'; tickNumber: number; proof: Uint8Array; tick?: Tick };
export type ToNode = ReplyMessage | OrderedMessage | ProvenMessage;

/**
 * What the node thread starts with: the statuses as of the link's start, and one shared
 * 64-bit cell where it writes the last tick it applied (0 until its start-up replay is done).
 */
export interface LinkSeed extends Statuses {
  applied: SharedArrayBuffer;
}

export type ItemOut = SubmitResult | { error: WireError };

export function itemOut(item: SubmitResult | SubmitError): ItemOut {
  return item instanceof SubmitError ? { error: wireError(item) } : item;
}

export function itemIn(item: ItemOut): SubmitResult | SubmitError {
  return 'error' in item ? (errorIn(item.error) as SubmitError) : item;
}

export function wireError(err: unknown): WireError {
  if (err instanceof SubmitError) return { code: err.code, message: err.message };
  return { message: err instanceof Error ? err.message : String(err) };
}

export function errorIn(e: WireError): Error {
  return e.code !== undefined ? new SubmitError(e.code as SubmitErrorCode, e.message) : new Error(e.message);
}
