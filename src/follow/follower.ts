/**
 * The follower: a Sequencer whose ticks come from a leader (`svc node --follow`). It takes
 * the leader's StreamTicks from its own last stored tick + 1, checks every tick (wire
 * hashes on arrival; chaining, sequence numbers and batch hash in check.ts; VDF proofs in
 * batches on the pool), and appends to its own TickLog only the ticks that passed, in
 * order. So the order book and the chain, which read the TickLog through the Sequencer
 * read interface, never see an unverified tick.
 *
 * Flow: received (not yet checked) -> chunks in flight (proofs on the pool, at most one per
 * pool thread + 1) -> verdicts taken in tick order -> append. Live ticks go as they arrive
 * (a chunk of one); a backlog (catch-up) goes in chunks of `chunkTicks`, and the stream is
 * paused while the backlog is large. A tick that fails halts following (halt.ts): the
 * ticks before the bad one are stored, nothing of it or after it; everything verified so far
 * is still served, and the follower retries with backoff (haltRetryMinMs .. haltRetryMaxMs),
 * on the next of its leaders when it has several, from its last stored tick. The first
 * tick stored after that ends the halt. The block roots check (roots-check.ts) halts and
 * resumes it the same way. The stream ending or failing (leader gone) reconnects with
 * backoff from the next tick due: no gap, no duplicate.
 *
 * Submissions are forwarded to the leader over gRPC and answered with its answer.
 *
 * With `fromSnapshot` on an empty store, start() first seeds it from the leader's chain
 * snapshot at tick T (snapshot-bootstrap.ts) and then follows from T+1 as after a restart.
 */
import { LagClock } from './lag-clock.js';
import type * as grpc from '@grpc/grpc-js';
import type {
  FollowFigures,
  SequencerStatus,
  SubmitResult,
  Tick,
  TickSummary,
  Transaction,
  TransactionLocation,
} from '../core/index.js';
import {
  NodeClient,
  type WireSubmitResponse,
  type WireTick,
  type WireTransaction,
} from '../sequencer/api/client/index.js';
import { RateMeter } from '../sequencer/index.js';
import { SubmitError, type Sequencer, type SubmitErrorCode, type TickListener } from '../sequencer/index.js';
import { TickLog } from '../store/index.js';
import { bytesToHex, GENESIS_OUTPUT, verifyBatchOnPool } from '../vdf/index.js';
import { checkTicks, lastSequenceAfter, vdfInputOf, type ChunkContext } from './check.js';
import { FollowError, type FollowerOptions, type TickFailure } from './interface.js';
import { FollowHalts, type HaltSource } from './halt.js';
import { seedFromSnapshot } from './snapshot-bootstrap.js';
import { tickOfWire } from './decode-tick.js';

interface Chunk {
  generation: number; // chunks of a generation before the last halt are dropped
  ticks: Tick[];
  verdict: Promise<TickFailure[]>;
}

/** Where the follower stands, for GET /api/v1/status and /metrics. */
export type FollowStatus = FollowFigures;

const WARM_TICKS = 4096;
const STATUS_POLL_MS = 1000;

function submitCode(err: unknown): SubmitErrorCode {
  const code = (err as { code?: number }).code;
  // grpc status numbers: 3 INVALID_ARGUMENT, 6 ALREADY_EXISTS, 8 RESOURCE_EXHAUSTED.
  return code === 3
    ? 'INVALID_ARGUMENT'
    : code === 6
      ? 'ALREADY_EXISTS'
      : code === 8
        ? 'RESOURCE_EXHAUSTED'
        : 'UNAVAILABLE';
}

function wireTx(tx: Transaction): WireTransaction {
  return {
    tx_id: tx.txId,
    payload: Buffer.from(tx.payload),
    signature: Buffer.from(tx.signature),
    public_key: Buffer.from(tx.publicKey),
    nonce: tx.nonce.toString(),
    timestamp: tx.timestamp.toString(),
  };
}

function resultOf(r: WireSubmitResponse): SubmitResult {
  return { sequenceNumber: Number(r.sequence_number), expectedTick: Number(r.expected_tick), txHash: r.tx_hash };
}

