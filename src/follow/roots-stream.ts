/**
 * One FollowService/StreamBlockRoots call: the roots of the stored blocks from from_height,
 * then of each new block, from the node's shared BlockRootCache (root-cache.ts).
 *
 * Like a StreamTicks session (src/sequencer/api/grpc/stream-ticks.ts), whose helpers it uses: a
 * bounded send queue counted by each write's completion callback (a client that does not
 * read stops those completions, HTTP/2 flow control), so a stream whose client does not
 * read sleeps, reads nothing and costs nothing per block; it asks the cache for no more
 * roots than its queue can take. A cancel, a closed connection or the end of the call
 * releases it at once; the stall sweep (StreamSlots) resets it when its writes make no
 * progress for the stall timeout.
 */
import { status as grpcStatus, type ServerWritableStream } from '@grpc/grpc-js';
import { http2StreamClosed, resetHttp2Stream } from '../wire/index.js';
import { enableBatchedWrites } from '../wire/index.js';
import type { SlotHolder } from '../wire/index.js';
import type { BlockRootCache } from './root-cache.js';

/** Roots handed to grpc-js and not yet taken by HTTP/2, per stream. */
export const ROOTS_QUEUE_MESSAGES = 64;

export class BlockRootSession implements SlotHolder {
  private queued = 0;
  private progressAt = performance.now();
  private released = false;
  private wakeUp: (() => void) | undefined;
  private readonly wake = (): void => {
    const w = this.wakeUp;
    this.wakeUp = undefined;
    w?.();
  };
  private readonly onGone = (): void => this.release();

  constructor(
    private readonly call: ServerWritableStream<unknown, Buffer>,
    private readonly cache: BlockRootCache,
    private readonly closing: () => boolean,
    private readonly onRelease: (s: BlockRootSession) => void,
  ) {}

  stalledFor(now: number): number {
    return this.queued > 0 ? now - this.progressAt : 0;
  }

  reset(reason: string): void {
    if (this.released) return;
    if (!resetHttp2Stream(this.call)) this.call.emit('error', { code: grpcStatus.RESOURCE_EXHAUSTED, details: reason });
    this.release();
  }

  /** Wake it (shutdown: it ends the call). */
  poke(): void {
    this.wake();
  }

  async run(fromHeight: number): Promise<void> {
    const { call, cache } = this;
    call.on('cancelled', this.onGone);
    call.on('close', this.onGone);
    if (call.cancelled || http2StreamClosed(call) === true) return this.release();
    enableBatchedWrites(call);
    let next = fromHeight;
    try {
      while (!this.released) {
        if (this.queued >= ROOTS_QUEUE_MESSAGES) {
          await this.sleep();
          continue;
        }
        if (this.closing()) {
          call.end();
          break;
        }
        if (next > cache.latestHeight()) {
          cache.waitForBlock(this.wake);
          await this.sleep();
          continue;
        }
        const roots = await cache.get(next, next + ROOTS_QUEUE_MESSAGES - this.queued - 1);
        if (this.released) break;
        if (roots.length === 0) {
          // A node started from a snapshot (--follow-from snapshot) holds no block before it.
          call.emit('error', {
            code: grpcStatus.OUT_OF_RANGE,
            details: `block ${next} is not stored on this node (it started from a snapshot after it): ask from a later height, or ask a node that holds it`,
          });
          break;
        }
        for (const r of roots) this.write(r);
        next += roots.length;
      }
    } finally {
      cache.stopWaiting(this.wake);
    }
  }

  private write(buf: Buffer): void {
    if (this.queued === 0) this.progressAt = performance.now();
    this.queued++;
    this.call.write(buf, () => {
      if (this.released) return;
      this.queued--;
      this.progressAt = performance.now();
      this.wake();
    });
  }

  private sleep(): Promise<void> {
    return new Promise<void>((resolve) => (this.wakeUp = resolve));
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    this.call.off('cancelled', this.onGone);
    this.call.off('close', this.onGone);
    this.cache.stopWaiting(this.wake);
    this.onRelease(this);
    this.wake();
  }
}
