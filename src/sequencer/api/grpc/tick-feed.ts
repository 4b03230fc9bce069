/**
 * The live end of StreamTicks: while at least one stream is open, the feed keeps the most
 * recent durable ticks in a window shared by all streams, bounded in ticks and in bytes, and
 * encodes each of them into a protobuf Tick at most once, the first time a stream asks for it
 * (lazily: while every stream is stalled, nothing is encoded). Streams hold only a cursor
 * (the next tick number); a stream whose next tick has left the window is too slow and is
 * ended by its session (stream-ticks.ts).
 *
 * Per tick the feed does O(1) work plus a pass over the tick's transactions to estimate its
 * size, and wakes only the streams that wait for a new tick (caught up, send queue not
 * full). Streams that wait for their client (send queue full) are not touched per tick: a
 * stalled stream costs nothing until its client reads again.
 *
 * The window is a ring indexed by tick number (slot = n mod windowTicks) holding the raw
 * tick until it is encoded, then only the encoded bytes. `low` is its oldest tick.
 */
import type { Sequencer } from '../../index.js';
import type { Tick } from '../../../core/index.js';
import { encodeTick } from './encode.js';

export interface TickFeedOptions {
  windowTicks: number; // most ticks kept (default 65,536)
  windowBytes: number; // most bytes kept, raw ticks estimated as encoded (default 64 MiB)
}

export const DEFAULT_FEED_OPTIONS: TickFeedOptions = { windowTicks: 65_536, windowBytes: 64 * 1024 * 1024 };

/** Something woken when a new tick arrives, and when the feed closes. */
export type FeedWaker = () => void;

/** Encoded size of a Tick without encoding it: hex VDF fields and hashes, plus each transaction. */
export function estimateEncodedBytes(tick: Tick): number {
  let n = 2200; // 4 x 512 hex characters, 64 hex batch hash, numbers and tags
  for (const o of tick.transactions) {
    const t = o.transaction;
    n += 64 + t.txId.length + t.payload.length + t.signature.length + t.publicKey.length;
  }
  return n;
}

export class TickFeed {
  private readonly raw: Array<Tick | undefined>;
  private readonly encoded: Array<Buffer | undefined>;
  private readonly sizes: Float64Array;
  private bytes = 0;
  private low = 1;
  private users = 0;
  private unsubscribe: (() => void) | undefined;
  private readonly waiting = new Set<FeedWaker>();
  private closedFlag = false;
  /** Newest durable tick known while streams are attached (the sequencer's height when the first attached). */
  head = 0;
  /** Ticks this feed has encoded (each at most once): for tests and benchmarks. */
  encodedCount = 0;

  constructor(
    private readonly sequencer: Sequencer,
    private readonly options: TickFeedOptions = DEFAULT_FEED_OPTIONS,
  ) {
    this.raw = new Array<Tick | undefined>(options.windowTicks);
    this.encoded = new Array<Buffer | undefined>(options.windowTicks);
    this.sizes = new Float64Array(options.windowTicks);
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Bytes held in the window (encoded ticks, and raw ones as estimated). */
  get windowBytes(): number {
    return this.bytes;
  }

  /** A stream starts using the feed; the feed follows the sequencer while any does. */
  attach(): void {
    if (this.users++ === 0) {
      this.head = Math.max(this.head, this.sequencer.status().currentTick);
      this.low = this.head + 1;
      this.unsubscribe = this.sequencer.onTick((tick) => this.push(tick));
    }
  }

  detach(): void {
    if (--this.users > 0) return;
    this.users = 0;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    while (this.low <= this.head) this.drop(this.low++);
    this.bytes = 0;
  }

  /** Wake `wake` once, when the next tick arrives (or the feed closes). */
  waitForTick(wake: FeedWaker): void {
    this.waiting.add(wake);
  }

  stopWaiting(wake: FeedWaker): void {
    this.waiting.delete(wake);
  }

  /** Oldest tick number in the window (head + 1 when it is empty). */
  oldest(): number {
    return this.low;
  }

  /** Encoded tick n if it is in the window (encoded now if no stream asked for it before). */
  get(n: number): Buffer | undefined {
    if (n < this.low || n > this.head) return undefined;
    const slot = n % this.options.windowTicks;
    const done = this.encoded[slot];
    if (done) return done;
    const tick = this.raw[slot];
    if (!tick || tick.tickNumber !== n) return undefined;
    const buf = encodeTick(tick);
    this.encodedCount++;
    this.raw[slot] = undefined;
    this.encoded[slot] = buf;
    this.bytes += buf.length - this.sizes[slot]!;
    this.sizes[slot] = buf.length;
    this.evictOverBytes(n);
    return buf;
  }

  /** Node shutdown: waiting streams wake, send what they can of the ticks so far, and end. */
  close(): void {
    this.closedFlag = true;
    this.wakeAll();
  }

  private push(tick: Tick): void {
    const n = tick.tickNumber;
    if (n <= this.head) return; // never twice
    if (n !== this.head + 1) {
      // A gap should not happen (ticks are published in order); start the window afresh.
      while (this.low <= this.head) this.drop(this.low++);
      this.low = n;
    }
    this.head = n;
    const w = this.options.windowTicks;
    if (this.low <= n - w) {
      while (this.low <= n - w) this.drop(this.low++);
    }
    const slot = n % w;
    const size = estimateEncodedBytes(tick);
    this.raw[slot] = tick;
    this.encoded[slot] = undefined;
    this.sizes[slot] = size;
    this.bytes += size;
    this.evictOverBytes(n);
    this.wakeAll();
  }

  /** Drop the oldest ticks while over the byte bound, never `keep` or anything newer. */
  private evictOverBytes(keep: number): void {
    while (this.bytes > this.options.windowBytes && this.low < keep) this.drop(this.low++);
  }

  private drop(n: number): void {
    const slot = n % this.options.windowTicks;
    this.bytes -= this.sizes[slot]!;
    this.sizes[slot] = 0;
    this.raw[slot] = undefined;
    this.encoded[slot] = undefined;
  }

  private wakeAll(): void {
    if (this.waiting.size === 0) return;
    const wakers = [...this.waiting];
    this.waiting.clear();
    for (const wake of wakers) wake();
  }
}
