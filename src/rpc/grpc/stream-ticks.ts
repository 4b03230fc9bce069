/**
 * One StreamTicks call: replays stored ticks from start_tick (0 = the latest tick), then
 * follows live ones, with a cursor so there are no gaps and no duplicates at the switch.
 *
 * Backpressure policy (docs/api.md): the session writes only while `call.write()` says the
 * stream can take more (grpc-js buffers at most 16 messages per stream, then waits for
 * HTTP/2 flow control). Replay pulls from the store at the client's pace. Once a stream has
 * caught up it reads from the shared TickFeed window; if it falls so far behind that its
 * next tick has left the window (default 1024 ticks or 64 MiB), it is ended with
 * RESOURCE_EXHAUSTED and a message naming the tick to resume from. The clock never waits
 * for a stream, and a stream never holds more than its 16 in-flight messages.
 */
import { status as grpcStatus, type ServerWritableStream } from '@grpc/grpc-js';
import type { Sequencer } from '../../sequencer/interface.js';
import type { TickFeed } from './tick-feed.js';
import { encodeTick } from './wire.js';

/** Ticks read from the store per replay step. */
const REPLAY_CHUNK = 256;

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
  call.on('drain', wake);
  feed.attach(wake);
  let sent = 0;
  let writable = true;
  let live = false;
  const sleep = () => new Promise<void>((resolve) => (wakeUp = resolve));

  const finish = (code: grpcStatus, details: string): StreamOutcome => {
    if (!cancelled) {
      if (code === grpcStatus.OK) call.end();
      else call.emit('error', { code, details });
    }
    return { code, details, sent };
  };

  /** Write one encoded tick; afterwards wait for 'drain' (or a reason to stop) if the stream is full. */
  const write = async (buf: Buffer, next: number): Promise<string | undefined> => {
    writable = call.write(buf);
    sent++;
    while (!writable && !cancelled) {
      await sleep();
      if (call.writableNeedDrain === false) writable = true;
      else if (live && next + 1 < feed.oldest()) return tooSlow(next + 1);
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
    call.off('drain', wake);
  }
}
