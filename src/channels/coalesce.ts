/**
 * Book deltas for a subscriber that is behind (docs/chain.md "Book deltas for a client that
 * is behind"): while the client's send queue holds at least `coalesceBytes`, its deltas are
 * not queued one by one but folded into one held delta; once the queue is below that again
 * (looked at on the next delta and every `pollMs`), the held delta goes out as one message.
 *
 * Folding is exact because a delta carries each changed level's new totals, not a
 * difference: the folded delta holds, per (side, price), the level as the last folded delta
 * left it. It has `seq` = the last sequence folded in and `first_seq` = the first, so a
 * client applies it when `first_seq` = its previous seq + 1, and its book then equals the
 * book after `seq`; its `checksum` is the last folded delta's (the book's after `seq`). A
 * single held delta goes out as it was (its own frame, no `first_seq`).
 *
 * Memory per subscriber is bounded by the market's distinct levels, not by how far behind
 * the client is. Blocks and order events are not folded (every one is kept in the store and
 * a client reads each).
 */
import { bookDeltaJson } from './book-source.js';
import type { LevelRow } from './book-levels.js';
import { textFrame } from './frame.js';
import type { ChannelItem } from './interface.js';

export interface CoalesceSink {
  /** Bytes the client's socket has not sent yet. */
  queued(): number;
  /** Queue one frame for the client. */
  write(frame: Buffer): void;
  /** Told each time a delta is folded into another instead of sent alone. */
  folded?(): void;
}

interface Held {
  first: number;
  last: ChannelItem;
  count: number;
  bids: Map<bigint, LevelRow>;
  asks: Map<bigint, LevelRow>;
}

export class DeltaCoalescer {
  private held: Held | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: CoalesceSink,
    private readonly behindBytes: number,
    private readonly pollMs: number,
  ) {}

  /** One delta for this subscriber, in sequence order. */
  offer(item: ChannelItem): void {
    if (item.book === undefined) {
      this.flush();
      return this.sink.write(item.frame);
    }
    if (this.held === undefined && this.sink.queued() < this.behindBytes) return this.sink.write(item.frame);
    this.fold(item);
    if (this.sink.queued() < this.behindBytes) this.flush();
    else this.arm();
  }

  /** Nothing more for this subscriber: drop what is held. */
  stop(): void {
    this.held = undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fold(item: ChannelItem): void {
    const book = item.book!;
    this.held ??= { first: item.pos, last: item, count: 0, bids: new Map(), asks: new Map() };
    const h = this.held;
    h.last = item;
    h.count++;
    if (h.count > 1) this.sink.folded?.();
    for (const row of book.bids) h.bids.set(row[0], row);
    for (const row of book.asks) h.asks.set(row[0], row);
  }

  private flush(): void {
    const h = this.held;
    this.held = undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (h === undefined) return;
    if (h.count === 1) return this.sink.write(h.last.frame);
    const last = h.last.book!;
    const { marketId, tick, checksum } = last;
    const rows = { marketId, tick, checksum, bids: [...h.bids.values()], asks: [...h.asks.values()] };
    this.sink.write(textFrame(bookDeltaJson(rows, h.last.pos, h.first)));
  }

  private arm(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.held === undefined) return;
      if (this.sink.queued() < this.behindBytes) this.flush();
      else this.arm();
    }, this.pollMs);
    this.timer.unref();
  }
}
