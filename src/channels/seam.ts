/**
 * The seam between replay and live, written once for every resumable channel: one
 * subscription's feed, which delivers each position of its channel exactly once, in order.
 *
 *   live          offer(item) delivers items with pos > last delivered; older ones (already
 *                 in a replay or a snapshot) are dropped
 *   catching up   catchUp(source, key, from): live items are held (not delivered) from the
 *                 start; the head is read (the last position published live, so every later
 *                 item is held); the store is replayed from `from` to that head at the
 *                 client's pace; then the held items after the last replayed position are
 *                 delivered and the feed turns live, with no await in between, so no live
 *                 item can slip past. If more than `bufferBytes` are held meanwhile (a long
 *                 replay under a busy channel), they are dropped and the store is replayed
 *                 again from where it stopped, up to the new head: memory stays bounded and
 *                 nothing is lost, because everything published is stored first.
 */
import type { ChannelItem, ResumableSource } from './interface.js';

export interface FeedSink {
  /** Write one item to the client. */
  deliver(item: ChannelItem): void;
  /** Resolves true once the client's queue has room for more replay, false if the feed must stop. */
  room(): Promise<boolean>;
}

export class Feed {
  private catching = false;
  private held: ChannelItem[] = [];
  private heldBytes = 0;
  private overflowed = false;
  private stopped = false;

  /** `last`: the position already delivered (a snapshot's, or the channel head for a live-only start). */
  constructor(
    private readonly sink: FeedSink,
    public last: number,
    private readonly bufferBytes: number,
  ) {}

  get live(): boolean {
    return !this.catching && !this.stopped;
  }

  /** A live item of the channel. */
  offer(item: ChannelItem): void {
    if (this.stopped) return;
    if (this.catching) {
      if (this.overflowed) return;
      this.held.push(item);
      this.heldBytes += item.frame.length;
      if (this.heldBytes > this.bufferBytes) {
        this.overflowed = true;
        this.held = [];
        this.heldBytes = 0;
      }
      return;
    }
    if (item.pos <= this.last) return;
    this.last = item.pos;
    this.sink.deliver(item);
  }

  /** Deliver positions from..head from the store, then go live; false if it stopped first. */
  async catchUp(source: ResumableSource, key: string, from: number): Promise<boolean> {
    this.catching = true;
    this.last = Math.max(this.last, from - 1);
    try {
      for (;;) {
        this.overflowed = false;
        this.held = [];
        this.heldBytes = 0;
        const head = source.head(key);
        for await (const item of source.replay(key, this.last + 1, head)) {
          if (this.stopped) return false;
          if (item.pos <= this.last) continue;
          if (!(await this.sink.room()) || this.stopped) {
            this.stop();
            return false;
          }
          this.last = item.pos;
          this.sink.deliver(item);
        }
        if (this.stopped) return false;
        if (this.overflowed) continue;
        for (const item of this.held) {
          if (item.pos <= this.last) continue;
          this.last = item.pos;
          this.sink.deliver(item);
        }
        this.held = [];
        this.heldBytes = 0;
        this.catching = false;
        return true;
      }
    } catch (err) {
      this.stop();
      throw err;
    }
  }

  /** Stop for good (unsubscribe, socket closed): nothing more is delivered or held. */
  stop(): void {
    this.stopped = true;
    this.catching = false;
    this.held = [];
    this.heldBytes = 0;
  }
}
