/**
 * The JetStream producer: publishes every stored order book transaction and block, in the
 * publication order of order.ts, with acks, at most `window` awaiting their ack at once.
 *
 * It never queues in memory: it walks the node's stored chain from a cursor, and the cursor
 * comes from the stream itself. Each (re)start of a session reads the stream's last
 * message back (resume.ts) and continues after it. Each publish carries
 * Nats-Expected-Last-Sequence = the stream sequence it must follow (counted from that last
 * message's own sequence, resume.ts says why), so a lost publish makes
 * every later one in the window fail instead of leaving a gap, and Nats-Msg-Id, so a retried
 * one is never stored twice. Any failure (NATS down, ack timeout, a rejected expectation,
 * a leader election) ends the session and the producer resynchronises from the stream.
 *
 * While NATS is away the node goes on sequencing; the producer only retries (with backoff),
 * says so once in the log and in svc_mq_connected / svc_mq_stream_available, and catches up
 * from storage on return.
 *
 * Failover in a cluster: a resync asks only stream-level questions (stream info, last
 * message), each with a short timeout, retried at once, and never waits on the meta leader.
 * The producer listens to the stream's leader-elected advisories: an election ends the
 * session (its acks would come from a leader that is gone) and abandons a resync request
 * sent before it, so the new leader is asked at once. A failed session waits for its window
 * only when the stream refused a publish (answers come at once), never for the acks of a
 * dead leader: whatever of its window still lands later carries its expected sequence and
 * message id, so it either fits exactly or is refused.
 */
