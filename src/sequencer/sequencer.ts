/**
 * The tick sequencer's engine (spec/1, design.md): ingestion, replay protection,
 * write-ahead durability, the hand-off to the clock worker and the durable tick store.
 *
 * Flow of one transaction:
 *   submit -> validate -> copy -> hash -> replay check -> capacity check -> sequence
 *   number -> queue (body, main thread) + write-ahead group (LevelDB) + the clock's
 *   transaction ring (hash, sequence number, ingestion time: ClockThread.offer) -> resolves
 *   when the write-ahead group is written.
 * Flow of one tick:
 *   batcher forms and hashes the batch, clock closes the tick (src/clock) -> pump:
 *   ClockThread.takeClosed -> staging.ts (pool proof if needed, in order) -> join the
 *   bodies from the queue -> TickLog.append (src/store/tick-log.ts: one LevelDB batch for
 *   every tick that arrived, with the write-ahead deletions) -> memory window -> listeners.
 * Nothing is visible (status, queries, listeners) before the batch that holds it is
 * written, and ticks are published strictly in order.
 */
import { sha256 } from '../crypto/sha256.js';
import { ClockThread } from '../clock/clock-thread.js';
import { nowMicros } from '../clock/clock-loop.js';
import type { ClockTick } from '../clock/protocol.js';
import type { Head } from '../store/disk-store.js';
import { TickLog } from '../store/tick-log.js';
import { WriteAheadLog, type WalEntry } from '../store/wal.js';
import { GENESIS_OUTPUT, TRIVIAL_PROOF_MAX_T } from '../vdf/index.js';
import { SubmitError, type Sequencer, type SequencerOptions, type TickListener } from './interface.js';
import { MAX_BATCH_TRANSACTIONS } from './limits.js';
import { poolProver, type Prover } from './prover.js';
import { ProofStaging } from './staging.js';
import { Fifo } from './queue.js';
import { RateMeter } from './rate.js';
import { ReplayGuard, hashKey, pkNonceKey, pkNonceKeyAt, type ReplayRecord } from './replay.js';
import { SlabAllocator } from './slab.js';
import { isShortHash, shortHash, transactionBytesLength, writeTransactionBytesFromText } from '../core/tx-hash.js';
import type {
  OrderedTransaction,
  SequencerStatus,
  SubmitResult,
  Tick,
  TickSummary,
  Transaction,
  TransactionLocation,
} from '../core/types.js';
import { checkTransaction } from './validate.js';

export const DEFAULT_REPLAY_WINDOW = 100_000;
/** Most transactions one tick carries (bounds a tick record; the rest wait one tick). */
export const MAX_TX_PER_TICK = 8192;
/**
 * Ticks read back into memory on start (the rest of the window fills as ticks come);
 * fewer if they already hold a replay window's worth of transactions.
 */
export const WARM_TICKS = 10_000;
const TX_RING_SLOTS = 65_536;
const TICK_RING_SLOTS = 16_384;
const MAX_TICKS_PER_COMMIT = 1024;
/**
 * Linger (see clock-loop.ts and docs/sequencer.md "Cadence"): after a tick with
 * transactions, LINGER_TICKS empty ticks always close trivially (about 127 squarings,
 * ~0.3 ms each); while traffic is steady (busy ticks at most LINGER_MAX_MS apart) empty
 * ticks close trivially for LINGER_MAX_MS after each busy tick. Trivial ticks bridge gaps without a pool
 * proof per gap (a long segment's proof costs the pool about T/8 + 512 multiplications
 * and delays the next tick by as much); the bound keeps what an isolated transaction
 * costs to at most one truncated heartbeat, its own tick and LINGER_TICKS empty ticks.
 * (Before issue 8 linger was one second after any transaction: ~2,650 empty ticks.)
 */
export const LINGER_TICKS = 8;
export const LINGER_MAX_MS = 250;


