/**
 * The tick sequencer's engine (spec/1, design.md): ingestion, replay protection,
 * write-ahead durability, the hand-off to the clock worker and the durable tick store.
 *
 * Flow of one transaction:
 *   intake (prepare.ts, inline or on an intake thread: validate, Borsh, hash, stored
 *   forms) -> arrival line (arrivals.ts: admitted in arrival order) -> replay check ->
 *   capacity check -> sequence number -> queue (main thread) + write-ahead group (LevelDB)
 *   + the clock's transaction ring (hash, sequence number, ingestion time:
 *   ClockThread.offer) -> resolves when the write-ahead group is written.
 * Flow of one tick:
 *   batcher forms and hashes the batch, clock closes the tick (src/clock) -> pump:
 *   ClockThread.takeClosed -> its pool proof starts if it needs one (proofs.ts) -> join.ts
 *   (the bodies from the queue, checked against the clock's claims) -> TickLog.commit
 *   (src/store/tick-log.ts: one LevelDB batch for every tick that arrived and every proof
 *   that settled, with the write-ahead deletions) -> ordered listeners (the order book) ->
 *   once proven in order: memory window -> tick listeners.
 * Nothing is visible before the batch that holds it is written; ticks are published
 * strictly in order, the tick reads and streams only with their proofs. Tunables and refusals live in
 * options.ts, validation in validate.ts, intake in prepare.ts, admission (arrival order,
 * replay checks, sequence numbers) in admission.ts, replay protection in replay.ts.
 */
import { ClockThread, PROOFS_FAR_BEHIND, PROOFS_LAGGING, PROOFS_ON_TIME } from '../clock/index.js';
import { nowMicros } from '../core/index.js';
import type { ClockTick } from '../clock/index.js';
import type { Head } from '../store/index.js';
import { TickLog } from '../store/index.js';
import { WriteAheadLog, type WalEntry } from '../store/index.js';
import { GENESIS_OUTPUT, TRIVIAL_PROOF_MAX_T } from '../vdf/index.js';
import {
  SubmitError,
  type OrderedTicks,
  type Sequencer,
  type SequencerOptions,
  type TickListener,
} from './interface.js';
import { MAX_BATCH_TRANSACTIONS } from './limits.js';
import { poolProver, type Prover } from './prover.js';
import { ProofsInFlight, type SettledProof } from './proofs.js';
import { HOLD_EMPTY_MS, writeHeldNow } from './commit-policy.js';
import { Fifo } from '../intake/index.js';
import { RateMeter } from './rate.js';
import { isShortHash, shortHash } from '../core/index.js';
import { Admission } from './admission.js';
import { prepareTransactions, type PreparedBatch } from './prepare.js';
import type {
  SequencerStatus,
  SubmitResult,
  Tick,
  TickSummary,
  Transaction,
  TransactionLocation,
} from '../core/index.js';
import { joinTicks } from './join.js';
import {
  BRIDGE_GAP_MS,
  BRIDGE_SPAN,
  DEFAULT_REPLAY_WINDOW,
  LAGGING_GAP_MS,
  MAX_PROOFS_FAR_BEHIND,
  MAX_PROOFS_IN_FLIGHT,
  MAX_TICKS_PER_COMMIT,
  MAX_TX_PER_TICK,
  PROOF_START_DELAY_MS,
  TICK_RING_SLOTS,
  TX_RING_SLOTS,
  WARM_TICKS,
  checkOption,
  refusal,
} from './options.js';

export { DEFAULT_REPLAY_WINDOW, MAX_TX_PER_TICK, WARM_TICKS } from './options.js';

type State = 'created' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

export class TickSequencer implements Sequencer {
  private state: State = 'created';
  /** Durable ticks: append in order, every read, listeners (src/store/tick-log.ts). */
  private readonly log: TickLog;
  private readonly wal: WriteAheadLog;
  private readonly rate = new RateMeter();
  private readonly pending = new Fifo<WalEntry>();
  private sent = 0; // queue items (from the front) already handed to the clock
  private clock: ClockThread | undefined;
  private lastOutput: Uint8Array = GENESIS_OUTPUT;
  private lastTimestamp = 0;
  private startedAt = 0;
  private startedPerf = 0;
  private pumpDone: Promise<void> = Promise.resolve();
  private commits = 0;
  private stopping: Promise<void> | undefined;
  private failure: Error | undefined;
  private readonly prover: Prover;
  /** Replay checks, sequence numbers, queue and write-ahead appends, in arrival order. */
  private readonly admission: Admission;

