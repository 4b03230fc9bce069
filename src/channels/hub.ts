/**
 * The channels hub: the sockets, their subscriptions and the fan-out (docs/chain.md
 * "Channels"). Transport-free (transport.ts binds `ws` sockets to it as Outlets), so its
 * rules are tested without a network too.
 *
 *   - Fan-out: each source emits an item (encoded and framed once) for a key; the hub hands
 *     the same buffer to every subscription of that key (a Feed, seam.ts, which drops what
 *     the subscription already has and holds items while it replays).
 *   - Per socket: at most `subscriptions` open (the next subscribe closes with 4001); at most
 *     `messagesPerSecond` client messages (burst twice that; past it 1008); at most
 *     `refusals` error answers (then 1008); a send queue of at most `queueBytes` (a message
 *     that would pass it closes the socket with 4000 and destroys it `slowCloseGraceMs`
 *     later; a single message larger than the bound still goes to an empty queue).
 *   - A book subscriber whose queue holds `coalesceBytes` or more is behind: its deltas are
 *     folded into one until it has room (coalesce.ts), so it is not closed for being slow.
 *   - Replays send while less than `replayLowWaterBytes` is queued, and a replay that waits
 *     `replayStallMs` for room closes the socket with 4000.
 *   - Heartbeats every `heartbeatMs`, one frame for all sockets.
 */
import type { Logger } from 'pino';
import type {
  ChannelItem,
  ChannelKind,
  ChannelSources,
  ClientRequest,
  Outlet,
  ResumableSource,
  SubscribeRequest,
  Unsubscribe,
} from './interface.js';
import { errorJson, heartbeatJson, subscribedJson, unsubscribedJson, welcomeJson } from './messages.js';
import { parseClientMessage } from './parse.js';
import { CLOSE, DEFAULT_LIMITS, type ChannelLimits, type RefusalCode } from './protocol.js';
import { textFrame } from './frame.js';
import { Feed } from './seam.js';
import { DeltaCoalescer } from './coalesce.js';

interface Subscription {
  id: string | number;
  kind: ChannelKind;
  key: string;
  feed: Feed;
  /** Book subscriptions: folds deltas while the client is behind. */
  coalescer?: DeltaCoalescer;
}

const channelKey = (kind: ChannelKind, key: string) => `${kind}\u0000${key}`;

/** One connected socket. */
export class Connection {
  readonly subs = new Map<string | number, Subscription>();
  readonly keys = new Set<string>();
  tokens: number;
  refill = performance.now();
  refusals = 0;
  closed = false;

  constructor(
    readonly outlet: Outlet,
    readonly address: string,
    limits: ChannelLimits,
  ) {
    this.tokens = limits.messagesPerSecond * 2;
  }
}

export class ChannelHub {
  private readonly conns = new Set<Connection>();
  private readonly fanout: Record<ChannelKind, Map<string, Set<Feed>>> = {
    blocks: new Map(),
    orders: new Map(),
    book: new Map(),
  };
  private readonly stops: Unsubscribe[];
  private readonly heartbeat: NodeJS.Timeout;
  /** Sockets closed with 4000 (for /metrics and tests). */
  slowClosed = 0;

  /** Book deltas folded into another for subscribers that were behind (tests, metrics). */
  foldedDeltas = 0;

  constructor(
    private readonly sources: ChannelSources,
    readonly limits: ChannelLimits = DEFAULT_LIMITS,
    private readonly logger?: Logger,
  ) {
    const route = (kind: ChannelKind) => (key: string, item: ChannelItem) => {
      const feeds = this.fanout[kind].get(key);
      if (feeds !== undefined) for (const f of feeds) f.offer(item);
    };
    this.stops = [
      sources.blocks.onItem(route('blocks')),
      sources.orders.onItem(route('orders')),
      sources.book.onItem(route('book')),
    ];
    this.heartbeat = setInterval(() => this.beat(), limits.heartbeatMs);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.conns.size;
  }

  /** Subscriptions of a channel (tests, metrics). */
  subscribers(kind: ChannelKind, key: string): number {
    return this.fanout[kind].get(key)?.size ?? 0;
  }