/** SubmitErrors are answers, not bugs: skip the stack capture (costly under overload). */
function refusal(code: SubmitError['code'], message: string): SubmitError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new SubmitError(code, message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

type State = 'created' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

function checkOption(name: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw new RangeError(`sequencer option ${name} must be an integer >= ${min}, got ${String(v)}`);
  }
  return v;
}

export class TickSequencer implements Sequencer {
  private state: State = 'created';
  /** Durable ticks: append in order, every read, listeners (src/store/tick-log.ts). */
  private readonly log: TickLog;
  private readonly wal: WriteAheadLog;
  private readonly replay: ReplayGuard;
  private readonly rate = new RateMeter();
  private readonly pending = new Fifo<WalEntry>();
  private sent = 0; // queue items (from the front) already handed to the clock
  private clock: ClockThread | undefined;
  private nextSequence = 1;
  private lastOutput: Uint8Array = GENESIS_OUTPUT;
  private lastTimestamp = 0;
  private startedAt = 0;
  private startedPerf = 0;
  private pumpDone: Promise<void> = Promise.resolve();
  private stopping: Promise<void> | undefined;
  private failure: Error | undefined;
  private readonly prover: Prover;
  private readonly slab = new SlabAllocator();

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
    this.replay = new ReplayGuard(checkOption('replayWindow', options.replayWindow ?? DEFAULT_REPLAY_WINDOW, 1));
    this.prover = poolProver(options.pool);
  }

  // ---------------------------------------------------------------- lifecycle

  async start(): Promise<void> {
    if (this.state !== 'created') throw new Error('start() can be called once');
    this.state = 'starting';
    // The durable ticks; the newest warm the memory window and the replay window.
    const { head, last, warm } = await this.log.open(WARM_TICKS, this.replay.windowSize);
    if (last) {
      this.lastOutput = last.vdfProof.output;
      this.lastTimestamp = last.timestamp;
    }
    for (const t of warm) {
      for (const o of t.transactions) {
        this.remember(o.txHash, o.transaction, {
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
      this.remember(e.fullHash, e.tx, {
        sequenceNumber: e.sequence,
        expectedTick: head.tick + 1,
        txHash: shortHash(e.fullHash),
        durable: Promise.resolve(),
      });
    }
    this.nextSequence = Math.max(head.lastSequence, maxSequence) + 1;

    const clock = new ClockThread({
      params: {
        startTick: head.tick + 1,
        previousOutput: this.lastOutput,
        vdfIterations: this.options.vdfIterations,
        idleTickMs: this.options.idleTickMs,
        lastTimestamp: this.lastTimestamp,
        maxTxPerTick: MAX_TX_PER_TICK,
        trivialProofMaxT: TRIVIAL_PROOF_MAX_T,
        lingerTicks: LINGER_TICKS,
        lingerMaxMs: LINGER_MAX_MS,
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

  private remember(fullHash: Uint8Array, tx: Transaction, record: Omit<ReplayRecord, 'hashKey'>): void {
    this.replay.add(tx.txId, pkNonceKey(tx.publicKey, tx.nonce), { ...record, hashKey: hashKey(fullHash) });
  }

  /** Accept one transaction or throw a SubmitError (synchronous up to the WAL promise). */
  private accept(input: unknown): ReplayRecord {
    if (this.state !== 'running') throw this.unavailable();
    const idLength = checkTransaction(input);
    const given = input as Transaction;
    // One buffer per transaction: its Borsh bytes, which the fields (tx_id's UTF-8
    // included) then view (a private copy, so a caller reusing its buffers cannot change
    // what was hashed).
    const bytes = this.slab.alloc(transactionBytesLength(given, idLength));
    const [payloadAt, signatureAt, publicKeyAt] = writeTransactionBytesFromText(bytes, given, idLength);
    const txIdBytes = bytes.subarray(4, 4 + idLength);
    const tx: Transaction = {
      txId: given.txId,
      payload: bytes.subarray(payloadAt, payloadAt + given.payload.length),
      signature: bytes.subarray(signatureAt, signatureAt + given.signature.length),
      publicKey: bytes.subarray(publicKeyAt, publicKeyAt + given.publicKey.length),
      nonce: given.nonce,
      timestamp: given.timestamp,
    };
    const digest = sha256(bytes);
    const hk = hashKey(digest);
    // The hash lives next to the bytes in the slab: the digest's own buffer dies young
    // instead of surviving (as an ArrayBuffer per transaction) until the tick is stored.
    const fullHash = this.slab.alloc(32);
    fullHash.set(digest);
    const pk = pkNonceKeyAt(bytes, publicKeyAt, given.publicKey.length);
    const verdict = this.replay.check(hk, tx.txId, pk);
    if (verdict.kind === 'duplicate') return verdict.record;
    if (verdict.kind === 'conflict') throw refusal('ALREADY_EXISTS', verdict.message);
    if (this.pending.length >= this.options.queueCapacity) {
      throw refusal(
        'RESOURCE_EXHAUSTED',
        `the transaction queue is full (${this.options.queueCapacity} waiting for a tick); retry later`,
      );
    }
    const sequence = this.nextSequence++;
    const entry: WalEntry = { sequence, ingestionTimestamp: nowMicros(), tx, txIdBytes, fullHash };
    const expectedTick = this.expectedTick();
    this.pending.push(entry);
    const durable = this.wal.append(entry);
    const record: ReplayRecord = { hashKey: hk, sequenceNumber: sequence, expectedTick, txHash: shortHash(fullHash), durable };
    this.replay.add(tx.txId, pk, record);
    return record;
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
    const record = this.accept(tx);
    this.pushToClock();
    await record.durable;
    return { sequenceNumber: record.sequenceNumber, expectedTick: record.expectedTick, txHash: record.txHash };
  }

  async submitBatch(txs: Transaction[]): Promise<Array<SubmitResult | SubmitError>> {
    if (this.state !== 'running') throw this.unavailable();
    if (!Array.isArray(txs)) throw new SubmitError('INVALID_ARGUMENT', 'transactions must be a list');
    if (txs.length > MAX_BATCH_TRANSACTIONS) {
      throw new SubmitError(
        'INVALID_ARGUMENT',
        `batch has ${txs.length} transactions; at most ${MAX_BATCH_TRANSACTIONS} allowed`,
      );
    }
    const records: Array<ReplayRecord | SubmitError> = new Array(txs.length);
    const waits = new Set<Promise<void>>();
    for (let i = 0; i < txs.length; i++) {
      try {
        const r = this.accept(txs[i]);
        records[i] = r;
        waits.add(r.durable);
      } catch (err) {
        if (!(err instanceof SubmitError)) throw err;
        records[i] = err;
      }
    }
    this.pushToClock();
    await Promise.all(waits);
    return records.map((r) =>
      r instanceof SubmitError ? r : { sequenceNumber: r.sequenceNumber, expectedTick: r.expectedTick, txHash: r.txHash },
    );
  }

  // ---------------------------------------------------------------- ticks

  /**
   * Take the clock's closed ticks into proof staging (each heartbeat's pool proof starts
   * at once; proofs run in parallel) and commit the longest prefix whose proofs are
   * ready: group commit, strictly in tick order.
   */
  private async pump(): Promise<void> {
    const clock = this.clock!;
    const staging = new ProofStaging((tick) => {
      const claim = { input: tick.input, output: tick.output, iterations: tick.iterations };
      return tick.hasCheckpoints
        ? clock.takeCheckpoints(tick.tickNumber).then((checkpoints) => this.prover({ ...claim, checkpoints }))
        : this.prover(claim);
    });
    for (;;) {
      // 1. Everything the clock has closed so far is staged (pool proofs start now).
      for (const tick of clock.takeClosed(staging.room())) staging.add(tick);
      if (staging.size === 0) {
        if (this.failure || clock.drained()) return;
        await clock.waitForClosed(100);
        continue;
      }
      // 2. Commit the ready prefix, or wait for the first pending proof.
      const ready = staging.takeReady(MAX_TICKS_PER_COMMIT);
      if (ready.length === 0) {
        await staging.firstSettled();
        continue;
      }
      await this.commit(ready);
      if (this.failure) return;
    }
  }

  private async commit(raw: ClockTick[]): Promise<void> {
    const ticks: Tick[] = new Array(raw.length);
    const txIds: Uint8Array[][] = new Array(raw.length);
    let offset = 0;
    let prev = this.lastOutput;
    let lastSequence = this.log.head.lastSequence;
    let expected = this.log.head.tick + 1;
    for (let i = 0; i < raw.length; i++) {
      const t = raw[i]!;
      if (t.tickNumber !== expected) throw new Error(`clock produced tick ${t.tickNumber}, expected ${expected}`);
      expected++;
      if (offset + t.txCount > this.sent) throw new Error(`tick ${t.tickNumber} carries transactions never sent`);
      const txs: OrderedTransaction[] = new Array(t.txCount);
      const ids: Uint8Array[] = new Array(t.txCount);
      for (let j = 0; j < t.txCount; j++) {
        const e = this.pending.at(offset + j);
        if (e.sequence !== t.firstSequence + j) {
          throw new Error(`tick ${t.tickNumber}: sequence ${e.sequence} where ${t.firstSequence + j} was expected`);
        }
        txs[j] = { transaction: e.tx, sequenceNumber: e.sequence, txHash: e.fullHash, ingestionTimestamp: e.ingestionTimestamp };
        ids[j] = e.txIdBytes;
        lastSequence = e.sequence;
      }
      offset += t.txCount;
      ticks[i] = {
        tickNumber: t.tickNumber,
        vdfProof: { input: t.input, output: t.output, proof: t.proof, iterations: t.iterations },
        transactions: txs,
        batchHash: t.batchHash,
        timestamp: t.timestamp,
        previousOutput: prev,
      };
      txIds[i] = ids;
      prev = t.output;
    }
    const last = ticks[ticks.length - 1]!;
    const head: Head = { tick: last.tickNumber, lastSequence };
    // Durable, then shown: the queue and the chain state move on before listeners run.
    await this.log.append(ticks, head, this.wal.takeDeletable(lastSequence), txIds, () => {
      this.pending.drop(offset);
      this.sent -= offset;
      this.lastOutput = prev;
      this.lastTimestamp = last.timestamp;
      this.rate.record(lastSequence);
      this.pushToClock();
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

  recentTicks(limit: number, offset: number): TickSummary[] {
    return this.log.recentTicks(limit, offset);
  }

  readTicks(from: number, to: number): AsyncIterable<Tick> {
    return this.log.readTicks(from, to);
  }

  status(): SequencerStatus {
    const total = this.log.head.lastSequence;
    return {
      currentTick: this.log.head.tick,
      totalTransactions: total,
      pendingTransactions: this.pending.length,
      uptimeSeconds: this.startedPerf === 0 ? 0 : Math.floor((performance.now() - this.startedPerf) / 1000),
      transactionsPerSecond: this.state === 'created' ? 0 : this.rate.rate(total),
      startedAt: this.startedAt,
    };
  }

  onTick(listener: TickListener): () => void {
    return this.log.onTick(listener);
  }

  // ---------------------------------------------------------------- diagnostics

  /** Which VDF engine the clock runs ('wasm' or 'reference'); '' before start. */
  engineName(): string {
    return this.clock?.engineName ?? '';
  }

  /** Ticks and bytes held in the memory window. */
  memoryFootprint(): { ticks: number; bytes: number } {
    return this.log.memoryFootprint();
  }
}