  constructor(private readonly options: SequencerOptions) {
    checkOption('retainTicks', options.retainTicks, 1);
    checkOption('vdfIterations', options.vdfIterations, 1);
    checkOption('idleTickMs', options.idleTickMs, 1);
    checkOption('queueCapacity', options.queueCapacity, 1);
    this.log = new TickLog(options.db, {
      retainTicks: options.retainTicks,
      retainBytes: options.retainBytes,
      onListenerError: (err) => options.onError?.(err),
    });
    this.wal = new WriteAheadLog(options.db);
    this.admission = new Admission({
      queue: this.pending,
      wal: this.wal,
      queueCapacity: options.queueCapacity,
      ...(options.backlog ? { backlog: options.backlog } : {}),
      replayWindow: checkOption('replayWindow', options.replayWindow ?? DEFAULT_REPLAY_WINDOW, 1),
      checkRunning: () => {
        if (this.state !== 'running') throw this.unavailable();
      },
      expectedTick: () => this.expectedTick(),
      admitted: () => this.pushToClock(),
    });
    this.prover = poolProver(options.pool);
  }

  // ---------------------------------------------------------------- lifecycle

  async start(): Promise<void> {
    if (this.state !== 'created') throw new Error('start() can be called once');
    this.state = 'starting';
    // The durable ticks; the newest warm the memory window and the replay window.
    const { head, last, warm } = await this.log.open(WARM_TICKS, this.admission.replayWindow);
    if (last) {
      this.lastOutput = last.vdfProof.output;
      this.lastTimestamp = last.timestamp;
    }
    for (const t of warm) {
      for (const o of t.transactions) {
        this.admission.remember(o.txHash, o.transaction, {
          sequenceNumber: o.sequenceNumber,
          expectedTick: t.tickNumber,
          txHash: shortHash(o.txHash),
          durable: Promise.resolve(),
        });
      }
    }
    // Acknowledged transactions that are not in a durable tick go first, in order.
    const { entries, maxSequence } = await this.wal.recover(head.lastSequence);
    for (const e of entries) {
      this.pending.push(e);
      this.admission.remember(e.fullHash, e.tx, {
        sequenceNumber: e.sequence,
        expectedTick: head.tick + 1,
        txHash: shortHash(e.fullHash),
        durable: Promise.resolve(),
      });
    }
    this.admission.resumeAt(Math.max(head.lastSequence, maxSequence) + 1);
    // Ticks stored before a crash let their proofs finish: prove them again (the segment
    // is re-evaluated on the pool; the proof is a function of the tick, so it is the one
    // the lost computation would have given) before anything is served.
    const waiting = this.log.waitingForProof();
    if (waiting.length > 0) {
      const proofs = await Promise.all(
        waiting.map(async (t) => ({
          tickNumber: t.tickNumber,
          proof: await this.prover({
            input: t.vdfProof.input,
            output: t.vdfProof.output,
            iterations: t.vdfProof.iterations,
          }),
        })),
      );
      await this.log.commit({ ticks: [], head: this.log.head, proofs });
    }

    const clock = new ClockThread({
      params: {
        startTick: head.tick + 1,
        previousOutput: this.lastOutput,
        vdfIterations: this.options.vdfIterations,
        idleTickMs: this.options.idleTickMs,
        lastTimestamp: this.lastTimestamp,
        maxTxPerTick: MAX_TX_PER_TICK,
        trivialProofMaxT: TRIVIAL_PROOF_MAX_T,
        bridgeGapMs: BRIDGE_GAP_MS,
        bridgeSpan: BRIDGE_SPAN,
        laggingGapMs: LAGGING_GAP_MS,
      },
      engine: this.options.engine ?? 'auto',
      txSlots: TX_RING_SLOTS,
      tickSlots: TICK_RING_SLOTS,
    });
    this.clock = clock;
    try {
      await clock.start((err) => this.fail(err));
    } catch (err) {
      this.state = 'failed';
      await clock.terminate();
      throw err;
    }
    this.startedAt = nowMicros();
    this.startedPerf = performance.now();
    this.rate.record(head.lastSequence);
    this.state = 'running';
    this.pushToClock();
    this.pumpDone = this.pump().catch((err: unknown) => this.fail(err instanceof Error ? err : new Error(String(err))));
  }

  stop(): Promise<void> {
    if (!this.stopping) this.stopping = this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    const clock = this.clock;
    if (this.state !== 'running' || !clock) {
      if (clock) await clock.terminate();
      await this.pumpDone;
      if (this.state !== 'failed') this.state = 'stopped';
      return;
    }
    this.state = 'stopping'; // new submissions get UNAVAILABLE from here on
    await this.wal.flushed();
    while (this.sent < this.pending.length && !clock.failure) {
      this.pushToClock();
      if (this.sent < this.pending.length) await clock.waitForRoom(100);
    }
    await clock.stop(); // the clock ticks out what it holds, then exits
    await this.pumpDone; // every tick it produced is stored and published
    if (!this.failure) await this.wal.dropTicked(this.log.head.lastSequence);
    if (this.state === 'stopping') this.state = 'stopped';
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.state = 'failed';
    void this.clock?.terminate();
    this.options.onError?.(err);
  }

