/**
 * The node thread's side of the sequencer link (the contract: sequencer-link.ts): a
 * Sequencer whose calls cross to the ordering thread as messages and whose ticks arrive
 * from it; with `reads`, tick reads are served here from the node's memory window and its
 * own LevelDB handle.
 */
import type { MessagePort } from 'node:worker_threads';
import type {
  SequencerStatus,
  SubmitResult,
  Tick,
  TickSummary,
  Transaction,
  TransactionLocation,
} from '../core/index.js';
import type { OrderedTicks, PreparedBatch, Sequencer, SubmitError, TickListener } from '../sequencer/index.js';
import { MemoryTickStore, readPacked, TickReads, type DiskTickStore } from '../store/index.js';
import {
  errorIn,
  itemIn,
  wireError,
  type CallMessage,
  type ItemOut,
  type LinkSeed,
  type Op,
  type PreparedMessage,
  type ToNode,
} from './sequencer-link.js';

/** Where the node thread reads shown ticks itself (its own handle on the one LevelDB). */
export interface ProxyReads {
  disk: DiskTickStore;
  first: number; // the first stored tick (1, or T for a store seeded from a snapshot)
  windowTicks: number; // the newest ticks it keeps in memory for reads (--retain-ticks)
  windowBytes: number; // --retain-bytes
  /** The newest stored proven ticks up to the seed's, oldest first: the window's start. */
  warm: readonly Tick[];
}

/** The Sequencer as the node thread sees it: calls cross to the ordering thread, reads (with `reads`) do not. */

export class SequencerProxy implements Sequencer {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly provenListeners = new Set<TickListener>();
  private readonly orderedListeners = new Set<TickListener>();
  /** Ordered ticks whose proof has not crossed yet. */
  private readonly unproven = new Map<number, Tick>();
  private statusNow: SequencerStatus;
  private orderedNow: SequencerStatus;
  private readonly window?: MemoryTickStore;
  private readonly reads?: TickReads;

  private readonly applied: BigInt64Array;

  constructor(
    private readonly port: MessagePort,
    seed: LinkSeed,
    reads?: ProxyReads,
  ) {
    this.applied = new BigInt64Array(seed.applied);
    if (reads) {
      this.window = new MemoryTickStore(reads.windowTicks, undefined, reads.windowBytes);
      for (const tick of reads.warm) if (tick.tickNumber <= seed.status.currentTick) this.window.append({ tick });
      this.reads = new TickReads(reads.disk, this.window, () => ({
        first: reads.first,
        proven: this.statusNow.currentTick,
      }));
    }
    this.statusNow = seed.status;
    this.orderedNow = seed.ordered;
    port.on('message', (m: ToNode) => this.receive(m));
  }

  start(): Promise<void> {
    return Promise.resolve(); // the ordering thread started it
  }

  stop(): Promise<void> {
    return Promise.resolve(); // the ordering thread stops it
  }

  submit(tx: Transaction): Promise<SubmitResult> {
    return this.call('submit', [tx]) as Promise<SubmitResult>;
  }

  async submitBatch(txs: Transaction[]): Promise<Array<SubmitResult | SubmitError>> {
    return ((await this.call('submitBatch', [txs])) as ItemOut[]).map(itemIn);
  }

  async submitPrepared(batch: PreparedBatch | Promise<PreparedBatch>): Promise<Array<SubmitResult | SubmitError>> {
    const id = this.nextId;
    const answer = this.call('submitPrepared', []);
    Promise.resolve(batch).then(
      (b) => this.port.postMessage({ t: 'prepared', id, batch: b } satisfies PreparedMessage),
      (err: unknown) => this.port.postMessage({ t: 'prepared', id, error: wireError(err) } satisfies PreparedMessage),
    );
    return ((await answer) as ItemOut[]).map(itemIn);
  }

  getTick(tickNumber: number): Promise<Tick | undefined> {
    if (this.reads) return this.reads.getTick(tickNumber);
    return this.call('getTick', [tickNumber]) as Promise<Tick | undefined>;
  }

  findTransactions(txHash8: string): Promise<TransactionLocation[]> {
    if (this.reads) return this.reads.findTransactions(txHash8);
    return this.call('findTransactions', [txHash8]) as Promise<TransactionLocation[]>;
  }

  findUnprovenTransactions(txHash8: string): Promise<TransactionLocation[]> {
    return this.call('findUnprovenTransactions', [txHash8]) as Promise<TransactionLocation[]>;
  }

  /** Newest first, from the memory window (the ordering thread's, without `reads`). */
  recentTicks(limit: number, offset: number): TickSummary[] | Promise<TickSummary[]> {
    if (this.window) return this.window.recent(wholeOrZero(limit), wholeOrZero(offset));
    return this.call('recentTicks', [limit, offset]) as Promise<TickSummary[]>;
  }

  readTicks(from: number, to: number): AsyncIterable<Tick> {
    if (this.reads) return this.reads.readTicks(from, to);
    return this.read('readTicks', from, to);
  }

  status(): SequencerStatus {
    return this.statusNow;
  }

  /** Tell the ordering thread the last tick applied here (the backlog it counts is after it). */
  markApplied(tickNumber: number): void {
    Atomics.store(this.applied, 0, BigInt(tickNumber));
  }

  onTick(listener: TickListener): () => void {
    this.provenListeners.add(listener);
    return () => this.provenListeners.delete(listener);
  }

  orderedTicks(): OrderedTicks {
    return {
      onTick: (listener) => {
        this.orderedListeners.add(listener);
        return () => this.orderedListeners.delete(listener);
      },
      readTicks: (from, to) => this.read('readOrdered', from, to),
      status: () => this.orderedNow,
    };
  }

  private call(op: Op, args: unknown[]): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ t: 'call', id, op, args } satisfies CallMessage);
    });
  }

  private async *read(op: 'readTicks' | 'readOrdered', from: number, to: number): AsyncIterable<Tick> {
    let next = from;
    while (next <= to) {
      const ticks = (await this.call(op, [next, to])) as Tick[];
      if (ticks.length === 0) return;
      for (const t of ticks) yield t;
      next = ticks[ticks.length - 1]!.tickNumber + 1;
    }
  }

  private receive(m: ToNode): void {
    this.statusNow = m.status;
    this.orderedNow = m.ordered;
    if (m.t === 'reply') {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (!w) return;
      if (m.ok) w.resolve(m.value);
      else w.reject(errorIn(m.error));
      return;
    }
    if (m.t === 'ordered') {
      const tick = readPacked(m.packed, new DataView(m.packed.buffer, m.packed.byteOffset, m.packed.byteLength), 0);
      this.unproven.set(tick.tickNumber, tick);
      for (const l of this.orderedListeners) l(tick);
      return;
    }
    const early = this.unproven.get(m.tickNumber);
    this.unproven.delete(m.tickNumber);
    const tick = m.tick ?? (early ? { ...early, vdfProof: { ...early.vdfProof, proof: m.proof } } : undefined);
    if (tick && this.window && tick.tickNumber > this.window.latest()) this.window.append({ tick });
    if (tick) for (const l of this.provenListeners) l(tick);
  }
}

// ------------------------------------------------------------------ helpers

function wholeOrZero(n: number): number {
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
