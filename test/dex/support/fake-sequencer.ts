/**
 * TEST DOUBLE: an in-memory stand-in for the tick sequencer (src/sequencer), used by the
 * order book's unit and HTTP tests so they do not depend on the VDF clock. It honours the
 * `Sequencer` contract the order book relies on: `submit` resolves once the transaction is
 * "durable" (here: queued), ticks close shortly after (every `tickMs`, or at once when
 * `tickMs` is 0), `onTick` listeners get each tick in order, `readTicks` replays them.
 * The tick timestamp comes from `clock()` (microseconds), which tests can control.
 */
import { transactionHash } from '../../../src/core/tx-hash.js';
import { SubmitError, type Sequencer, type TickListener } from '../../../src/sequencer/interface.js';
import type { OrderedTransaction, SequencerStatus, SubmitResult, Tick, TickSummary, Transaction, TransactionLocation } from '../../../src/core/types.js';

export class FakeSequencer implements Sequencer {
  readonly ticks: Tick[] = [];
  private pending: OrderedTransaction[] = [];
  private listeners: TickListener[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  clock: () => number = () => Date.now() * 1000;
  capacity = 100_000;

  constructor(private readonly tickMs = 1) {}

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.pending.length > 0) this.closeTick();
  }

  async submit(tx: Transaction): Promise<SubmitResult> {
    if (this.stopped) throw new SubmitError('UNAVAILABLE', 'stopped');
    if (this.pending.length >= this.capacity) throw new SubmitError('RESOURCE_EXHAUSTED', 'queue full');
    const txHash = transactionHash(tx);
    const otx: OrderedTransaction = { transaction: tx, sequenceNumber: ++this.seq, txHash, ingestionTimestamp: this.clock() };
    this.pending.push(otx);
    this.schedule();
    return { sequenceNumber: otx.sequenceNumber, expectedTick: this.ticks.length + 1, txHash: Buffer.from(txHash.subarray(0, 4)).toString('hex') };
  }

  async submitBatch(txs: Transaction[]): Promise<Array<SubmitResult | SubmitError>> {
    const out: Array<SubmitResult | SubmitError> = [];
    for (const tx of txs) out.push(await this.submit(tx).catch((e: SubmitError) => e));
    return out;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.closeTick();
    }, this.tickMs);
  }

  /** Close a tick now with whatever is pending (tests may call it directly). */
  closeTick(): Tick {
    const tick: Tick = {
      tickNumber: this.ticks.length + 1,
      vdfProof: { input: new Uint8Array(256), output: new Uint8Array(256), proof: new Uint8Array(256), iterations: 1 },
      transactions: this.pending,
      batchHash: new Uint8Array(32),
      timestamp: this.clock(),
      previousOutput: new Uint8Array(256),
    };
    this.pending = [];
    this.ticks.push(tick);
    for (const l of this.listeners) l(tick);
    return tick;
  }

  async getTick(n: number): Promise<Tick | undefined> {
    return this.ticks[n - 1];
  }

  async findTransactions(): Promise<TransactionLocation[]> {
    return [];
  }

  recentTicks(): TickSummary[] {
    return [];
  }

  async *readTicks(from: number, to: number): AsyncIterable<Tick> {
    for (let n = Math.max(1, from); n <= Math.min(to, this.ticks.length); n++) yield this.ticks[n - 1]!;
  }

  status(): SequencerStatus {
    return {
      currentTick: this.ticks.length,
      totalTransactions: this.seq,
      pendingTransactions: this.pending.length,
      uptimeSeconds: 0,
      transactionsPerSecond: 0,
      startedAt: 0,
    };
  }

  onTick(listener: TickListener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
}