  // ---------------------------------------------------------------- ingestion

  private unavailable(): SubmitError {
    const why =
      this.state === 'stopping' || this.state === 'stopped'
        ? 'the sequencer is shutting down'
        : this.state === 'failed'
          ? `the sequencer failed: ${this.failure?.message ?? 'unknown error'}`
          : 'the sequencer is not started';
    return refusal('UNAVAILABLE', why);
  }

  /** The tick a transaction accepted now will most likely land in. */
  private expectedTick(): number {
    const clock = this.clock!;
    const queued = clock.queued();
    const ahead = this.pending.length - this.sent + queued.transactions;
    // A batch already waiting for the clock takes the next tick.
    return Math.max(clock.currentTick(), this.log.head.tick) + 1 + queued.batches + Math.floor(ahead / MAX_TX_PER_TICK);
  }

  /** Hand queued transactions (hash and sequence number) to the clock while its ring has room. */
  private pushToClock(): void {
    const clock = this.clock;
    if (!clock) return;
    const sent = this.sent;
    this.sent += clock.offer(this.pending.length - sent, (i) => this.pending.at(sent + i));
  }

  async submit(tx: Transaction): Promise<SubmitResult> {
    const [r] = await this.submitPrepared(prepareTransactions([tx]));
    if (r instanceof SubmitError) throw r;
    return r!;
  }

  submitBatch(txs: Transaction[]): Promise<Array<SubmitResult | SubmitError>> {
    if (this.state !== 'running') return Promise.reject(this.unavailable());
    if (!Array.isArray(txs)) return Promise.reject(new SubmitError('INVALID_ARGUMENT', 'transactions must be a list'));
    if (txs.length > MAX_BATCH_TRANSACTIONS) {
      return Promise.reject(
        new SubmitError(
          'INVALID_ARGUMENT',
          `batch has ${txs.length} transactions; at most ${MAX_BATCH_TRANSACTIONS} allowed`,
        ),
      );
    }
    return this.submitPrepared(prepareTransactions(txs));
  }

  /**
   * Submit a request whose intake ran (or runs) elsewhere, e.g. on an intake worker: it
   * takes its place in the arrival order now and is admitted when its turn comes.
   */
  submitPrepared(batch: PreparedBatch | Promise<PreparedBatch>): Promise<Array<SubmitResult | SubmitError>> {
    return this.admission.submit(batch);
  }

  // ---------------------------------------------------------------- ticks

  /**
   * Commit what the clock closed as soon as it closes it, proofs or not (each long
   * segment's pool proof starts at once and runs in parallel), together with the proofs
   * that settled meanwhile: group commit, strictly in tick order. A tick is ordered when
   * its batch is written; it is shown with its proof once that and every earlier proof
   * are written (TickLog).
   */
  private async pump(): Promise<void> {
    const clock = this.clock!;
    const proofs = new ProofsInFlight((tick) => {
      const claim = { input: tick.input, output: tick.output, iterations: tick.iterations };
      return tick.hasCheckpoints
        ? clock.takeCheckpoints(tick.tickNumber).then((checkpoints) => this.prover({ ...claim, checkpoints }))
        : this.prover(claim);
    }, PROOF_START_DELAY_MS);
    // Closed ticks not written yet (commit-policy.ts), and proofs not written yet.
    let held: ClockTick[] = [];
    let heldSince = 0;
    let settled: SettledProof[] = [];
    for (;;) {
      const closed = clock.takeClosed(MAX_TICKS_PER_COMMIT - held.length);
      if (held.length === 0 && closed.length > 0) heldSince = performance.now();
      for (const tick of closed) {
        if (tick.proofPending) proofs.start(tick);
        held.push(tick);
      }
      settled = settled.concat(proofs.takeSettled());
      clock.control.setProofsBehind(
        proofs.size > MAX_PROOFS_FAR_BEHIND
          ? PROOFS_FAR_BEHIND
          : proofs.size > MAX_PROOFS_IN_FLIGHT
            ? PROOFS_LAGGING
            : PROOFS_ON_TIME,
      );
      const firstHeld = held[0]?.tickNumber ?? Infinity;
      const proven = new Set(settled.map((p) => p.tickNumber));
      const writeHeld = writeHeldNow({
        count: held.length,
        carryTransactions: held.some((t) => t.txCount > 0),
        waitingForProof: held.filter((t) => t.proofPending && !proven.has(t.tickNumber)).length,
        heldForMs: performance.now() - heldSince,
        stopping: this.state !== 'running' || held.length >= MAX_TICKS_PER_COMMIT,
      });
      // Proofs of ticks already written are written at once: they let the ticks be shown.
      const forStored = settled.filter((p) => p.tickNumber < firstHeld);
      if (!writeHeld && forStored.length === 0) {
        if (held.length === 0 && settled.length === 0 && (this.failure || (clock.drained() && proofs.size === 0)))
          return;
        const wait = held.length > 0 ? Math.max(1, HOLD_EMPTY_MS - (performance.now() - heldSince)) : 100;
        await Promise.race([clock.waitForClosed(wait), proofs.nextSettled()]);
        continue;
      }
      this.commits++;
      if (writeHeld) {
        await this.commit(held, settled);
        held = [];
        settled = [];
      } else {
        await this.commit([], forStored);
        settled = settled.filter((p) => p.tickNumber >= firstHeld);
      }
      if (this.failure) return;
    }
  }

