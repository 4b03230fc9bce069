/**
 * TEST DOUBLE: an in-memory Sequencer for front-end and order book unit tests (gRPC, REST,
 * node runner, the order book's HTTP face and applier), so they do not depend on the VDF
 * clock. It validates with the engine's published limits, hashes transactions like the
 * engine (src/core/tx-hash.ts), and closes ticks when the test calls closeTick(), so stream
 * and lookup tests are deterministic; with `tickMs` it also closes one that long after a
 * submission, as the order book's tests need (`submit` resolves once "durable": queued).
 * Its VDF fields are filler bytes: this is not the engine and proves nothing about it; the
 * end-to-end tests use the real one.
 */
import { SubmitError, type Sequencer, type TickListener } from '../../src/sequencer/interface.js';
import {
  MAX_PAYLOAD_BYTES,
  MAX_PUBLIC_KEY_BYTES,
  MAX_SIGNATURE_BYTES,
  MAX_TX_ID_BYTES,
} from '../../src/sequencer/limits.js';
import { shortHash, transactionHash } from '../../src/core/tx-hash.js';
import type {
  OrderedTransaction,
  SequencerStatus,
  SubmitResult,
  Tick,
  TickSummary,
  Transaction,
  TransactionLocation,
} from '../../src/core/types.js';

export interface FakeSequencerOptions {
  queueCapacity?: number; // default 1000
  /** Close a tick this many ms after a submission (0: on the next turn of the event loop); default: only on closeTick(). */
  tickMs?: number;
}

function filler(seed: number, len: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) out[i] = (seed * 31 + i * 7) & 0xff;
  return out;
}

export class FakeSequencer implements Sequencer {
  readonly ticks: Tick[] = []; // index i holds tick i + 1
  private pending: OrderedTransaction[] = [];
  private readonly listeners = new Set<TickListener>();
  private readonly txIds = new Set<string>();
  private nextSeq = 1;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly tickMs: number | undefined;
  private readonly startedAt = Date.now() * 1000;
  /** Forced failure for the next getTick/findTransactions (tests of the 500 path). */
  failNextRead = false;
  /** Pending transactions beyond this are refused RESOURCE_EXHAUSTED (tests may change it). */
  capacity: number;

  constructor(options: FakeSequencerOptions = {}) {
    this.capacity = options.queueCapacity ?? 1000;
    this.tickMs = options.tickMs;
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    if (this.pending.length > 0) this.closeTick();
    this.stopped = true;
  }

  private validate(tx: Transaction): SubmitError | undefined {
    const idBytes = Buffer.byteLength(tx.txId, 'utf8');
    if (idBytes < 1 || idBytes > MAX_TX_ID_BYTES)
      return new SubmitError('INVALID_ARGUMENT', `tx_id must be 1..${MAX_TX_ID_BYTES} bytes`);
    if (tx.payload.length > MAX_PAYLOAD_BYTES) return new SubmitError('INVALID_ARGUMENT', 'payload too large');
    if (tx.signature.length > MAX_SIGNATURE_BYTES) return new SubmitError('INVALID_ARGUMENT', 'signature too large');
    if (tx.publicKey.length > MAX_PUBLIC_KEY_BYTES) return new SubmitError('INVALID_ARGUMENT', 'public_key too large');
    if (this.txIds.has(tx.txId)) return new SubmitError('ALREADY_EXISTS', `tx_id ${tx.txId} was already submitted`);
    return undefined;
  }

  private accept(tx: Transaction): SubmitResult {
    if (this.stopped) throw new SubmitError('UNAVAILABLE', 'stopped');
    const invalid = this.validate(tx);
    if (invalid) throw invalid;
    if (this.pending.length >= this.capacity) throw new SubmitError('RESOURCE_EXHAUSTED', 'queue full');
    const txHash = transactionHash(tx);
    this.txIds.add(tx.txId);
    const ordered: OrderedTransaction = {
      // copy: the front-end hands views into the received message
      transaction: {
        ...tx,
        payload: tx.payload.slice(),
        signature: tx.signature.slice(),
        publicKey: tx.publicKey.slice(),
      },
      sequenceNumber: this.nextSeq++,
      txHash,
      ingestionTimestamp: Date.now() * 1000,
    };
    this.pending.push(ordered);
    this.schedule();
    return { sequenceNumber: ordered.sequenceNumber, expectedTick: this.ticks.length + 1, txHash: shortHash(txHash) };
  }

  async submit(tx: Transaction): Promise<SubmitResult> {
    return this.accept(tx);
  }

  async submitBatch(txs: Transaction[]): Promise<Array<SubmitResult | SubmitError>> {
    return txs.map((tx) => {
      try {
        return this.accept(tx);
      } catch (err) {
        if (err instanceof SubmitError) return err;
        throw err;
      }
    });
  }

  /** With `tickMs`: close a tick that long after the first submission since the last one. */
  private schedule(): void {
    if (this.tickMs === undefined || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.closeTick();
    }, this.tickMs);
  }

  /** Close a tick with everything pending (possibly none) and notify listeners. */
  closeTick(): Tick {
    const n = this.ticks.length + 1;
    const tick: Tick = {
      tickNumber: n,
      vdfProof: { input: filler(n, 256), output: filler(n + 1, 256), proof: filler(n + 2, 256), iterations: 20 + n },
      transactions: this.pending,
      batchHash: filler(n + 3, 32),
      timestamp: Math.max(Date.now() * 1000, this.ticks.at(-1)?.timestamp ?? 0), // the wall clock, never behind the tick before
      previousOutput: filler(n, 256),
    };
    this.pending = [];
    this.ticks.push(tick);
    for (const l of [...this.listeners]) l(tick);
    return tick;
  }

  async getTick(tickNumber: number): Promise<Tick | undefined> {
    if (this.failNextRead) {
      this.failNextRead = false;
      throw new Error('injected read failure');
    }
    return this.ticks[tickNumber - 1];
  }

  async findTransactions(txHash8: string): Promise<TransactionLocation[]> {
    if (this.failNextRead) {
      this.failNextRead = false;
      throw new Error('injected read failure');
    }
    const out: TransactionLocation[] = [];
    for (const tick of this.ticks) {
      for (const o of tick.transactions)
        if (shortHash(o.txHash) === txHash8) out.push({ tickNumber: tick.tickNumber, transaction: o });
    }
    return out;
  }

  recentTicks(limit: number, offset: number): TickSummary[] {
    const out: TickSummary[] = [];
    for (let i = this.ticks.length - 1 - offset; i >= 0 && out.length < limit; i--) {
      const t = this.ticks[i]!;
      out.push({ tickNumber: t.tickNumber, timestamp: t.timestamp, transactionCount: t.transactions.length });
    }
    return out;
  }

  async *readTicks(from: number, to: number): AsyncIterable<Tick> {
    for (let n = Math.max(1, from); n <= Math.min(to, this.ticks.length); n++) {
      await Promise.resolve();
      yield this.ticks[n - 1]!;
    }
  }

  status(): SequencerStatus {
    return {
      currentTick: this.ticks.length,
      totalTransactions: this.ticks.reduce((n, t) => n + t.transactions.length, 0),
      pendingTransactions: this.pending.length,
      uptimeSeconds: (Date.now() * 1000 - this.startedAt) / 1e6,
      transactionsPerSecond: 0,
      startedAt: this.startedAt,
    };
  }

  onTick(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
