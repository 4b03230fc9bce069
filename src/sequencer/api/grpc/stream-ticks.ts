/**
 * One StreamTicks call: replays stored ticks from start_tick (0 = the latest tick), then
 * follows live ones, with a cursor so there are no gaps and no duplicates at the switch.
 *
 * Backpressure policy (docs/api.md "Stream backpressure policy"): each stream has a bounded
 * send queue, counted by each write's completion callback (HTTP/2 flow control of a client
 * that does not read stops those completions); all streams together share one byte budget.
 * When its queue is full the session sleeps until its client takes something: it is not
 * woken per tick, reads nothing from the store and encodes nothing meanwhile. Replay reads
 * from the store only as many ticks as the queue can take, in messages AND in bytes (issue 19:
 * 256 loaded ticks per read, all queued, held ~15 MiB per paused replay stream). Once a stream has caught up it
 * reads from the shared TickFeed window; if its next tick has left the window it is ended
 * with RESOURCE_EXHAUSTED and a message naming the tick to resume from. A stream whose
 * writes make no progress for the stall timeout is reset by the registry (tick-streams.ts).
 *
 * Release is immediate and complete whatever the moment: a cancel, a closed connection, a
 * reset or the end of the call detaches the session from the feed and the registry at once,
 * without waiting for writes that will never complete.
 *
 * Pace: every tick written waits for the readers' byte budget of the main thread (src/wire/
 * reader-pace.ts, shared with StreamTx): readers take the main thread's spare time, and when
 * ordering keeps it busy they get a floor rate together and fall behind within the bounds
 * above (a live stream that leaves the window is ended as too slow; a replay goes slower).
 *
 * Throughput: grpc-js's stream hands one message to HTTP/2 per write completion, i.e.
 * one per event-loop turn, which under load (turns of ~10 ms) is far slower than the
 * clock ticks. The session therefore gives the call a `_writev` (Node's Writable batch
 * hook, built only on the call's own `_write`) so every queued tick goes to HTTP/2 in
 * one turn.
 */
import { status as grpcStatus, type ServerWritableStream } from '@grpc/grpc-js';
import type { Sequencer } from '../../index.js';
import type { Tick } from '../../../core/index.js';
import { enableBatchedWrites, http2StreamClosed, resetHttp2Stream, type ReaderPace } from '../../../wire/index.js';
import { estimateEncodedBytes, type TickFeed } from './tick-feed.js';
import { encodeTick } from './encode.js';

/** Ticks read from the store per replay step (fewer when the send queue has less room). */
const REPLAY_CHUNK = 256;

export interface StreamQueueLimits {
  messages: number; // ticks handed to grpc-js and not yet taken by HTTP/2, per stream
  bytes: number; // their bytes, per stream
}

/** Per-stream send queue bounds. */
export const STREAM_QUEUE_MESSAGES = 256;
export const STREAM_QUEUE_BYTES = 1024 * 1024;

/** What a session shares with the other open streams (the registry, tick-streams.ts). */
export interface SessionContext {
  sequencer: Sequencer;
  feed: TickFeed;
  /** The main thread's byte budget for readers (src/wire/reader-pace.ts), shared with StreamTx; none for a full node's stream. */
  pace: ReaderPace | undefined;
  queue: StreamQueueLimits;
  /** Bytes queued by all streams together, and their bound. */
  shared: { queuedBytes: number; maxQueuedBytes: number };
  /** Called once when the session is released (it no longer counts as open). */
  onRelease(session: TickStreamSession): void;
}

export interface StreamOutcome {
  code: grpcStatus;
  details: string;
  sent: number;
}

const tooSlow = (next: number) =>
  `stream fell too far behind the live ticks (tick ${next} left the server's stream window); reconnect with start_tick=${next} to resume`;

export class TickStreamSession {
  /** Ticks handed to grpc-js whose write has not completed, and their bytes. */
  queuedMessages = 0;
  queuedBytes = 0;
  /** performance.now() of the last write progress (a completion, or the queue becoming non-empty). */
  progressAt = performance.now();
  private released = false;
  private ending = false;
  private sent = 0;
  private wakeUp: (() => void) | undefined;
  private readonly wake = () => {
    const w = this.wakeUp;
    this.wakeUp = undefined;
    w?.();
  };
  private readonly onGone = () => this.release();

