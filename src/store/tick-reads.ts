/**
 * Reads of shown (durable and proven) ticks from a memory window and the LevelDB store
 * beside it: one tick, a range in order, the transactions of an 8-hex hash. The bounds say
 * which ticks are shown: `first` (1, or T for a store seeded from a snapshot) to `proven`.
 *
 * TickLog reads through it with its own memory window; the node thread
 * (src/node/sequencer-proxy.ts) reads through it with a window of the ticks it was handed
 * and its own handle on the same LevelDB, so tick reads never wait for the ordering thread.
 * It writes nothing.
 */
import type { Tick, TransactionLocation } from '../core/index.js';
import type { DiskTickStore } from './disk-store.js';
import type { MemoryTickStore } from './memory-store.js';

export interface ShownBounds {
  first: number;
  proven: number;
}

export class TickReads {
  constructor(
    readonly disk: DiskTickStore,
    readonly memory: MemoryTickStore,
    private readonly bounds: () => ShownBounds,
  ) {}

  async getTick(tickNumber: number): Promise<Tick | undefined> {
    const { first, proven } = this.bounds();
    if (!Number.isSafeInteger(tickNumber) || tickNumber < first || tickNumber > proven) return undefined;
    return this.memory.get(tickNumber) ?? (await this.disk.readTick(tickNumber));
  }

  /** Every shown transaction whose 8-hex hash matches (already validated by the caller). */
  async findTransactions(txHash8: string): Promise<TransactionLocation[]> {
    const rows = await this.disk.lookup(txHash8.toLowerCase());
    const { first, proven } = this.bounds();
    const out: TransactionLocation[] = [];
    for (const row of rows) {
      if (row.tick > proven || row.tick < first) continue; // stored but not yet shown
      // The memory window has it decoded cheaply; otherwise read that one transaction.
      const inMemory = this.memory.get(row.tick);
      const tx = inMemory
        ? inMemory.transactions[row.sequence - (inMemory.transactions[0]?.sequenceNumber ?? 0)]
        : (await this.disk.readTransaction(row.sequence))?.transaction;
      if (tx && tx.sequenceNumber === row.sequence) out.push({ tickNumber: row.tick, transaction: tx });
    }
    return out;
  }

  /** Shown ticks in [from, to], oldest first, from memory or disk. */
  readTicks(from: number, to: number): AsyncIterable<Tick> {
    const { first, proven } = this.bounds();
    return this.readRange(Math.max(first, from), Math.min(to, proven));
  }

  private async *readRange(from: number, to: number): AsyncIterable<Tick> {
    if (!Number.isFinite(from) || !Number.isFinite(to)) return;
    let n = Math.ceil(from);
    const hi = Math.floor(to);
    while (n <= hi) {
      const t = this.memory.get(n);
      if (t) {
        yield t;
        n++;
        continue;
      }
      // A run on disk: up to the oldest tick in memory (or the end).
      const oldest = this.memory.oldest();
      const end = oldest > n ? Math.min(hi, oldest - 1) : hi;
      for await (const d of this.disk.readRange(n, end)) {
        yield d;
        n = d.tickNumber + 1;
      }
      if (n <= end) return; // missing on disk: nothing more to give
    }
  }
}