export class Follower implements Sequencer {
  private readonly log: TickLog;
  private client: NodeClient;
  private readonly leaders: string[];
  private leaderIndex = 0;
  private generation = 0;
  private haltRetryMs: number;
  /** Why following is halted, if it is (status, metrics, health). */
  readonly halts = new FollowHalts();
  private readonly rate = new RateMeter();
  private readonly chunkTicks: number;
  private readonly maxInflight: number;
  private state: 'created' | 'running' | 'stopping' | 'stopped' | 'failed' = 'created';
  private stream: grpc.ClientReadableStream<WireTick> | undefined;
  private paused = false;
  private connected = false;
  private expected = 1; // next tick due from the leader
  private received: Tick[] = [];
  private receivedFailure: TickFailure | undefined;
  private inflight: Chunk[] = [];
  private ctx: ChunkContext = { before: undefined, lastSequence: 0 };
  private draining: Promise<void> = Promise.resolve();
  private dispatchScheduled = false;
  private leaderTick = 0;
  private readonly lag = new LagClock();
  private reconnects = 0;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private startedPerf = 0;
  private startedAt = 0; // microseconds, wall clock (status only, never in state transitions)

  constructor(private readonly options: FollowerOptions) {
    this.log = new TickLog(options.db, {
      retainTicks: options.retainTicks,
      retainBytes: options.retainBytes,
      onListenerError: (err) => options.onError?.(err),
    });
    this.leaders = options.leaders && options.leaders.length > 0 ? options.leaders : [options.leader];
    this.client = new NodeClient(this.leaders[0]!);
    this.haltRetryMs = options.haltRetryMinMs ?? 1000;
    this.chunkTicks = options.chunkTicks ?? 256;
    this.maxInflight = Math.max(1, options.pool.options.maxThreads ?? options.pool.threads.length) + 1;
    this.retryMs = options.retryMinMs ?? 100;
  }

