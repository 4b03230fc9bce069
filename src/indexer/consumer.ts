/**
 * The consuming side: a durable pull consumer on the stream, positioned at the stored
 * stream sequence + 1 at the start of every session, feeding writer.ts runs of consecutive
 * messages (as many as waited while the previous run was written, at most --indexer-batch).
 *
 * A session starts by checking the stream against the database: the message at the stored
 * sequence must be the one written last (its SHA-256), else the stream holds another chain
 * (diverged). Any failure ends the session: NATS or PostgreSQL unreachable -> retry with
 * backoff (0.2 s doubling to 5 s); a message that does not continue the chain, or a replay
 * that disagrees with the node -> stalled, looked at again every 10 s; messages lost between
 * server and client (a gap in the sequence) -> a new session at once. The books are reloaded
 * from the database after any failed write. The consumer is recreated at each session, so
 * its own server-side position never decides what is written: the database's does.
 */
import { createHash } from 'node:crypto';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  type JsMsg,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import { natsServerOptions, redact } from '../chain/index.js';
import { RETRY_MAX_MS, RETRY_MIN_MS, STALL_RETRY_MS } from './interface.js';
import { DecodeError, decodeMessage, type StreamRecord } from './records.js';
import { ReplayMismatch, type Books } from './replay.js';
import type { Tracker } from './tracker.js';
import { ContinuityError, SequenceGap, loadBooks, readPosition, writeRun } from './writer.js';

export interface ConsumerOptions {
  pool: Pool;
  url: string;
  stream: string;
  durable: string;
  batch: number;
  logger: Logger;
  track: Tracker;
  retryMinMs?: number;
  retryMaxMs?: number;
  stallRetryMs?: number;
}

/** The stream holds another chain than the database. */
class Diverged extends Error {
  override readonly name = 'Diverged';
}

/** A failure of PostgreSQL (as opposed to NATS). */
class DbError extends Error {
  override readonly name = 'DbError';
}

const STREAM_NOT_FOUND = 10059;
const CONSUMER_NOT_FOUND = 10014;
const PREFIX = 'svc';

export interface Consumer {
  close(): Promise<void>;
}