  private async commit(raw: ClockTick[], proofs: SettledProof[]): Promise<void> {
    if (raw.length === 0) {
      await this.log.commit({ ticks: [], head: this.log.head, proofs });
      return;
    }
    const {
      ticks,
      entries,
      taken: offset,
      lastSequence,
      lastOutput: prev,
    } = joinTicks(raw, {
      previousOutput: this.lastOutput,
      head: this.log.head,
      sent: this.sent,
      queued: (i) => this.pending.at(i),
    });
    const last = ticks[ticks.length - 1]!;
    const head: Head = { tick: last.tickNumber, lastSequence };
    // Durable, then shown: the queue and the chain state move on before listeners run.
    await this.log.commit({
      ticks,
      head,
      extra: this.wal.takeDeletable(lastSequence),
      parts: entries,
      proofs,
      stored: () => {
        this.pending.drop(offset);
        this.sent -= offset;
        this.lastOutput = prev;
        this.lastTimestamp = last.timestamp;
        this.rate.record(lastSequence);
        this.pushToClock();
      },
    });
  }

  // ---------------------------------------------------------------- queries

  getTick(tickNumber: number): Promise<Tick | undefined> {
    return this.log.getTick(tickNumber);
  }

  async findTransactions(txHash8: string): Promise<TransactionLocation[]> {
    if (typeof txHash8 !== 'string' || !isShortHash(txHash8)) {
      throw new SubmitError('INVALID_ARGUMENT', 'tx_hash must be 8 hexadecimal characters');
    }
    return this.log.findTransactions(txHash8);
  }

  async findUnprovenTransactions(txHash8: string): Promise<TransactionLocation[]> {
    if (typeof txHash8 !== 'string' || !isShortHash(txHash8)) {
      throw new SubmitError('INVALID_ARGUMENT', 'tx_hash must be 8 hexadecimal characters');
    }
    return this.log.findUnproven(txHash8);
  }

  recentTicks(limit: number, offset: number): TickSummary[] {
    return this.log.recentTicks(limit, offset);
  }

  readTicks(from: number, to: number): AsyncIterable<Tick> {
    return this.log.readTicks(from, to);
  }

  status(): SequencerStatus {
    const total = this.log.provenHead.lastSequence;
    return {
      currentTick: this.log.provenHead.tick,
      totalTransactions: total,
      pendingTransactions: this.pending.length + (this.log.head.lastSequence - total),
      uptimeSeconds: this.startedPerf === 0 ? 0 : Math.floor((performance.now() - this.startedPerf) / 1000),
      transactionsPerSecond: this.state === 'created' ? 0 : this.rate.rate(this.log.head.lastSequence),
      startedAt: this.startedAt,
    };
  }

  onTick(listener: TickListener): () => void {
    return this.log.onTick(listener);
  }

  orderedTicks(): OrderedTicks {
    return {
      onTick: (listener) => this.log.onOrdered(listener),
      readTicks: (from, to) => this.log.readOrdered(from, to),
      status: () => ({ ...this.status(), currentTick: this.log.head.tick }),
    };
  }

  // ---------------------------------------------------------------- diagnostics

  /** Which VDF engine the clock runs ('wasm' or 'reference'); '' before start. */
  engineName(): string {
    return this.clock?.engineName ?? '';
  }

  /** LevelDB commits of ticks so far (each one atomic batch of one or more ticks). */
  commitCount(): number {
    return this.commits;
  }

  /** Ticks and bytes held in the memory window. */
  memoryFootprint(): { ticks: number; bytes: number } {
    return this.log.memoryFootprint();
  }
}

/** Build the sequencer (call start() to open the chain and run the clock). */
export function createSequencer(options: SequencerOptions): Sequencer {
  return new TickSequencer(options);
}