  /** A socket opened: it gets the welcome message at once. */
  connect(outlet: Outlet, address: string): Connection {
    const c = new Connection(outlet, address, this.limits);
    this.conns.add(c);
    const head = this.sources.head;
    this.send(c, textFrame(welcomeJson(head.tick(), head.height(), this.limits)));
    return c;
  }

  /** A text message from the socket. */
  message(c: Connection, text: string): void {
    if (c.closed) return;
    const now = performance.now();
    const rate = this.limits.messagesPerSecond;
    c.tokens = Math.min(rate * 2, c.tokens + ((now - c.refill) / 1000) * rate);
    c.refill = now;
    if (c.tokens < 1) return this.end(c, CLOSE.policy, `more than ${rate} messages per second`);
    c.tokens--;
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return this.refuse(c, parsed.id, parsed.code, parsed.message);
    this.handle(c, parsed.request);
  }

  /** The socket went away (any reason): forget it and its subscriptions. */
  disconnected(c: Connection): void {
    c.closed = true;
    this.conns.delete(c);
    for (const s of c.subs.values()) this.drop(s);
    c.subs.clear();
    c.keys.clear();
  }

  /** Close every socket with 1001 and stop. */
  close(): void {
    clearInterval(this.heartbeat);
    for (const s of this.stops) s();
    for (const c of [...this.conns]) this.end(c, CLOSE.goingAway, 'node shutting down', 1000);
  }

  // ---------------------------------------------------------------- requests

  private handle(c: Connection, r: ClientRequest): void {
    if (r.op === 'unsubscribe') {
      const s = c.subs.get(r.id);
      if (s === undefined)
        return this.refuse(c, r.id, 'unknown_id', `no open subscription with id ${JSON.stringify(r.id)}`);
      this.drop(s);
      c.subs.delete(r.id);
      c.keys.delete(channelKey(s.kind, s.key));
      this.send(c, textFrame(unsubscribedJson(r.id, this.sources.head.tick())));
      return;
    }
    if (c.subs.has(r.id))
      return this.refuse(
        c,
        r.id,
        'duplicate_id',
        `a subscription with id ${JSON.stringify(r.id)} is open on this socket`,
      );
    if (c.subs.size >= this.limits.subscriptions)
      return this.end(
        c,
        CLOSE.tooManySubscriptions,
        `too many subscriptions (at most ${this.limits.subscriptions} per socket)`,
      );
    switch (r.channel) {
      case 'blocks':
        return this.resumable(
          c,
          r,
          'blocks',
          '',
          this.sources.blocks,
          r.fromHeight,
          { channel: 'blocks' },
          'from_height',
        );
      case 'orders':
        return this.resumable(
          c,
          r,
          'orders',
          r.owner,
          this.sources.orders,
          r.fromSequence,
          { channel: 'orders', owner: r.owner },
          'from_sequence',
        );
      case 'book':
        return this.book(c, r, r.marketId);
    }
  }

  private resumable(
    c: Connection,
    r: SubscribeRequest,
    kind: 'blocks' | 'orders',
    key: string,
    source: ResumableSource,
    from: number | undefined,
    channel: Record<string, unknown>,
    fromName: string,
  ): void {
    const ck = channelKey(kind, key);
    if (c.keys.has(ck))
      return this.refuse(c, r.id, 'already_subscribed', `this socket already follows this ${kind} channel`);
    const head = source.head(key);
    if (from !== undefined && from > head + 1)
      return this.refuse(c, r.id, 'out_of_range', `${fromName} ${from} is beyond the channel's head ${head} + 1`);
    const start = from ?? head + 1;
    const feed = this.feed(c, r.id, kind, key, start - 1);
    this.send(c, textFrame(subscribedJson(r.id, this.sources.head.tick(), { ...channel, [fromName]: start, head })));
    if (from === undefined || from > head) return;
    feed.catchUp(source, key, start).catch((err: Error) => {
      this.logger?.error({ err }, 'channels: a replay failed');
      this.end(c, CLOSE.internalError, 'replay failed: the node could not read its store');
    });
  }