  /** Check the leader (reachable, speaks svc, same chain as the stored ticks), then follow. */
  async start(): Promise<void> {
    // Read-only until the leader is known to serve this chain: a refused start writes nothing.
    let stored: { tick: number; lastSequence: number } = await this.log.disk.loadHead();
    const leader = this.options.leader;
    let leaderHead: number;
    try {
      leaderHead = Number((await this.client.status()).current_tick);
      if (!Number.isSafeInteger(leaderHead)) throw new Error(`its GetStatus answer has no current_tick`);
    } catch (err) {
      this.client.close();
      throw new FollowError(
        `the leader at ${leader} does not answer as an svc node (--follow): ${(err as Error).message}`,
      );
    }
    this.leaderTick = leaderHead;
    this.lag.known(leaderHead, Date.now());
    if (this.options.fromSnapshot && stored.tick > 0) {
      this.options.onInfo?.(
        { leader, storedTick: stored.tick },
        'follower: --follow-from snapshot is ignored: --db-path already holds ticks; resuming from them',
      );
    } else if (this.options.fromSnapshot) {
      try {
        stored = await seedFromSnapshot({
          leader,
          chain: this.options.fromSnapshot,
          client: this.client,
          db: this.options.db,
          log: this.log,
          pool: this.options.pool,
          ...(this.options.onInfo ? { onInfo: this.options.onInfo } : {}),
        });
      } catch (err) {
        this.client.close();
        throw err;
      }
    }
    const last = stored.tick > 0 ? await this.log.disk.readTick(stored.tick) : undefined;
    // Same chain: the leader's copy of our last tick (or its tick 1 from genesis) must match.
    const probe = last ? last.tickNumber : leaderHead >= 1 ? 1 : 0;
    if (probe > 0) {
      const theirs = await this.client.getTick(probe).catch(() => undefined);
      const ok = last
        ? theirs?.vdf_proof?.output === bytesToHex(last.vdfProof.output)
        : theirs?.previous_output === bytesToHex(GENESIS_OUTPUT);
      if (!ok) {
        this.client.close();
        throw new FollowError(
          last
            ? `the leader at ${leader} serves another chain: its tick ${probe} ${theirs ? 'differs from' : 'is missing, unlike'} the one stored in --db-path (genesis mismatch); use a fresh --db-path for this leader`
            : `the leader at ${leader} serves another chain: its tick 1 does not start from the genesis output`,
          probe,
          'GENESIS_MISMATCH',
        );
      }
    }
    const { head } = await this.log.open(WARM_TICKS, 100_000);
    const before = last ? vdfInputOf(last) : undefined;
    if (before && 'code' in before)
      throw new FollowError(`the last stored tick ${before.tickNumber} does not bind: ${before.message}`);
    this.ctx = { before, lastSequence: head.lastSequence };
    this.expected = head.tick + 1;
    this.rate.record(head.lastSequence);
    this.state = 'running';
    this.startedPerf = performance.now();
    this.startedAt = Date.now() * 1000;
    this.connect();
    this.pollTimer = setInterval(() => void this.pollLeader(), STATUS_POLL_MS).unref();
  }

  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    if (this.state !== 'failed') this.state = 'stopping';
    clearTimeout(this.retryTimer);
    clearInterval(this.pollTimer);
    this.stream?.cancel();
    this.stream = undefined;
    await this.draining.catch(() => undefined);
    this.client.close();
    this.state = 'stopped';
  }

  /** The leader followed now (the first of --follow, or the next after a halt). */
  get leader(): string {
    return this.leaders[this.leaderIndex]!;
  }

  followStatus(): FollowStatus {
    const storedTick = this.log.head.tick;
    const leaderTick = Math.max(this.leaderTick, storedTick);
    const halted = this.halts.current;
    const lagMs = this.lag.lagMs(storedTick, Date.now());
    return {
      leader: this.leader,
      connected: this.connected,
      leaderTick,
      lagTicks: leaderTick - storedTick,
      lagMs,
      reconnects: this.reconnects,
      ...(halted ? { halted } : {}),
    };
  }

  /**
   * Stop taking ticks from the leader and say why (`source`: a tick that failed, or a block
   * the roots check found different). Nothing more is stored until it ends; reads go on.
   */
  halt(err: FollowError, source: HaltSource, blockHeight?: number): void {
    if (this.state !== 'running') return;
    this.generation++;
    this.stream?.cancel();
    this.stream = undefined;
    this.connected = false;
    this.received = [];
    this.receivedFailure = undefined;
    this.inflight = [];
    this.paused = false;
    clearTimeout(this.retryTimer);
    this.halts.set(source, {
      code: err.code ?? 'HALTED',
      leader: this.leader,
      message: err.message,
      ...(err.tickNumber !== undefined ? { tick: err.tickNumber } : {}),
      ...(blockHeight !== undefined ? { block: blockHeight } : {}),
    });
    this.options.onHalt?.(err);
    if (source === 'ticks') this.retryAfterHalt();
  }

  /** The roots check found the blocks agree again: take ticks again. */
  resume(source: HaltSource): void {
    if (!this.halts.clear(source) || this.state !== 'running') return;
    this.options.onInfo?.({ leader: this.leader }, 'follower: following resumed');
    if (!this.halts.current && !this.stream) void this.reconnectFromStored();
  }

  /** After a refused tick: wait (backoff), move to the next leader if there are several, follow from the last stored tick. */
  private retryAfterHalt(): void {
    const wait = this.haltRetryMs;
    this.haltRetryMs = Math.min(this.haltRetryMs * 2, this.options.haltRetryMaxMs ?? 30_000);
    if (this.leaders.length > 1) this.switchLeader((this.leaderIndex + 1) % this.leaders.length);
    this.options.onInfo?.({ leader: this.leader, retryMs: wait }, 'follower: halted on a refused tick; retrying');
    this.retryTimer = setTimeout(() => void this.reconnectFromStored(), wait);
    this.retryTimer.unref?.();
  }

  private switchLeader(index: number): void {
    if (index === this.leaderIndex) return;
    this.client.close();
    this.leaderIndex = index;
    this.client = new NodeClient(this.leader);
  }

  /** Follow again from the last stored tick (after a halt): every chunk before it has settled. */
  private async reconnectFromStored(): Promise<void> {
    const generation = this.generation;
    await this.draining.catch(() => undefined);
    if (generation !== this.generation || this.state !== 'running' || this.halts.source('roots')) return;
    const head = this.log.head;
    const last = head.tick > 0 ? await this.log.getTick(head.tick) : undefined;
    if (generation !== this.generation || this.state !== 'running') return;
    const before = last ? vdfInputOf(last) : undefined;
    this.ctx = {
      before: before && !('code' in before) ? before : undefined,
      lastSequence: head.lastSequence,
      ...(last ? {} : { firstTick: head.tick + 1 }),
    };
    this.expected = head.tick + 1;
    this.connect();
  }

  private async pollLeader(): Promise<void> {
    if (this.state !== 'running') return;
    try {
      this.leaderTick = Math.max(this.leaderTick, Number((await this.client.status()).current_tick));
      this.lag.known(this.leaderTick, Date.now());
    } catch {
      // the stream's own error handling reports and retries
    }
  }

  private connect(): void {
    if (this.state !== 'running') return;
    const s = this.client.streamTicks(this.expected, { follower: true });
    this.stream = s;
    this.paused = false;
    s.on('data', (w: WireTick) => this.onWire(s, w));
    s.on('error', (err: Error) => this.onStreamEnd(s, err));
    s.on('end', () => this.onStreamEnd(s, undefined));
  }

  private onStreamEnd(s: grpc.ClientReadableStream<WireTick>, err: Error | undefined): void {
    if (s !== this.stream || this.state !== 'running') return;
    this.stream = undefined;
    this.connected = false;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.options.retryMaxMs ?? 5000);
    this.reconnects++;
    // Several --follow addresses: a leader gone is also a reason to try the next one.
    if (this.leaders.length > 1) this.switchLeader((this.leaderIndex + 1) % this.leaders.length);
    this.options.onInfo?.(
      { leader: this.leader, next: this.expected, retryMs: wait, err: err?.message },
      'follower: the leader stream ended; reconnecting',
    );
    this.retryTimer = setTimeout(() => this.connect(), wait);
    this.retryTimer.unref?.();
  }

  private onWire(s: grpc.ClientReadableStream<WireTick>, w: WireTick): void {
    if (s !== this.stream || this.state !== 'running' || this.receivedFailure) return;
    this.connected = true;
    this.retryMs = this.options.retryMinMs ?? 100;
    const t = tickOfWire(w);
    if (!('vdfProof' in t)) return this.refuseReceived(t);
    if (t.tickNumber < this.expected) return; // already have it (a leader that resent)
    if (t.tickNumber > this.expected) {
      return this.refuseReceived({
        tickNumber: this.expected,
        code: 'MISSING_TICK',
        message: `the leader sent tick ${t.tickNumber} where tick ${this.expected} was due`,
      });
    }
    this.expected++;
    if (t.tickNumber > this.leaderTick) this.leaderTick = t.tickNumber;
    this.lag.known(t.tickNumber, Date.now());
    this.received.push(t);
    if (!this.paused && this.received.length >= this.chunkTicks * 2) {
      this.paused = true;
      s.pause();
    }
    this.scheduleDispatch();
  }

  /** A tick that cannot even be read: check what came before it, then stop on it. */
  private refuseReceived(f: TickFailure): void {
    this.receivedFailure = f;
    this.stream?.cancel();
    this.stream = undefined;
    this.scheduleDispatch();
  }

  /** Dispatch after the current I/O callback, so a burst of messages makes one chunk. */
  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.received.length > 0 && this.inflight.length < this.maxInflight && this.state === 'running') {
      this.send(this.received.splice(0, this.chunkTicks), []);
    }
    if (
      this.received.length === 0 &&
      this.receivedFailure &&
      this.inflight.length < this.maxInflight &&
      this.state === 'running'
    ) {
      const f = this.receivedFailure;
      this.receivedFailure = undefined;
      this.send([], [f]);
    }
    if (this.paused && this.received.length < this.chunkTicks && this.stream) {
      this.paused = false;
      this.stream.resume();
    }
  }

  private send(ticks: Tick[], failures: TickFailure[]): void {
    const checked = checkTicks(this.ctx, ticks);
    const pre = [...failures, ...checked.failures];
    const inputs = checked.inputs;
    if (ticks.length > 0)
      this.ctx = { before: inputs.at(-1), lastSequence: lastSequenceAfter(this.ctx.lastSequence, ticks) };
    const verdict = verifyBatchOnPool(this.options.pool, inputs).then((v) => {
      const out = [...pre];
      for (const i of v.invalid) {
        const e = v.errors?.find((x) => x.index === i);
        const n = inputs[i]!.tickNumber;
        out.push({
          tickNumber: n,
          code: e?.code ?? 'INVALID_PROOF',
          message: `tick ${n}: ${e?.message ?? 'the VDF proof does not verify'}`,
        });
      }
      return out;
    });
    verdict.catch(() => undefined);
    const chunk: Chunk = { generation: this.generation, ticks, verdict };
    this.inflight.push(chunk);
    this.draining = this.draining
      .then(() => this.settle(chunk))
      .catch((err: unknown) =>
        this.fail(new FollowError(`the follower failed storing verified ticks: ${(err as Error).message}`)),
      );
  }

  /** Take the oldest chunk's verdict: store what passed, stop on the first failure. */
  private async settle(chunk: Chunk): Promise<void> {
    let failures: TickFailure[];
    try {
      failures = await chunk.verdict;
    } catch (err) {
      failures = [
        {
          tickNumber: chunk.ticks[0]?.tickNumber ?? this.expected,
          code: 'VERIFY_ERROR',
          message: `verification failed to run: ${(err as Error).message}`,
        },
      ];
    }
    if (this.state === 'failed' || chunk.generation !== this.generation) return; // dropped by a halt
    const bad = failures.reduce<TickFailure | undefined>(
      (a, f) => (!a || f.tickNumber < a.tickNumber ? f : a),
      undefined,
    );
    const good = bad ? chunk.ticks.filter((t) => t.tickNumber < bad.tickNumber) : chunk.ticks;
    if (good.length > 0) {
      const head = {
        tick: good[good.length - 1]!.tickNumber,
        lastSequence: lastSequenceAfter(this.log.head.lastSequence, good),
      };
      await this.log.append(good, head);
      this.rate.record(head.lastSequence);
      if (this.halts.clear('ticks')) {
        this.haltRetryMs = this.options.haltRetryMinMs ?? 1000;
        this.options.onInfo?.({ leader: this.leader, tick: head.tick }, 'follower: following resumed');
      }
    }
    if (chunk.generation !== this.generation) return;
    this.inflight.shift();
    if (bad) {
      const stored = this.log.head.tick;
      const what =
        bad.tickNumber <= stored
          ? `tick ${bad.tickNumber} is stored here already (verified when it first came), this copy of it was refused`
          : `nothing of tick ${bad.tickNumber}`;
      this.halt(
        new FollowError(
          `tick ${bad.tickNumber} from the leader at ${this.leader} fails verification: ${bad.code}: ${bad.message}; following halted (ticks up to ${stored} are verified and stored, ${what}); retrying`,
          bad.tickNumber,
          bad.code,
        ),
        'ticks',
      );
      return;
    }
    if (this.state === 'running') this.dispatch();
  }

  /** Stop for good: no more ticks are taken or stored. */
  fail(err: FollowError): void {
    if (this.state === 'failed' || this.state === 'stopped') return;
    this.state = 'failed';
    clearTimeout(this.retryTimer);
    clearInterval(this.pollTimer);
    this.stream?.cancel();
    this.stream = undefined;
    this.received = [];
    this.options.onFatal(err);
  }

  // --- submissions: forwarded to the leader, answered with its answer ---

  async submit(tx: Transaction): Promise<SubmitResult> {
    try {
      return resultOf(await this.client.submit(wireTx(tx)));
    } catch (err) {
      throw new SubmitError(
        submitCode(err),
        `the leader at ${this.leader}: ${(err as { details?: string }).details ?? (err as Error).message}`,
      );
    }
  }

  async submitBatch(txs: Transaction[]): Promise<Array<SubmitResult | SubmitError>> {
    try {
      const { responses, itemErrors } = await this.client.submitBatch(txs.map(wireTx));
      const errors = new Map(itemErrors.map((e) => [e.index, e]));
      return txs.map((_, i) => {
        const e = errors.get(i);
        if (e)
          return new SubmitError(
            (['INVALID_ARGUMENT', 'RESOURCE_EXHAUSTED', 'ALREADY_EXISTS', 'UNAVAILABLE'].includes(e.code)
              ? e.code
              : 'UNAVAILABLE') as SubmitErrorCode,
            e.message,
          );
        return resultOf(responses[i]!);
      });
    } catch (err) {
      const e = new SubmitError(
        submitCode(err),
        `the leader at ${this.leader}: ${(err as { details?: string }).details ?? (err as Error).message}`,
      );
      return txs.map(() => e);
    }
  }

  // --- reads: the verified ticks in the follower's own store ---

  getTick(tickNumber: number): Promise<Tick | undefined> {
    return this.log.getTick(tickNumber);
  }

  findTransactions(txHash8: string): Promise<TransactionLocation[]> {
    return this.log.findTransactions(txHash8);
  }

  recentTicks(limit: number, offset: number): TickSummary[] {
    return this.log.recentTicks(limit, offset);
  }

  readTicks(from: number, to: number): AsyncIterable<Tick> {
    return this.log.readTicks(from, to);
  }

  onTick(listener: TickListener): () => void {
    return this.log.onTick(listener);
  }

  status(): SequencerStatus {
    const total = this.log.head.lastSequence;
    return {
      currentTick: this.log.head.tick,
      totalTransactions: total,
      pendingTransactions: 0,
      uptimeSeconds: this.startedPerf === 0 ? 0 : Math.floor((performance.now() - this.startedPerf) / 1000),
      transactionsPerSecond: this.state === 'created' ? 0 : this.rate.rate(total),
      startedAt: this.startedAt,
      follow: this.followStatus(),
    };
  }
}

/** Is an svc node answering at `leader`? Writes nothing; throws FollowError with the reason. */
export async function probeLeader(leader: string): Promise<void> {
  const client = new NodeClient(leader);
  try {
    const s = await client.status();
    if (!Number.isSafeInteger(Number(s.current_tick))) throw new Error('its GetStatus answer has no current_tick');
  } catch (err) {
    throw new FollowError(
      `the leader at ${leader} does not answer as an svc node (--follow): ${(err as Error).message}`,
    );
  } finally {
    client.close();
  }
}