export function startConsumer(o: ConsumerOptions): Consumer {
  const log = o.logger;
  const track = o.track;
  const retryMin = o.retryMinMs ?? RETRY_MIN_MS;
  const retryMax = o.retryMaxMs ?? RETRY_MAX_MS;
  const stallMs = o.stallRetryMs ?? STALL_RETRY_MS;
  let closed = false;
  let nc: NatsConnection | undefined;
  let books: Books | undefined;
  let stopSession: ((why?: Error) => void) | undefined;
  let wakeSleep: (() => void) | undefined;
  let gaps = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wakeSleep = () => (clearTimeout(t), resolve());
    });

  async function connectNats(): Promise<NatsConnection> {
    const c = await connect({
      ...natsServerOptions(o.url),
      name: 'svc-indexer',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      timeout: 2000,
      pingInterval: 5000,
      maxPingOut: 2,
    });
    track.natsUp = true;
    void (async () => {
      for await (const s of c.status()) {
        if (s.type === 'disconnect') {
          track.natsUp = false;
          stopSession?.(new Error(`disconnected from NATS ${s.server}`));
        } else if (s.type === 'reconnect') track.natsUp = true;
      }
    })();
    return c;
  }

  async function session(conn: NatsConnection): Promise<void> {
    let client: PoolClient;
    try {
      client = await o.pool.connect();
    } catch (err) {
      throw new DbError((err as Error).message);
    }
    let broken = false;
    // A connection that dies between queries says so here (else an uncaught 'error' event).
    const onClientError = (err: Error) => {
      broken = true;
      log.debug({ err: err.message }, 'indexer: database connection lost');
      stopSession?.(new DbError(`database connection lost: ${err.message}`));
    };
    client.on('error', onClientError);
    try {
      const pos = await db(() => readPosition(client, o.stream));
      books ??= await db(() => loadBooks(client));
      track.dbUp = true;
      track.at(pos.streamSeq);
      track.height = pos.height;
      const jsm = await jetstreamManager(conn);
      await checkStream(jsm, pos.streamSeq, pos.lastSha256);
      await recreateConsumer(jsm, pos.streamSeq + 1);
      const consumer = await jetstream(conn).consumers.get(o.stream, o.durable);
      const msgs = await consumer.consume({
        max_messages: Math.max(100, o.batch * 2),
        abort_on_missing_resource: true,
      });
      // A stalled or diverged indexer stays so until a run is written.
      if (track.state !== 'stalled' && track.state !== 'diverged') {
        track.state = 'consuming';
        track.error = null;
      }
      let expected = pos.streamSeq;
      const pending: JsMsg[] = [];
      let failure: Error | undefined;
      let ended = false;
      let wake: (() => void) | undefined;
      let progress: (() => void) | undefined;
      const kick = () => {
        progress?.();
        progress = undefined;
      };
      stopSession = (why) => {
        failure ??= why ?? new Error('the session was stopped');
        void msgs.stop();
        kick();
      };
      const writer = (async () => {
        for (;;) {
          if (pending.length === 0) {
            if (ended) return;
            await new Promise<void>((r) => (wake = r));
            continue;
          }
          const run = pending.splice(0, o.batch).filter((m) => m.seq > expected);
          kick();
          if (run.length === 0) continue;
          const records: StreamRecord[] = run.map((m) => decodeMessage(m.seq, m.subject, m.data, PREFIX));
          let written;
          try {
            written = await writeRun(client, o.stream, expected, records, books!);
          } catch (err) {
            books = undefined; // the replay went further than the database: reload it
            if (
              err instanceof ContinuityError ||
              err instanceof ReplayMismatch ||
              err instanceof SequenceGap ||
              err instanceof DecodeError
            )
              throw err;
            broken = true;
            throw new DbError((err as Error).message);
          }
          expected = written.position.streamSeq;
          track.state = 'consuming';
          track.error = null;
          gaps = 0; // a gap counts until a write gets past it: a hole that stays (a replica that lost messages) stalls
          track.written.tx += written.rows.txCount;
          track.written.block += written.rows.blockCount;
          track.height = written.position.height;
          track.lagMessages = run[run.length - 1]!.info.pending;
          if (written.producedAt !== undefined) track.lagSeconds = Math.max(0, Date.now() / 1000 - written.producedAt);
          track.at(expected);
        }
      })().catch((err: Error) => {
        failure = err;
        void msgs.stop();
        kick();
      });
      for await (const m of msgs) {
        if (failure) break;
        pending.push(m);
        wake?.();
        while (pending.length >= o.batch * 4 && !failure) await new Promise<void>((r) => (progress = r));
      }
      ended = true;
      wake?.();
      await writer;
      if (failure) throw failure;
      if (!closed) throw new Error('the JetStream consumer stopped');
    } finally {
      stopSession = undefined;
      client.off('error', onClientError);
      client.release(broken);
    }
  }

  /** The stream must exist and hold, at the stored sequence, the message written last. */
  async function checkStream(jsm: JetStreamManager, seq: number, sha: Buffer | null): Promise<void> {
    let info;
    try {
      info = await jsm.streams.info(o.stream);
    } catch (err) {
      if (err instanceof JetStreamApiError && err.code === STREAM_NOT_FOUND)
        throw new Error(`the stream ${o.stream} does not exist (yet): waiting for a node to create it`);
      throw err;
    }
    if (seq === 0) return;
    if (info.state.last_seq < seq)
      throw new Diverged(
        `the stream ${o.stream} ends at message ${info.state.last_seq}, before the ${seq} this database holds: it is another stream (recreated, or another chain's)`,
      );
    if (info.state.first_seq > seq + 1)
      throw new ContinuityError(
        `messages ${seq + 1}..${info.state.first_seq - 1} are no longer in the stream ${o.stream} (limits or a purge): the database cannot continue without them`,
      );
    if (info.state.first_seq > seq) return; // the last one written is gone, the next one is there
    const m = await jsm.streams.getMessage(o.stream, { seq });
    if (!m || sha === null || !createHash('sha256').update(m.data).digest().equals(sha)) {
      throw new Diverged(
        `the stream ${o.stream} holds another message at ${seq} than the one this database indexed: it holds another chain`,
      );
    }
  }

  async function recreateConsumer(jsm: JetStreamManager, start: number): Promise<void> {
    try {
      await jsm.consumers.delete(o.stream, o.durable);
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.code === CONSUMER_NOT_FOUND)) throw err;
    }
    await jsm.consumers.add(o.stream, {
      durable_name: o.durable,
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: start,
    });
  }

  const loop = (async () => {
    let delay = retryMin;
    let lastError = '';
    while (!closed) {
      let wait = delay;
      try {
        nc ??= await connectNats();
        await session(nc);
        delay = retryMin;
        continue;
      } catch (err) {
        if (closed) break;
        const e = err as Error;
        if (e instanceof SequenceGap && ++gaps < 3) {
          log.warn(
            { err: e.message },
            'indexer: messages missing between server and client; resuming from the database position',
          );
          continue;
        }
        if (e instanceof Diverged) {
          track.state = 'diverged';
          wait = stallMs;
        } else if (
          e instanceof ContinuityError ||
          e instanceof ReplayMismatch ||
          e instanceof DecodeError ||
          e instanceof SequenceGap
        ) {
          track.state = 'stalled';
          wait = stallMs;
        } else {
          track.state = 'connecting';
          if (e instanceof DbError) {
            track.dbUp = false;
            track.retries.database++;
          } else track.retries.nats++;
          delay = Math.min(retryMax, delay * 2);
        }
        track.error = e.message;
        if (e.message !== lastError) log.error({ err: e.message, state: track.state }, `indexer: ${e.message}`);
        lastError = e.message;
      }
      await sleep(wait);
    }
  })();

  log.info({ url: redact(o.url), stream: o.stream, consumer: o.durable }, 'indexer: consuming');
  return {
    async close() {
      closed = true;
      track.state = 'closed';
      stopSession?.();
      wakeSleep?.();
      await loop;
      await nc?.close().catch(() => undefined);
    },
  };
}

/** Run a database step; its failures are DbErrors unless they are the indexer's own. */
async function db<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ContinuityError) throw err;
    throw new DbError((err as Error).message);
  }
}
