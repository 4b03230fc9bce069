/**
 * One StreamTx call: stored batches from `from_sequence` (0 = live: only what is stored
 * after the call starts), then live ones, in continuum_sequence order, without gaps or
 * duplicates (a cursor: the next continuum_sequence wanted).
 *
 * Backpressure (docs/chain-internals.md "StreamTx"): a bounded send queue per stream, at most
 * `queue.messages` messages and `queue.bytes` bytes handed to grpc-js and not yet taken by
 * HTTP/2 (counted by each write's callback, so a client that does not read stops it).
 * While full, the stream sleeps and costs nothing per new batch. Live batches come from
 * the shared window of encoded messages (tx-feed.ts); a stream whose cursor fell behind
 * the window reads from the store at its own pace: only as many batches as its queue can take
 * now (messages and bytes), with the store iterator closed before it writes or waits (issue 19:
 * a paused consumer held its iterator open inside the read, for as long as it stayed paused).
 * A cancel or a closed connection wakes it at once and everything it held is released.
 * Every message waits for the readers' byte budget of the main thread (src/wire/reader-pace.ts,
 * shared with StreamTicks), so consumers take the main thread's spare time, not ordering's.
 */
import { status as grpcStatus, type ServerWritableStream } from '@grpc/grpc-js';
import { enableBatchedWrites, readerPace, type ReaderPace } from '../../../wire/index.js';
import type { ChainReader } from '../../core/index.js';
import type { TxFeed } from './tx-feed.js';
import { encodeTxBatch } from './encode.js';

export interface TxStreamQueue {
  messages: number;
  bytes: number;
}

/** Per-stream send queue: 256 messages / 1 MiB (a paused consumer holds it twice: docs/chain-internals.md). */
export const TX_STREAM_QUEUE: TxStreamQueue = { messages: 256, bytes: 1024 * 1024 };

export interface TxStreamOutcome {
  code: grpcStatus;
  details: string;
  sent: number;
}

export async function serveTxStream(
  call: ServerWritableStream<unknown, Buffer>,
  fromSequence: bigint,
  chain: ChainReader,
  feed: TxFeed,
  queue: TxStreamQueue = TX_STREAM_QUEUE,
  pace: ReaderPace = readerPace,
): Promise<TxStreamOutcome> {
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    const w = wakeUp;
    wakeUp = undefined;
    w?.();
  };
  let cancelled = false;
  const onCancel = () => {
    cancelled = true;
    feed.cancelWait(wake);
    wake();
  };
  call.on('cancelled', onCancel);
  call.on('close', onCancel);
  enableBatchedWrites(call);
  feed.attach();
  let sent = 0;
  let queuedMessages = 0;
  let queuedBytes = 0;
  const sleep = () => new Promise<void>((resolve) => (wakeUp = resolve));
  const full = () => queuedMessages >= queue.messages || queuedBytes >= queue.bytes;

  const write = async (buf: Buffer): Promise<void> => {
    await pace.admit(buf.length, () => cancelled);
    if (cancelled) return;
    queuedMessages++;
    queuedBytes += buf.length;
    call.write(buf, () => {
      queuedMessages--;
      queuedBytes -= buf.length;
      if (!full()) wake();
    });
    sent++;
    while (full() && !cancelled) await sleep();
  };

  try {
    // 0 = live: start after what is stored now.
    let cursor = fromSequence === 0n ? chain.lastStoredSequence() + 1n : fromSequence;
    while (!cancelled) {
      const entry = feed.find(cursor);
      if (entry) {
        const buf =
          entry.firstSeq >= cursor
            ? entry.buf
            : encodeTxBatch({
                ...entry.batch,
                transactions: entry.batch.transactions.filter((t) => t.continuum_sequence >= cursor),
              });
        cursor = entry.lastSeq + 1n;
        await write(buf);
        continue;
      }
      const stored = chain.lastStoredSequence();
      if (cursor <= stored) {
        // Behind the window (or before it filled): read from the store at our own pace.
        const oldest = feed.oldest();
        const to = oldest !== undefined && oldest > cursor ? oldest - 1n : stored;
        const chunk: Buffer[] = [];
        let chunkBytes = 0;
        let readTo = cursor - 1n;
        for await (const batch of chain.readTransactionsFrom(cursor, to)) {
          if (cancelled) break;
          const buf = encodeTxBatch(batch);
          chunk.push(buf);
          chunkBytes += buf.length;
          readTo = batch.transactions[batch.transactions.length - 1]!.continuum_sequence;
          if (queuedMessages + chunk.length >= queue.messages || queuedBytes + chunkBytes >= queue.bytes) break;
        }
        if (cancelled) break;
        if (chunk.length === 0) {
          cursor = to + 1n;
          continue;
        }
        cursor = readTo + 1n;
        for (const buf of chunk) await write(buf);
        continue;
      }
      if (feed.closed) {
        call.end();
        return { code: grpcStatus.OK, details: 'node shutting down', sent };
      }
      // Caught up: wait for the next stored batch.
      feed.waitOnce(wake);
      await sleep();
    }
    return { code: grpcStatus.CANCELLED, details: 'cancelled by the client', sent };
  } finally {
    feed.cancelWait(wake);
    feed.detach();
    call.off('cancelled', onCancel);
    call.off('close', onCancel);
  }
}
