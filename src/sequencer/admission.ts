/**
 * Admission: the sequencer's ordering step on the main thread (docs/sequencer.md
 * "Intake"). Prepared requests (prepare.ts) wait in the arrival line (arrivals.ts) and are
 * admitted strictly in arrival order; for each valid transaction: the replay check, the
 * queue-capacity check, its sequence number, the queue entry, the write-ahead group and
 * the record the caller awaits. Nothing here validates, encodes or hashes.
 *
 * The queue and the write-ahead log are the sequencer's (its commit takes from both);
 * admission only appends. The replay window also learns, on start, what the stored ticks
 * and the write-ahead log hold (remember()).
 */
import { nowMicros } from '../core/index.js';
import { shortHash } from '../core/index.js';
import type { SubmitResult, Transaction } from '../core/index.js';
import type { WalEntry, WriteAheadLog } from '../store/index.js';
import { ArrivalQueue, MAX_ARRIVALS_WAITING, type Fifo } from '../intake/index.js';
import { SubmitError } from './interface.js';
import { refusal } from './options.js';
import { PreparedReader, type PreparedBatch, type PreparedTx } from './prepare.js';
import { ReplayGuard, replayKeysOf, type ReplayRecord } from './replay.js';

export interface AdmissionContext {
  queue: Fifo<WalEntry>; // accepted, not yet in a durable tick (the sequencer's)
  wal: WriteAheadLog;
  queueCapacity: number;
  /** Transactions ordered but not yet applied downstream; they count toward queueCapacity (default none). */
  backlog?(): number;
  replayWindow: number;
  /** Throws the sequencer's UNAVAILABLE SubmitError unless it is running. */
  checkRunning(): void;
  /** The tick a transaction accepted now will most likely land in. */
  expectedTick(): number;
  /** After each admitted request: hand the new entries to the clock. */
  admitted(): void;
}

export class Admission {
  private readonly replay: ReplayGuard;
  private readonly arrivals = new ArrivalQueue<PreparedBatch, Array<ReplayRecord | SubmitError>>((b) =>
    this.admitBatch(b),
  );
  private nextSequence = 1;

  constructor(private readonly ctx: AdmissionContext) {
    this.replay = new ReplayGuard(ctx.replayWindow);
  }

  get replayWindow(): number {
    return this.replay.windowSize;
  }

  /** On start: a transaction already sequenced (a stored tick, the write-ahead log). */
  remember(fullHash: Uint8Array, tx: Transaction, record: ReplayRecord): void {
    this.replay.add(replayKeysOf(tx, fullHash), record);
  }

  /** On start: the next sequence number to give. */
  resumeAt(sequence: number): void {
    this.nextSequence = sequence;
  }

  /** Take a place in the arrival line now; resolves once admitted and durable. */
  async submit(batch: PreparedBatch | Promise<PreparedBatch>): Promise<Array<SubmitResult | SubmitError>> {
    this.ctx.checkRunning();
    if (this.arrivals.waiting >= MAX_ARRIVALS_WAITING) {
      throw refusal(
        'RESOURCE_EXHAUSTED',
        `${MAX_ARRIVALS_WAITING} requests are already waiting for intake; retry later`,
      );
    }
    const records = await this.arrivals.submit(batch);
    const waits = new Set<Promise<void>>();
    for (const r of records) if (!(r instanceof SubmitError)) waits.add(r.durable);
    await Promise.all(waits);
    return records.map((r) =>
      r instanceof SubmitError
        ? r
        : { sequenceNumber: r.sequenceNumber, expectedTick: r.expectedTick, txHash: r.txHash },
    );
  }

  /** One request in its turn; an item refused keeps its place as a SubmitError. */
  private admitBatch(batch: PreparedBatch): Array<ReplayRecord | SubmitError> {
    this.ctx.checkRunning();
    const reader = new PreparedReader(batch);
    const out = new Array<ReplayRecord | SubmitError>(batch.count);
    for (let i = 0; i < batch.count; i++) {
      const invalid = reader.error(i);
      if (invalid !== undefined) {
        out[i] = new SubmitError('INVALID_ARGUMENT', invalid);
        continue;
      }
      try {
        out[i] = this.admit(reader.item(i));
      } catch (err) {
        if (!(err instanceof SubmitError)) throw err;
        out[i] = err;
      }
    }
    this.ctx.admitted();
    return out;
  }

  /** One valid transaction, or a SubmitError thrown (synchronous up to the WAL promise). */
  private admit(p: PreparedTx): ReplayRecord {
    const { ctx } = this;
    const verdict = this.replay.check(p);
    if (verdict.kind === 'duplicate') return verdict.record;
    if (verdict.kind === 'conflict') throw refusal('ALREADY_EXISTS', verdict.message);
    if (ctx.queue.length + (ctx.backlog?.() ?? 0) >= ctx.queueCapacity) {
      throw refusal(
        'RESOURCE_EXHAUSTED',
        `the transaction queue is full (${ctx.queueCapacity} waiting for a tick or to be applied); retry later`,
      );
    }
    const sequence = this.nextSequence++;
    const entry: WalEntry = { sequence, ingestionTimestamp: nowMicros(), tx: p.tx, fullHash: p.fullHash, body: p.body };
    const expectedTick = ctx.expectedTick();
    ctx.queue.push(entry);
    const durable = ctx.wal.append(entry);
    const record: ReplayRecord = {
      sequenceNumber: sequence,
      expectedTick,
      txHash: shortHash(p.fullHash),
      durable,
    };
    this.replay.add(p, record);
    return record;
  }
}
