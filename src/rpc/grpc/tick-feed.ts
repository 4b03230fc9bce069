/**
 * The live end of StreamTicks: while at least one stream is open, every durable tick is
 * encoded ONCE into a protobuf Tick and kept in a shared window of the most recent ticks,
 * bounded both in ticks and in bytes. Streams hold only a cursor (the next tick number)
 * into this window, so a slow stream costs no memory of its own; a stream that falls out
 * of the window is too slow and is ended by its session (stream-ticks.ts).
 */
import type { Sequencer } from '../../sequencer/interface.js';
import type { Tick } from '../../sequencer/types.js';
import { encodeTick } from './wire.js';

export interface TickFeedOptions {
  windowTicks: number; // most ticks kept encoded (default 65,536)
  windowBytes: number; // most bytes kept encoded (default 64 MiB)
}

export const DEFAULT_FEED_OPTIONS: TickFeedOptions = { windowTicks: 65_536, windowBytes: 64 * 1024 * 1024 };

/** Something woken on every new tick and when the feed closes. */
export type FeedWaker = () => void;

export class TickFeed {
  private readonly window = new Map<number, Buffer>(); // insertion order = tick order
  private bytes = 0;
  private unsubscribe: (() => void) | undefined;
  private readonly wakers = new Set<FeedWaker>();
  private closedFlag = false;
  /** Highest tick number received from the sequencer while subscribed (0 = none). */
  head = 0;

  constructor(
    private readonly sequencer: Sequencer,
    private readonly options: TickFeedOptions = DEFAULT_FEED_OPTIONS,
  ) {}

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Number of attached streams. */
  get size(): number {
    return this.wakers.size;
  }

  /** Attach a stream; the feed follows the sequencer while any is attached. */
  attach(wake: FeedWaker): void {
    this.wakers.add(wake);
    if (!this.unsubscribe) this.unsubscribe = this.sequencer.onTick((tick) => this.push(tick));
  }

  detach(wake: FeedWaker): void {
    this.wakers.delete(wake);
    if (this.wakers.size === 0 && this.unsubscribe) {
      this.unsubscribe();
      this.unsubscribe = undefined;
      this.window.clear();
      this.bytes = 0;
      // head stays: it only ever grows and streams compare against it.
    }
  }

  /** Encoded tick n if it is in the window. */
  get(n: number): Buffer | undefined {
    return this.window.get(n);
  }

  /** Oldest tick number in the window, or head + 1 when empty. */
  oldest(): number {
    const first = this.window.keys().next();
    return first.done ? this.head + 1 : first.value;
  }

  /** Node shutdown: streams send what they can of the ticks so far, then end. */
  close(): void {
    this.closedFlag = true;
    for (const wake of [...this.wakers]) wake();
  }

  private push(tick: Tick): void {
    if (tick.tickNumber <= this.head) return; // never twice
    const encoded = encodeTick(tick);
    this.head = tick.tickNumber;
    this.window.set(tick.tickNumber, encoded);
    this.bytes += encoded.length;
    while (this.window.size > 1 && (this.window.size > this.options.windowTicks || this.bytes > this.options.windowBytes)) {
      const first = this.window.entries().next().value as [number, Buffer];
      this.window.delete(first[0]);
      this.bytes -= first[1].length;
    }
    for (const wake of [...this.wakers]) wake();
  }
}
