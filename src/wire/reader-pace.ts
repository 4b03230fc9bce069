/**
 * Readers after ordering (issue 25 point 6): one byte budget per process for everything the
 * main thread writes to stream readers (StreamTicks, StreamTx, live and replaying), so that
 * readers use the main thread's spare time and cannot take ordering's.
 *
 * The bytes a reader costs are spent on the main thread, whoever encodes them: grpc-js frames
 * and copies each message, HTTP/2 submits it, and on loopback the kernel's send and receive
 * paths both run in the writing thread. A stream's socket belongs to the thread whose HTTP/2
 * server accepted it (Node cannot hand an HTTP/2 session to another thread), and every
 * service shares the one gRPC port, so those writes stay on the main thread; what can be
 * decided is how fast they come.
 *
 * The budget is a token bucket refilled at `rate` bytes per second (each message counts its
 * bytes plus `messageCost`, what grpc-js and HTTP/2 spend per message whatever its size), and
 * `rate` is revised every `windowMs`: when ordering had work in the window (the busy probe:
 * the node's sequencer admitted transactions) or the main thread's event-loop utilisation
 * (ELU) was above `busyElu`, it drops to `minBytesPerS`; otherwise it grows by half, up to
 * `maxBytesPerS`. The bucket holds one window's worth, at most 1 MiB. (ELU alone is not
 * enough: on 2 cores the main thread can wait for the batcher and the clock while ordering
 * has work, and readers would then take their CPU.) An idle node serves readers as fast as
 * they read; a busy one gives them `minBytesPerS` together, and each stream falls behind within its documented bounds (a live
 * StreamTicks reader that leaves the window is ended with RESOURCE_EXHAUSTED naming the tick
 * to resume from; a replay just goes slower). Waiting streams are woken in the order they
 * started waiting, so no stream starves. The pace does not look at what is written: the
 * streams keep their own queues, windows and order.
 *
 * Nothing runs while no stream waits: the window timer starts with the first waiter.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

export interface ReaderPaceOptions {
  minBytesPerS: number; // what readers get together while the main thread is busy (default 4 MiB/s)
  maxBytesPerS: number; // ceiling while it is idle (default 1 GiB/s)
  busyElu: number; // event-loop utilisation above which readers get the floor (default 0.8)
  windowMs: number; // how often the rate is revised and waiters woken (default 20 ms)
  messageCost: number; // bytes each message counts besides its own (default 2 KiB)
}

export const DEFAULT_READER_PACE: ReaderPaceOptions = {
  minBytesPerS: 4 * 1024 * 1024,
  maxBytesPerS: 1024 * 1024 * 1024,
  busyElu: 0.8,
  windowMs: 20,
  messageCost: 2048,
};

/** The most the bucket holds whatever the rate: what readers may take at once when ordering wakes up. */
const MAX_BURST = 1024 * 1024;

export class ReaderPace {
  /** Bytes per second readers may take now. */
  rate: number;
  private tokens: number;
  private refilledAt = performance.now();
  private revisedAt = performance.now();
  private elu: EventLoopUtilization = performance.eventLoopUtilization();
  private readonly waiting = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private busy: () => boolean = () => false;
  /** Bytes passed, and times a stream had to wait: for tests and benchmarks. */
  passedBytes = 0;
  waits = 0;

  constructor(private options: ReaderPaceOptions = DEFAULT_READER_PACE) {
    this.rate = options.maxBytesPerS;
    this.tokens = this.burst();
  }

  /** The options in force. */
  get settings(): Readonly<ReaderPaceOptions> {
    return this.options;
  }

  /** Change some options (the node's --reader-floor at start); the rate is revised by the next window. */
  configure(changes: Partial<ReaderPaceOptions>): void {
    this.options = { ...this.options, ...changes };
  }

  /** Tell the pace when ordering has work (called once per window; true = busy). */
  busyWhen(probe: () => boolean): void {
    this.busy = probe;
  }

  /**
   * Take `bytes` for a write now: true when the budget has room (the write may overdraw it by
   * one message, so a message larger than the burst still passes); false when the caller
   * must `wait` first.
   */
  take(bytes: number): boolean {
    const now = performance.now();
    if (now - this.revisedAt >= this.options.windowMs) this.revise(now);
    this.refill(now);
    if (this.tokens <= 0) return false;
    this.tokens -= bytes + this.options.messageCost;
    this.passedBytes += bytes;
    return true;
  }

  /** Call `wake` once when the budget has room again (FIFO among waiters). */
  wait(wake: () => void): void {
    this.waits++;
    this.waiting.add(wake);
    this.timer ??= setInterval(() => this.tick(), this.options.windowMs).unref();
  }

  cancel(wake: () => void): void {
    this.waiting.delete(wake);
  }

  /** A promise form of take/wait: resolves when `bytes` may be written; `gone()` true stops waiting. */
  async admit(bytes: number, gone: () => boolean): Promise<void> {
    while (!this.take(bytes) && !gone()) {
      await new Promise<void>((resolve) => this.wait(resolve));
    }
  }

  private tick(): void {
    const now = performance.now();
    if (now - this.revisedAt >= this.options.windowMs) this.revise(now);
    this.refill(now);
    if (this.tokens > 0 && this.waiting.size > 0) {
      const wakers = [...this.waiting];
      this.waiting.clear();
      for (const w of wakers) w();
    }
    if (this.waiting.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Follow the main thread's utilisation over the last window. */
  private revise(now: number): void {
    this.revisedAt = now;
    const { minBytesPerS, maxBytesPerS, busyElu } = this.options;
    const u = performance.eventLoopUtilization(this.elu);
    this.elu = performance.eventLoopUtilization();
    const busy = this.busy() || u.utilization > busyElu;
    this.rate = busy ? minBytesPerS : Math.min(maxBytesPerS, this.rate * 1.5);
  }

  private refill(now: number): void {
    const dt = now - this.refilledAt;
    this.refilledAt = now;
    this.tokens = Math.min(this.burst(), this.tokens + (this.rate * dt) / 1000);
  }

  /** The most the bucket holds: one window's worth at the current rate, at most 1 MiB. */
  private burst(): number {
    return Math.min(MAX_BURST, (this.rate * this.options.windowMs) / 1000);
  }
}

/** The process's one pace: every reader stream of the node's faces shares it. */
export const readerPace = new ReaderPace();
