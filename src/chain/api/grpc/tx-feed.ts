/**
 * The live end of StreamTx: while at least one stream is open, every stored batch is
 * encoded ONCE into a TxBatch message and kept in a shared window of recent batches,
 * bounded in batches and in bytes. Streams hold a cursor (the next continuum_sequence
 * they want) and find their next message by binary search; a stream that fell behind
 * the window reads from the store instead (stream-tx.ts), so nobody is dropped for it.
 *
 * Waking is one-shot and opt-in: only streams that have caught up and wait for the next
 * batch are in `waiting`; a stream stalled on a full send queue is not, so it costs
 * nothing per batch.
 */
import type { ChainReader, TransactionBatch } from '../../core/index.js';
import { encodeTxBatch } from './encode.js';

export interface FeedEntry {
  firstSeq: bigint;
  lastSeq: bigint;
  batch: TransactionBatch;
  buf: Buffer;
}

export interface TxFeedOptions {
  windowBatches: number; // default 8,192
  windowBytes: number; // default 32 MiB
}

export const DEFAULT_TX_FEED: TxFeedOptions = { windowBatches: 8_192, windowBytes: 32 * 1024 * 1024 };

export class TxFeed {
  private entries: FeedEntry[] = [];
  private head = 0; // index of the oldest live entry in `entries`
  private bytes = 0;
  private unsubscribe: (() => void) | undefined;
  private readonly waiting = new Set<() => void>();
  private streams = 0;
  private closedFlag = false;

  constructor(
    private readonly chain: ChainReader,
    private readonly options: TxFeedOptions = DEFAULT_TX_FEED,
  ) {}

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Open StreamTx calls. */
  get size(): number {
    return this.streams;
  }

  attach(): void {
    this.streams++;
    if (!this.unsubscribe) this.unsubscribe = this.chain.onTransactions((b) => this.push(b));
  }

  detach(): void {
    this.streams--;
    if (this.streams === 0 && this.unsubscribe) {
      this.unsubscribe();
      this.unsubscribe = undefined;
      this.entries = [];
      this.head = 0;
      this.bytes = 0;
    }
  }

  /** Wake `wake` once, at the next batch (or close). */
  waitOnce(wake: () => void): void {
    this.waiting.add(wake);
  }

  cancelWait(wake: () => void): void {
    this.waiting.delete(wake);
  }

  /** First continuum_sequence the window covers (undefined when empty). */
  oldest(): bigint | undefined {
    return this.entries[this.head]?.firstSeq;
  }

  /** The first entry with lastSeq >= seq, if the window reaches back to seq. */
  find(seq: bigint): FeedEntry | undefined {
    const e = this.entries;
    let lo = this.head;
    let hi = e.length - 1;
    if (lo > hi || e[lo]!.firstSeq > seq) return undefined;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (e[mid]!.lastSeq < seq) lo = mid + 1;
      else hi = mid;
    }
    return e[lo]!.lastSeq >= seq ? e[lo] : undefined;
  }

  /** Node shutdown: waiting streams end. */
  close(): void {
    this.closedFlag = true;
    this.wakeAll();
  }

  private push(batch: TransactionBatch): void {
    const txs = batch.transactions;
    if (txs.length === 0) return;
    const buf = encodeTxBatch(batch);
    this.entries.push({
      firstSeq: txs[0]!.continuum_sequence,
      lastSeq: txs[txs.length - 1]!.continuum_sequence,
      batch,
      buf,
    });
    this.bytes += buf.length;
    while (
      this.entries.length - this.head > 1 &&
      (this.entries.length - this.head > this.options.windowBatches || this.bytes > this.options.windowBytes)
    ) {
      this.bytes -= this.entries[this.head]!.buf.length;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    this.wakeAll();
  }

  private wakeAll(): void {
    if (this.waiting.size === 0) return;
    const list = [...this.waiting];
    this.waiting.clear();
    for (const w of list) w();
  }
}