import { JetStreamApiError, jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { connectNats, redact, watchConnection } from './connection.js';
import { MqConfigError, MqElectionError, MqRefusedError, MqSourceError } from './errors.js';
import type { MqCursor, MqMessage, MqOptions, MqPublisher, MqSource, MqState, MqStatus } from './interface.js';
import { registerMqMetrics } from './metrics.js';
import { planNext, type Plan } from './order.js';
import { resumePoint } from './resume.js';
import { Signal, sleep } from './signal.js';
import { ensureStream, readLastMessage } from './stream.js';
import { subjects, type Subjects } from './subjects.js';

const DEFAULT_WINDOW = 512;
const DEFAULT_LINGER_MS = 1;
const PAGE = 256; // messages planned (read from storage) per step
const DEFAULT_MAX_PAYLOAD = 1_048_576;
const DEFAULT_ACK_TIMEOUT_MS = 2_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 750;
const WRONG_LAST_SEQUENCE = 10071; // JetStream API error code
const CREATE_TIMEOUT_MS = 10_000; // adding a replicated stream: placement and its first election

interface Session {
  js: JetStreamClient;
  cursor: MqCursor;
  lastSeq: number; // the stream sequence the session's first publish follows (resume.ts)
  maxPayload: number;
}

export function startMqPublisher(options: MqOptions): MqPublisher {
  const producer = new Producer(options);
  producer.start();
  return producer;
}

class Producer implements MqPublisher {
  private readonly source: MqSource;
  private readonly names: Subjects;
  private readonly logger: Logger | undefined;
  private readonly window: number;
  private readonly ackTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  private readonly replicas: number;
  private readonly retryMinMs: number;
  private readonly retryMaxMs: number;
  private readonly drainMs: number;
  private readonly lingerMs: number;
  private readonly wake = new Signal();

  private nc: NatsConnection | undefined;
  private state: MqState = 'connecting';
  private connected = false;
  private closing = false;
  private drainUntil = 0;
  private loop: Promise<void> = Promise.resolve();
  private unsubscribe: () => void = () => {};
  private sessionFailure: ((err: Error) => void) | undefined;
  private idleWaiters: ((err?: Error) => void)[] = [];
  private electionWaiters = new Set<() => void>();

  private publishedTx = 0;
  private publishedBlocks = 0;
  private storedHeight = 0; // last block height the stream is known to hold
  private pendingAcks = 0;
  private resyncs = 0;
  private started = false; // a session has begun publishing once
  private afterFailure = false; // the next sync follows a failure
  private lastError: string | undefined;
  private outage = false;
  private lastLogged = '';
  private streamAvailable = false;
  private outages = 0;
  private unavailableSince = Date.now(); // not a state transition: only what /metrics shows

  constructor(private readonly options: MqOptions) {
    this.source = options.source;
    this.names = subjects(options.stream, options.subjectPrefix);
    this.logger = options.logger;
    this.window = Math.max(1, options.window ?? DEFAULT_WINDOW);
    this.ackTimeoutMs = options.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.replicas = options.replicas ?? 1;
    this.retryMinMs = options.retryMinMs ?? 200;
    this.retryMaxMs = options.retryMaxMs ?? 1_000;
    this.drainMs = options.drainMs ?? 2_000;
    this.lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
    if (options.registry) registerMqMetrics(options.registry, () => this.status());
  }

  start(): void {
    this.unsubscribe = this.source.onStored(() => this.wake.notify());
    this.loop = this.run();
  }

  status(): MqStatus {
    return {
      state: this.state,
      connected: this.connected,
      publishedTx: this.publishedTx,
      publishedBlocks: this.publishedBlocks,
      publishedHeight: this.storedHeight,
      lagBlocks: Math.max(0, this.source.latestHeight() - this.storedHeight),
      pendingAcks: this.pendingAcks,
      resyncs: this.resyncs,
      streamAvailable: this.streamAvailable,
      outages: this.outages,
      outageMs: this.streamAvailable ? 0 : Math.max(0, Date.now() - this.unavailableSince),
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
    };
  }

  caughtUp(timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((w) => w !== done);
        reject(new Error(`mq producer not caught up after ${timeoutMs} ms: ${JSON.stringify(this.status())}`));
      }, timeoutMs);
      const done = (err?: Error) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      this.idleWaiters.push(done);
      this.wake.notify();
    });
  }

  async close(): Promise<void> {
    if (this.closing) return this.loop;
    this.closing = true;
    this.drainUntil = Date.now() + this.drainMs;
    this.wake.notify();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.loop, new Promise<void>((r) => (timer = setTimeout(r, this.drainMs + 100)))]);
    clearTimeout(timer);
    this.unsubscribe();
    const nc = this.nc;
    this.nc = undefined;
    this.connected = false;
    // Closing rejects whatever still awaits an ack, which ends the loop.
    await nc?.close().catch(() => undefined);
    await this.loop;
    this.state = 'closed';
  }

  private async run(): Promise<void> {
    let delay = this.retryMinMs;
    while (!this.closing) {
      try {
        const nc = await this.connection();
        this.state = 'syncing';
        const session = await this.sync(nc);
        if (session.kind === 'wait') {
          this.state = 'waiting';
          this.note('info', session.reason, 'mq: waiting for the node to store what the stream already holds');
          await this.wake.wait(1_000);
          continue;
        }
        if (session.kind === 'diverged') {
          this.state = 'diverged';
          this.lastError = session.reason;
          this.note('error', session.reason, 'mq: the JetStream stream holds another chain; not publishing to it');
          await this.wake.wait(10_000);
          continue;
        }
        if (this.outage)
          this.logger?.info(
            { stream: this.names.stream, cursor: describe(session.cursor) },
            'mq: NATS is back; catching the stream up',
          );
        this.outage = false;
        this.lastError = undefined;
        this.lastLogged = '';
        delay = this.retryMinMs;
        this.state = 'publishing';
        await this.pump(session);
      } catch (err) {
        if (this.closing) break;
        this.failed(err as Error);
        await this.wake.wait(delay);
        delay = Math.min(delay * 2, this.retryMaxMs);
      }
    }
    this.finishIdle(new Error('mq producer closed'));
  }

  /** The connection; after the first connect, nats.js reconnects by itself forever. */
  private async connection(): Promise<NatsConnection> {
    if (this.nc && !this.nc.isClosed()) {
      if (!this.connected) throw new Error('not connected to NATS (reconnecting)');
      return this.nc;
    }
    const nc = await connectNats(this.options.url);
    if (this.closing) {
      await nc.close();
      throw new Error('closing');
    }
    this.nc = nc;
    this.connected = true;
    void this.watch(nc);
    // Core subscription: nats.js renews it on every reconnect.
    nc.subscribe(`$JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED.${this.names.stream}`, { callback: () => this.elected() });
    return nc;
  }

  /** The stream elected a leader: stop waiting on the old one. */
  private elected(): void {
    this.sessionFailure?.(new MqElectionError('the stream elected a new leader'));
    for (const abandon of this.electionWaiters) abandon();
    this.electionWaiters.clear();
    this.wake.notify();
  }

  /** `request`, or a rejection as soon as the stream elects a leader meanwhile: the new one is asked at once. */
  private orElection<T>(request: Promise<T>): Promise<T> {
    let abandon!: () => void;
    const elected = new Promise<never>((_, reject) => {
      abandon = () => reject(new MqElectionError('the stream elected a new leader; asking it'));
    });
    this.electionWaiters.add(abandon);
    request.catch(() => undefined); // an abandoned request still settles (its timeout) unobserved
    return Promise.race([request, elected]).finally(() => this.electionWaiters.delete(abandon));
  }

  private async watch(nc: NatsConnection): Promise<void> {
    await watchConnection(nc, (up, server) => {
      this.connected = up;
      if (!up) this.sessionFailure?.(new Error(`disconnected from NATS ${server}`));
      this.wake.notify();
    });
  }

  private async sync(
    nc: NatsConnection,
  ): Promise<
    | (Session & { kind: 'resume' })
    | { kind: 'wait'; reason: string; streamHeight: number }
    | { kind: 'diverged'; reason: string }
  > {
    if (this.afterFailure) {
      this.afterFailure = false;
      this.resyncs += 1;
    }
    // checkAPI: false, no account-info request: only the meta leader answers one.
    const jsm = await jetstreamManager(nc, { timeout: this.requestTimeoutMs, checkAPI: false });
    const createTimeout = Math.max(CREATE_TIMEOUT_MS, this.ackTimeoutMs);
    const create = await jetstreamManager(nc, { timeout: createTimeout, checkAPI: false });
    const ask = async () => {
      const ensured = await ensureStream(jsm, create, this.names, this.replicas);
      return { ...ensured, last: await readLastMessage(jsm, this.names, ensured.info) };
    };
    const { info, created, replicasNote, last } = await this.orElection(ask());
    if (created) {
      this.logger?.info({ stream: this.names.stream, replicas: this.replicas }, 'mq: created the JetStream stream');
    }
    if (replicasNote) this.note('warn', replicasNote, `mq: ${replicasNote}`);
    this.available(true);
    const point = await resumePoint(this.source, this.names, last, info.state.last_seq);
    if (point.kind === 'wait') this.storedHeight = point.streamHeight;
    if (point.kind !== 'resume') return point;
    if (point.note) this.logger?.warn({ stream: this.names.stream }, `mq: ${point.note}`);
    this.storedHeight = point.cursor.nextHeight - 1;
    if (!this.started) {
      this.started = true;
      this.logger?.info(
        { url: redact(this.options.url), stream: this.names.stream, cursor: describe(point.cursor) },
        'mq: publishing to JetStream',
      );
    }
    return {
      kind: 'resume',
      js: jetstream(nc, { timeout: this.ackTimeoutMs }),
      cursor: point.cursor,
      lastSeq: point.lastSeq,
      maxPayload: nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD,
    };
  }

  /** Publish until a failure (thrown) or, when closing, until drained or out of time. */
  private async pump(session: Session): Promise<void> {
    let { cursor } = session;
    let expected = session.lastSeq; // the stream sequence of the last message sent
    let failure: Error | undefined;
    const fail = (err: Error) => {
      failure ??= err;
      this.wake.notify();
    };
    this.sessionFailure = fail;
    const inflight = new Set<Promise<void>>();
    const current = () => this.sessionFailure === fail;
    const page = Math.min(PAGE, this.window);
    // The next page is read from the store while the one before awaits its acks, so the
    // window never runs dry waiting on a read. A failed read is kept as its error.
    const readPage = (from: MqCursor): Promise<Plan | MqSourceError> =>
      planNext(this.source, this.names, from, page, session.maxPayload).catch(
        (err: unknown) =>
          new MqSourceError(`reading the stored chain failed: ${(err as Error).message}`, { cause: err }),
      );
    let next: Promise<Plan | MqSourceError> | undefined;
    let caughtUp = false; // the last page was short: everything stored is out
    try {
      for (;;) {
        if (failure || !this.connected) break;
        if (this.closing && Date.now() >= this.drainUntil) break;
        if (!next) {
          if (caughtUp && this.lingerMs > 0) await sleep(this.lingerMs); // let stored ticks gather: one read for several
          next = readPage(cursor);
        }
        const plan = await next;
        if (plan instanceof MqSourceError) throw plan;
        if (plan.messages.length === 0) {
          next = undefined;
          caughtUp = true;
          if (inflight.size === 0) {
            this.finishIdle();
            if (this.closing) break;
          }
          await this.wake.wait(inflight.size > 0 ? 100 : 1_000);
          continue;
        }
        if (this.window - inflight.size < plan.messages.length) {
          await this.wake.wait(100); // acks free room
          continue;
        }
        for (const message of plan.messages) {
          const seq = ++expected;
          const settled = (err?: unknown) => {
            if (err !== undefined) fail(err as Error);
            inflight.delete(p);
            if (!current()) return;
            this.pendingAcks = inflight.size;
            this.wake.notify();
          };
          const p: Promise<void> = this.publishOne(session.js, message, seq).then(() => settled(), settled);
          inflight.add(p);
        }
        this.pendingAcks = inflight.size;
        cursor = plan.cursor;
        caughtUp = plan.messages.length < page;
        next = caughtUp ? undefined : readPage(cursor);
      }
    } finally {
      // The stream refused a publish: let the window settle (its answers come at once), so
      // the resync reads a stream no publish of ours still races. Not after an ack timeout
      // or an election: the rest of the window waits on a leader that is gone, and would
      // only time out. Any publish of this window that still lands carries its expected
      // sequence and message id: it fits exactly where the resync will look, or is refused.
      if (this.connected && inflight.size > 0 && failure && streamAnswered(failure)) {
        await settleWithin([...inflight], this.requestTimeoutMs);
      }
      this.sessionFailure = undefined;
      this.pendingAcks = 0;
    }
    if (failure) throw failure;
    if (!this.closing) throw new Error('not connected to NATS');
  }

  private async publishOne(js: JetStreamClient, message: MqMessage, seq: number): Promise<void> {
    const ack = await js.publish(message.subject, message.data, {
      msgID: message.msgId,
      expect: { lastSequence: seq - 1 },
      timeout: this.ackTimeoutMs,
    });
    if (ack.duplicate || ack.seq !== seq) {
      const stored = `${ack.duplicate ? 'a duplicate of ' : ''}seq ${ack.seq}`;
      throw new MqRefusedError(`stream stored ${message.msgId} as ${stored}, expected ${seq}`);
    }
    if (message.kind === 'tx') {
      this.publishedTx += 1;
    } else {
      this.publishedBlocks += 1;
      this.storedHeight = Math.max(this.storedHeight, message.height);
    }
  }

  private failed(err: Error): void {
    this.lastError = err.message;
    // The stream did not answer (or cannot take the node's messages): an outage. An answer
    // that refused a publish (another writer moved the stream on) is not one.
    const outage = !streamAnswered(err) && !(err instanceof MqSourceError) && !(err instanceof MqElectionError);
    if (outage) this.available(false);
    this.afterFailure = true;
    if (err instanceof MqSourceError) {
      this.note('error', err.message, 'mq: cannot read the stored chain; retrying');
    } else if (err instanceof MqElectionError || streamAnswered(err)) {
      this.logger?.debug({ stream: this.names.stream, err: err.message }, 'mq: resynchronising with the stream');
    } else if (err instanceof MqConfigError) {
      this.note('error', err.message, "mq: the JetStream stream cannot take the node's messages");
    } else if (!this.outage) {
      this.outage = true;
      this.logger?.warn(
        { err: err.message, url: redact(this.options.url), stream: this.names.stream },
        'mq: NATS JetStream unavailable; the node goes on sequencing and the stream will catch up from stored blocks',
      );
    } else {
      this.logger?.debug({ err: err.message }, 'mq: still unavailable');
    }
    if (!this.nc || this.nc.isClosed() || !this.connected) this.state = 'connecting';
  }

  /** The stream answered (a resync), or stopped answering (a failure): svc_mq_stream_available. */
  private available(up: boolean): void {
    if (up === this.streamAvailable) return;
    this.streamAvailable = up;
    if (!up) {
      this.outages += 1;
      this.unavailableSince = Date.now();
    }
  }

  /** Log a condition once until it changes. */
  private note(level: 'info' | 'warn' | 'error', reason: string, message: string): void {
    if (reason === this.lastLogged) return;
    this.lastLogged = reason;
    this.logger?.[level]({ reason, stream: this.names.stream }, message);
  }

  private finishIdle(err?: Error): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w(err);
  }
}

/**
 * The stream answered, refusing a publish (a duplicate, or a publish of an earlier session
 * that landed meanwhile: wrong last sequence): not an outage.
 */
function streamAnswered(err: Error): boolean {
  return err instanceof MqRefusedError || (err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE);
}

/** Resolves once every promise settled, or after ms, whichever comes first. */
async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(promises), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

function describe(c: MqCursor): string {
  return `block ${c.nextHeight - 1}, continuum_sequence ${c.lastTx}`;
}