  constructor(
    private readonly call: ServerWritableStream<unknown, Buffer>,
    private readonly ctx: SessionContext,
  ) {}

  /** Open and still counted (not released). */
  get open(): boolean {
    return !this.released;
  }

  /** The stream's writes have made no progress for `ms` although some are pending. */
  stalledFor(now: number): number {
    return this.queuedMessages > 0 ? now - this.progressAt : 0;
  }

  /**
   * Reset the stream (its client stopped reading): RST_STREAM, so its queued ticks are freed
   * now rather than when the connection closes; a status where the stream is unreachable.
   */
  reset(reason: string): void {
    if (this.released) return;
    if (!resetHttp2Stream(this.call)) this.call.emit('error', { code: grpcStatus.RESOURCE_EXHAUSTED, details: reason });
    this.release();
  }

  /**
   * End the stream for a newer one on the same connection (tick-streams.ts) and release its
   * slot now. A client that keeps up (nothing queued) gets the status with `reason`; one whose
   * queue is stuck behind its window is reset (RST_STREAM), as a stalled stream is, so nothing
   * of it stays queued in grpc-js or HTTP/2.
   */
  displace(reason: string): void {
    if (this.released) return;
    if (this.queuedMessages > 0 || !this.endWithStatus(grpcStatus.RESOURCE_EXHAUSTED, reason)) {
      if (!resetHttp2Stream(this.call))
        this.call.emit('error', { code: grpcStatus.RESOURCE_EXHAUSTED, details: reason });
    }
    this.release();
  }

  /** Send the final status unless the stream is already ending; false when it was. */
  private endWithStatus(code: grpcStatus, details: string): boolean {
    if (this.ending) return false;
    this.ending = true;
    if (code === grpcStatus.OK) this.call.end();
    else this.call.emit('error', { code, details });
    return true;
  }

  /** Serve the stream from `startTick` (0 = the latest tick) until it ends. */
  async run(startTick: number): Promise<StreamOutcome> {
    const { call } = this;
    call.on('cancelled', this.onGone);
    call.on('close', this.onGone);
    if (call.cancelled || http2StreamClosed(call) === true) {
      this.release(); // reset before the handler ran: grpc-js will not tell us again
      return { code: grpcStatus.CANCELLED, details: 'cancelled before the stream started', sent: 0 };
    }
    enableBatchedWrites(call);
    this.ctx.feed.attach();
    try {
      return await this.loop(startTick);
    } finally {
      this.ctx.feed.stopWaiting(this.wake);
      this.ctx.feed.detach();
    }
  }

  private async loop(startTick: number): Promise<StreamOutcome> {
    const { feed } = this.ctx;
    let next = startTick === 0 ? Math.max(1, feed.head) : startTick;
    let live = false;
    while (!this.released) {
      if (!this.canWrite()) {
        await this.sleep('drain');
        continue;
      }
      const head = feed.head;
      if (next > head) {
        if (feed.closed) return this.finish(grpcStatus.OK, 'node shutting down');
        live = true;
        await this.sleep('tick');
        continue;
      }
      if (next >= feed.oldest()) {
        const buf = feed.get(next);
        if (buf) {
          if (!(await this.paced(buf.length))) break;
          this.write(buf);
          next++;
          continue;
        }
      }
      if (live) return this.finish(grpcStatus.RESOURCE_EXHAUSTED, tooSlow(next));
      // Replay from the store: only what the queue can take now, below the feed's window.
      const room = Math.min(
        REPLAY_CHUNK,
        this.ctx.queue.messages - this.queuedMessages,
        Math.min(head, feed.oldest() - 1) - next + 1,
      );
      const ticks = await this.read(next, next + Math.max(1, room) - 1);
      if (this.released) break;
      for (const tick of ticks) {
        // A store seeded from a snapshot (a full node's --follow-from snapshot) starts after tick 1.
        if (tick.tickNumber > next) return this.startsLater(tick.tickNumber, next);
        if (tick.tickNumber !== next)
          return this.finish(
            grpcStatus.INTERNAL,
            `tick store returned tick ${tick.tickNumber} where ${next} was expected`,
          );
        const buf = feed.get(next) ?? encodeTick(tick);
        if (!(await this.paced(buf.length))) break;
        this.write(buf);
        next++;
      }
      if (ticks.length === 0) {
        // Nothing in the range asked: a seeded store may start past it, so look beyond it.
        const [first] = await this.read(next, head);
        if (this.released) break;
        if (first !== undefined && first.tickNumber > next) return this.startsLater(first.tickNumber, next);
        return this.finish(grpcStatus.INTERNAL, `tick ${next} is missing from the tick store`);
      }
    }
    return { code: grpcStatus.CANCELLED, details: 'cancelled by the client', sent: this.sent };
  }

