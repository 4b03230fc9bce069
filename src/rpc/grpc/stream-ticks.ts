/**
 * One StreamTicks call: replays stored ticks from start_tick (0 = the latest tick), then
 * follows live ones, with a cursor so there are no gaps and no duplicates at the switch.
 *
 * Backpressure policy (docs/api.md): each stream has a bounded send queue, at most
 * STREAM_QUEUE_MESSAGES ticks and STREAM_QUEUE_BYTES bytes handed to grpc-js and not yet
 * accepted by HTTP/2 (counted by each write's completion callback, so HTTP/2 flow control
 * of a client that does not read stops it). The queue holds references to the shared
 * encoded ticks, not copies. When it is full the session waits. Replay pulls from the
 * store at the client's pace. Once a stream has caught up it reads from the shared
 * TickFeed window; if it falls so far behind that its next tick has left the window
 * (default 65,536 ticks or 64 MiB), it is ended with RESOURCE_EXHAUSTED and a message
 * naming the tick to resume from. The clock never waits for a stream.
 *
 * Throughput: grpc-js's stream hands one message to HTTP/2 per write completion, i.e.
 * one per event-loop turn, which under load (turns of ~10 ms) is far slower than the
 * clock ticks. The session therefore gives the call a `_writev` (Node's Writable batch
 * hook, built only on the call's own `_write`) so every queued tick goes to HTTP/2 in
 * one turn.
 */
import { status as grpcStatus, type ServerWritableStream } from '@grpc/grpc-js';
import type { Sequencer } from '../../sequencer/interface.js';
import type { TickFeed } from './tick-feed.js';
import { encodeTick } from './wire.js';

/** Ticks read from the store per replay step. */
const REPLAY_CHUNK = 256;

/** Per-stream send queue bounds (messages handed to grpc-js, not yet taken by HTTP/2). */
export const STREAM_QUEUE_MESSAGES = 256;
export const STREAM_QUEUE_BYTES = 2 * 1024 * 1024;

export interface StreamQueueLimits {
  messages: number;
  bytes: number;
}

type WriteCallback = (error?: Error | null) => void;
interface BatchableWritable {
  _write(chunk: unknown, encoding: BufferEncoding, callback: WriteCallback): void;
  _writev?: (chunks: Array<{ chunk: unknown; encoding: BufferEncoding }>, callback: WriteCallback) => void;
}

/** Let the Writable hand all buffered messages to HTTP/2 at once (see the file's docblock). Also used by StreamTx. */
export function enableBatchedWrites(call: object): void {
  const w = call as BatchableWritable;
  if (typeof w._writev === 'function') return;
  w._writev = function (this: BatchableWritable, chunks, callback) {
    let left = chunks.length;
    let failed = false;
    for (const { chunk, encoding } of chunks) {
      this._write(chunk, encoding, (err) => {
        if (failed) return;
        if (err) {
          failed = true;
          callback(err);
        } else if (--left === 0) callback();
      });
    }
  };
}

export interface StreamOutcome {
  code: grpcStatus;
  details: string;
  sent: number;
}

export async function serveTickStream(
  call: ServerWritableStream<unknown, Buffer>,
  startTick: number,
  sequencer: Sequencer,
  feed: TickFeed,
  queue: StreamQueueLimits = { messages: STREAM_QUEUE_MESSAGES, bytes: STREAM_QUEUE_BYTES },
): Promise<StreamOutcome> {
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    const w = wakeUp;
    wakeUp = undefined;
    w?.();
  };
  let cancelled = false;
  const onCancel = () => {
    cancelled = true;
    wake();
  };
  call.on('cancelled', onCancel);
  call.on('close', onCancel);
  enableBatchedWrites(call);
  feed.attach(wake);
  let sent = 0;
  let queuedMessages = 0;
  let queuedBytes = 0;
  let live = false;
  const sleep = () => new Promise<void>((resolve) => (wakeUp = resolve));
  const full = () => queuedMessages >= queue.messages || queuedBytes >= queue.bytes;

  const finish = (code: grpcStatus, details: string): StreamOutcome => {
    if (!cancelled) {
      if (code === grpcStatus.OK) call.end();
      else call.emit('error', { code, details });
    }
    return { code, details, sent };
  };

  /** Queue one encoded tick; afterwards, while the queue is full, wait (or find a reason to stop). */
  const write = async (buf: Buffer, next: number): Promise<string | undefined> => {
    queuedMessages++;
    queuedBytes += buf.length;
    call.write(buf, () => {
      queuedMessages--;
      queuedBytes -= buf.length;
      wake();
    });
    sent++;
    while (full() && !cancelled) {
      await sleep();
      if (!full()) break;
      if (live && next + 1 < feed.oldest()) return tooSlow(next + 1);
    }
    return undefined;
  };
  const tooSlow = (next: number) =>
    `stream fell too far behind the live ticks (tick ${next} left the server's stream window); ` +
    `reconnect with start_tick=${next} to resume`;

  try {
    const height = () => (live ? feed.head : Math.max(feed.head, sequencer.status().currentTick));
    let next = startTick === 0 ? Math.max(1, sequencer.status().currentTick) : startTick;
    while (!cancelled) {
      const h = height();
      if (next > h) {
        if (feed.closed) return finish(grpcStatus.OK, 'node shutting down');
        live = true;
        await sleep();
        continue;
      }
      const cached = feed.get(next);
      if (cached) {
        const err = await write(cached, next);
        if (err) return finish(grpcStatus.RESOURCE_EXHAUSTED, err);
        next++;
        continue;
      }
      if (live && next < feed.oldest()) return finish(grpcStatus.RESOURCE_EXHAUSTED, tooSlow(next));
      // Replay from the store at the client's pace.
      const to = Math.min(h, next + REPLAY_CHUNK - 1);
      for await (const tick of sequencer.readTicks(next, to)) {
        if (cancelled) break;
        if (tick.tickNumber !== next) {
          return finish(grpcStatus.INTERNAL, `tick store returned tick ${tick.tickNumber} where ${next} was expected`);
        }
        const err = await write(feed.get(next) ?? encodeTick(tick), next);
        if (err) return finish(grpcStatus.RESOURCE_EXHAUSTED, err);
        next++;
      }
      if (next <= to && !cancelled) {
        return finish(grpcStatus.INTERNAL, `tick ${next} is missing from the tick store`);
      }
    }
    return { code: grpcStatus.CANCELLED, details: 'cancelled by the client', sent };
  } finally {
    feed.detach(wake);
    call.off('cancelled', onCancel);
    call.off('close', onCancel);
  }
}
