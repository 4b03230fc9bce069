/**
 * The open StreamTicks calls of one gRPC face: admission (a node-wide limit and a limit per
 * client connection, so one client cannot take every slot), the send-queue byte budget all
 * streams share, and the stall sweep that resets streams whose client stopped reading.
 *
 *   limits     maxStreams (1,024) per node, maxStreamsPerConnection (16) per HTTP/2 connection
 *   newest     a new stream on a connection that has 16 open displaces that connection's
 *              oldest one (RESOURCE_EXHAUSTED naming the limit) rather than being refused:
 *              grpc-js (<= 1.14.7) never sends the RST_STREAM of a call cancelled in the turn
 *              it was created, so such a stream looks like a live reader here forever; refusing
 *              the newest would lock that connection out of StreamTicks for good (issue 19)
 *   queues     per stream 256 ticks / 1 MiB, all streams together 64 MiB (stream-ticks.ts)
 *   stalls     a stream with writes pending and no progress for stallMs (30 s) is reset
 *              (RST_STREAM): its queued ticks are freed and its slot is released at once
 *
 * The sweep runs once per second while streams are open: O(open streams) per second, not per
 * tick, whatever those streams do.
 */
import type { ServerWritableStream } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { Sequencer } from '../../index.js';
import { readerPace, type ReaderPace } from '../../../wire/index.js';
import { MAX_TICK_STREAMS } from '../limits.js';
import {
  STREAM_QUEUE_BYTES,
  STREAM_QUEUE_MESSAGES,
  TickStreamSession,
  type SessionContext,
  type StreamOutcome,
  type StreamQueueLimits,
} from './stream-ticks.js';
import type { TickFeed } from './tick-feed.js';

export interface TickStreamLimits {
  maxStreams: number; // open streams per node (default 1,024)
  maxStreamsPerConnection: number; // open streams per client connection (default 16)
  queue: StreamQueueLimits; // per stream (default 256 ticks / 1 MiB)
  maxQueuedBytes: number; // all streams together (default 64 MiB)
  stallMs: number; // reset a stream whose pending writes make no progress this long (default 30 s)
}

export const DEFAULT_TICK_STREAM_LIMITS: TickStreamLimits = {
  maxStreams: MAX_TICK_STREAMS,
  maxStreamsPerConnection: 16,
  queue: { messages: STREAM_QUEUE_MESSAGES, bytes: STREAM_QUEUE_BYTES },
  maxQueuedBytes: 64 * 1024 * 1024,
  stallMs: 30_000,
};

const SWEEP_MS = 1000;

export type Admission = { ok: true; outcome: Promise<StreamOutcome> } | { ok: false; reason: string };

export class TickStreams {
  private readonly sessions = new Set<TickStreamSession>();
  /** Open sessions per client connection (peer address), oldest first. */
  private readonly perConnection = new Map<string, Set<TickStreamSession>>();
  private readonly peers = new Map<TickStreamSession, string>();
  private readonly shared: SessionContext['shared'];
  private sweeper: NodeJS.Timeout | undefined;
  /** Streams reset for making no progress (tests, logs). */
  stalledResets = 0;
  /** Streams ended for a newer one on the same connection (tests, logs). */
  displaced = 0;

  constructor(
    private readonly sequencer: Sequencer,
    private readonly feed: TickFeed,
    private readonly logger: Logger,
    private readonly limits: TickStreamLimits = DEFAULT_TICK_STREAM_LIMITS,
    private readonly pace: ReaderPace = readerPace,
  ) {
    this.shared = { queuedBytes: 0, maxQueuedBytes: limits.maxQueuedBytes };
    pace.busyWhen(admittedSince(sequencer));
  }

  /** Open streams (svc_stream_clients). */
  get size(): number {
    return this.sessions.size;
  }

  /** Bytes queued by all streams, not yet taken by HTTP/2. */
  get queuedBytes(): number {
    return this.shared.queuedBytes;
  }

  /** Open streams whose pending writes have made no progress for at least `ms` (tests, logs). */
  stalledCount(ms: number): number {
    const now = performance.now();
    let n = 0;
    for (const s of this.sessions) if (s.stalledFor(now) >= ms) n++;
    return n;
  }

  /** Admit and serve one call from `startTick`, or say why not (RESOURCE_EXHAUSTED). */
  open(
    call: ServerWritableStream<unknown, Buffer>,
    startTick: number,
    options: { paced: boolean } = { paced: true },
  ): Admission {
    if (this.sessions.size >= this.limits.maxStreams) {
      return { ok: false, reason: `too many tick streams open (at most ${this.limits.maxStreams}); retry later` };
    }
    const peer = call.getPeer();
    const onPeer = this.perConnection.get(peer);
    if (onPeer && onPeer.size >= this.limits.maxStreamsPerConnection) {
      const oldest = onPeer.values().next().value!;
      this.displaced++;
      this.logger.debug({ peer }, 'tick stream displaced by a newer one on its connection');
      oldest.displace(
        `replaced by a newer tick stream on this connection (at most ${this.limits.maxStreamsPerConnection} open per connection)`,
      );
    }
    const session = new TickStreamSession(call, {
      sequencer: this.sequencer,
      feed: this.feed,
      pace: options.paced ? this.pace : undefined,
      queue: this.limits.queue,
      shared: this.shared,
      onRelease: (s) => this.forget(s),
    });
    this.sessions.add(session);
    this.peers.set(session, peer);
    const mine = this.perConnection.get(peer) ?? new Set<TickStreamSession>();
    mine.add(session);
    this.perConnection.set(peer, mine);
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
    return { ok: true, outcome: session.run(startTick) };
  }

  /** Stop sweeping (the face is closing; sessions end through the feed). */
  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private sweep(): void {
    const now = performance.now();
    for (const s of [...this.sessions]) {
      const stalled = s.stalledFor(now);
      if (stalled > this.limits.stallMs) {
        this.stalledResets++;
        this.logger.debug(
          { peer: this.peers.get(s), stalledMs: Math.round(stalled) },
          'tick stream reset: its client stopped reading',
        );
        s.reset(`no progress for ${Math.round(stalled / 1000)} s: the client stopped reading`);
      }
    }
  }

  private forget(s: TickStreamSession): void {
    if (!this.sessions.delete(s)) return;
    const peer = this.peers.get(s)!;
    this.peers.delete(s);
    const mine = this.perConnection.get(peer);
    mine?.delete(s);
    if (mine?.size === 0) this.perConnection.delete(peer);
    if (this.sessions.size === 0) this.close();
  }
}

/** A probe for the readers' pace: true when the sequencer admitted transactions since the last call. */
function admittedSince(sequencer: Sequencer): () => boolean {
  let last = -1;
  return () => {
    const s = sequencer.status();
    const admitted = s.totalTransactions + s.pendingTransactions;
    const busy = last >= 0 && admitted !== last;
    last = admitted;
    return busy;
  };
}