  /** OUT_OF_RANGE for a replay from below the first tick this node holds. */
  private startsLater(first: number, next: number): StreamOutcome {
    return this.finish(
      grpcStatus.OUT_OF_RANGE,
      `this node's ticks start at tick ${first} (it started from a snapshot): ask from ${first} on, or ask a node that holds tick ${next}`,
    );
  }

  /**
   * Read ticks [from, to] from the store into memory, stopping once they fill the bytes the
   * send queue can take now (at least one tick); no store iterator stays open while waiting.
   */
  private async read(from: number, to: number): Promise<Tick[]> {
    const out: Tick[] = [];
    const room = this.byteRoom();
    let bytes = 0;
    for await (const tick of this.ctx.sequencer.readTicks(from, to)) {
      out.push(tick);
      bytes += estimateEncodedBytes(tick);
      if (this.released || bytes >= room) break;
    }
    return out;
  }

  /** Bytes this stream may still queue: its own bound and the shared one. */
  private byteRoom(): number {
    const { queue, shared } = this.ctx;
    return Math.min(queue.bytes - this.queuedBytes, shared.maxQueuedBytes - shared.queuedBytes);
  }

  private canWrite(): boolean {
    if (this.queuedMessages === 0) return true; // one at a time is always allowed: no deadlock on the shared budget
    const { queue, shared } = this.ctx;
    return (
      this.queuedMessages < queue.messages &&
      this.queuedBytes < queue.bytes &&
      shared.queuedBytes < shared.maxQueuedBytes
    );
  }

  /** Wait for the readers' pace to let `bytes` through; false when the stream was released meanwhile. */
  private async paced(bytes: number): Promise<boolean> {
    const { pace } = this.ctx;
    if (pace === undefined || pace.take(bytes)) return true;
    await pace.admit(bytes, () => this.released);
    return !this.released;
  }

  private write(buf: Buffer): void {
    if (this.queuedMessages === 0) this.progressAt = performance.now();
    this.queuedMessages++;
    this.queuedBytes += buf.length;
    this.ctx.shared.queuedBytes += buf.length;
    this.sent++;
    this.call.write(buf, () => this.completed(buf.length));
  }

  private completed(bytes: number): void {
    if (this.released) return; // already uncounted
    this.queuedMessages--;
    this.queuedBytes -= bytes;
    this.ctx.shared.queuedBytes -= bytes;
    this.progressAt = performance.now();
    this.wake();
  }

  private sleep(why: 'tick' | 'drain'): Promise<void> {
    if (why === 'tick') this.ctx.feed.waitForTick(this.wake);
    return new Promise<void>((resolve) => (this.wakeUp = resolve));
  }

  /**
   * End the call with a status. The session leaves the feed now (no per-tick work) but stays
   * open until grpc-js reports the stream closed (the client took the status), or until the
   * registry resets it for making no progress.
   */
  private finish(code: grpcStatus, details: string): StreamOutcome {
    if (!this.released) this.endWithStatus(code, details);
    return { code, details, sent: this.sent };
  }

  /** Stop counting this stream: detach from the feed and the registry, forget its queue. */
  private release(): void {
    if (this.released) return;
    this.released = true;
    this.ctx.shared.queuedBytes -= this.queuedBytes;
    this.queuedBytes = 0;
    this.queuedMessages = 0;
    this.ctx.feed.stopWaiting(this.wake);
    this.call.off('cancelled', this.onGone);
    this.call.off('close', this.onGone);
    this.ctx.onRelease(this);
    this.wake();
  }
}