  private book(c: Connection, r: SubscribeRequest, marketId: string): void {
    const ck = channelKey('book', marketId);
    if (c.keys.has(ck))
      return this.refuse(c, r.id, 'already_subscribed', 'this socket already follows this book channel');
    const snap = this.sources.book.snapshot(marketId);
    if (snap === undefined) return this.refuse(c, r.id, 'unknown_market', `no market ${marketId}`);
    this.feed(c, r.id, 'book', marketId, snap.pos);
    this.send(
      c,
      textFrame(
        subscribedJson(r.id, this.sources.head.tick(), { channel: 'book', market_id: marketId, seq: snap.pos }),
      ),
    );
    this.send(c, snap.frame);
  }

  /** Open a subscription whose feed has delivered up to `last`. */
  private feed(c: Connection, id: string | number, kind: ChannelKind, key: string, last: number): Feed {
    const coalescer =
      kind === 'book'
        ? new DeltaCoalescer(
            {
              queued: () => c.outlet.queuedBytes(),
              write: (frame) => this.send(c, frame),
              folded: () => void this.foldedDeltas++,
            },
            this.limits.coalesceBytes,
            this.limits.coalescePollMs,
          )
        : undefined;
    const deliver =
      coalescer === undefined
        ? (item: ChannelItem) => this.send(c, item.frame)
        : (item: ChannelItem) => coalescer.offer(item);
    const feed = new Feed({ deliver, room: () => this.room(c) }, last, this.limits.catchUpBufferBytes);
    c.subs.set(id, { id, kind, key, feed, coalescer });
    c.keys.add(channelKey(kind, key));
    let set = this.fanout[kind].get(key);
    if (set === undefined) {
      set = new Set();
      this.fanout[kind].set(key, set);
    }
    set.add(feed);
    return feed;
  }

  private drop(s: Subscription): void {
    s.feed.stop();
    s.coalescer?.stop();
    const set = this.fanout[s.kind].get(s.key);
    if (set === undefined) return;
    set.delete(s.feed);
    if (set.size === 0) this.fanout[s.kind].delete(s.key);
  }

  private refuse(c: Connection, id: string | number | null, code: RefusalCode, message: string): void {
    if (++c.refusals > this.limits.refusals)
      return this.end(c, CLOSE.policy, `more than ${this.limits.refusals} refused messages`);
    this.send(c, textFrame(errorJson(id, this.sources.head.tick(), code, message)));
  }

  // ---------------------------------------------------------------- sending

  private send(c: Connection, frame: Buffer): void {
    if (c.closed || !c.outlet.open) return;
    const queued = c.outlet.queuedBytes();
    if (queued > 0 && queued + frame.length > this.limits.queueBytes) {
      this.slowClosed++;
      this.logger?.debug({ queued, address: c.address }, 'channels: closing a client that does not keep up (4000)');
      this.end(c, CLOSE.tooSlow, `too slow: more than ${this.limits.queueBytes} bytes waiting to be sent`);
      return;
    }
    c.outlet.send(frame);
  }

  /** Wait until the client's queue is below the replay low water; false when it stalls or closes. */
  private async room(c: Connection): Promise<boolean> {
    const until = performance.now() + this.limits.replayStallMs;
    while (!c.closed && c.outlet.open && c.outlet.queuedBytes() >= this.limits.replayLowWaterBytes) {
      if (performance.now() > until) {
        this.slowClosed++;
        this.end(c, CLOSE.tooSlow, `too slow: a replay waited ${this.limits.replayStallMs} ms for the client to read`);
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return !c.closed && c.outlet.open;
  }

  /** Close with a code; the socket is destroyed `graceMs` later whatever happens (the close frame waits behind unread data). */
  private end(c: Connection, code: number, reason: string, graceMs = this.limits.slowCloseGraceMs): void {
    if (c.closed) return;
    this.disconnected(c);
    c.outlet.close(code, reason);
    const t = setTimeout(() => c.outlet.terminate(), graceMs);
    t.unref();
  }

  private beat(): void {
    if (this.conns.size === 0) return;
    const frame = textFrame(heartbeatJson(this.sources.head.tick(), this.sources.head.height()));
    for (const c of this.conns) this.send(c, frame);
  }
}
