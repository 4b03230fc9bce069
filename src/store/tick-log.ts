/**
 * The durable tick log: appends ticks in order (one atomic LevelDB batch per group, with
 * any extra operations the caller adds, e.g. write-ahead deletions), keeps the newest in
 * the memory window, and serves every read of the tick store (getTick, readTicks,
 * findTransactions, recentTicks, head, onTick listeners). Nothing is readable or
 * announced before the batch that holds it is written.
 *
 * It knows nothing of the clock: the leader's sequencer appends the ticks its clock
 * closes, and a follower (issue 9) can append ticks it verified from a leader and serve
 * the same reads. A follower started from a leader's snapshot seeds it at tick T (seed()):
 * its ticks are then T..head, and reads below T answer not found.
 */
import type { Tick, TickSummary, TransactionLocation } from '../core/types.js';
import { DiskTickStore, type ExtraOp, type Head } from './disk-store.js';
import { MemoryTickStore } from './memory-store.js';
import { encodeArchiveRecordsBytes } from './archive.js';
import { TICK_FORMAT } from '../vdf/binding.js';

const FORMAT_KEY = 'format';

export interface TickLogOptions {
  retainTicks: number; // ticks kept in memory
  retainBytes?: number; // memory bound of those ticks
  /** A listener threw: reported here, the others still run. */
  onListenerError?: (err: Error) => void;
}

export type TickLogListener = (tick: Tick) => void;

/** A transaction's stored forms, written once at intake (src/sequencer/prepare.ts). */
export interface StoredTxParts {
  body: Uint8Array; // src/core/tx-record.ts
  archivePrefix: Uint8Array; // src/store/archive.ts writeArchiveTxPrefix
}

export class TickLog {
  readonly disk: DiskTickStore;
  private readonly memory: MemoryTickStore;
  private headValue: Head = { tick: 0, lastSequence: 0 };
  private first = 1; // first stored tick: 1, or T for a store seeded from a snapshot (seed())
  private readonly listeners = new Set<TickLogListener>();

  constructor(
    db: ConstructorParameters<typeof DiskTickStore>[0],
    private readonly options: TickLogOptions,
  ) {
    this.disk = new DiskTickStore(db);
    this.memory = new MemoryTickStore(options.retainTicks, undefined, options.retainBytes);
  }

  /**
   * Load the head and warm the memory window with up to `warmTicks` newest ticks (fewer
   * once they hold `maxTransactions`); returns the last stored tick and the warm ticks,
   * oldest first (the sequencer fills its replay window from them).
   */
  async open(warmTicks: number, maxTransactions: number): Promise<{ head: Head; last: Tick | undefined; warm: Tick[] }> {
    const head = await this.disk.loadHead();
    await this.checkFormat(head);
    this.first = (await this.disk.loadBase())?.tick ?? 1;
    let last: Tick | undefined;
    if (head.tick > 0) {
      last = await this.disk.readTick(head.tick);
      if (!last) throw new Error(`tick store is inconsistent: head tick ${head.tick} is missing`);
    }
    this.headValue = head;
    const warm = await this.disk.readLast(Math.min(this.options.retainTicks, warmTicks), maxTransactions);
    for (const t of warm) this.memory.append({ tick: t });
    return { head, last, warm };
  }

  /**
   * The tick construction a database holds is written when it is created; a database of
   * another construction (v1 ticks, whose VDF input bound only the batch hash) is refused
   * rather than continued into a chain whose ticks verify by two different rules.
   */
  private async checkFormat(head: Head): Promise<void> {
    const format = await this.disk.meta.get(FORMAT_KEY);
    if (format === TICK_FORMAT) return;
    if (format === undefined && head.tick === 0) {
      await this.disk.meta.put(FORMAT_KEY, TICK_FORMAT);
      return;
    }
    throw new Error(
      `the database under --db-path holds ${head.tick} ticks of the ${format ?? 'svc-vdf-v1'} construction, and this node writes ${TICK_FORMAT} ` +
        '(docs/vdf.md "What a tick\'s VDF input binds"): start with a new --db-path, or move the old one away to keep it',
    );
  }

  /**
   * Start an empty store at tick T (a full node started from a leader's snapshot): tick T,
   * its index entries, the head, the `base` record and the tick format, with `extra` (the
   * chain's snapshot and head), in one atomic batch: after a crash the store is either
   * still empty or seeded. Reads of ticks below T answer not found. Call before open().
   */
  async seed(tick: Tick, head: Head, extra: ExtraOp[]): Promise<void> {
    const stored = await this.disk.loadHead();
    if (stored.tick !== 0 || this.headValue.tick !== 0) throw new Error(`a tick store that holds ticks (up to ${stored.tick}) cannot be seeded`);
    if (head.tick !== tick.tickNumber) throw new Error(`seed: head ${head.tick} is not tick ${tick.tickNumber}`);
    const format: ExtraOp = { type: 'put', sublevel: this.disk.meta, key: FORMAT_KEY, value: TICK_FORMAT };
    await this.disk.writeTicks([tick], undefined, head, [this.disk.baseOp(head), format, ...extra]);
  }

  /** First stored tick (1, or the snapshot's tick of a seeded store). */
  get firstTick(): number {
    return this.first;
  }

  /** Latest durable tick and sequence number. */
  get head(): Head {
    return this.headValue;
  }

  /**
   * Store consecutive ticks (the next after the head) atomically with `extra`, then show
   * them: memory window, head, `stored` (the caller's own bookkeeping, before anyone is
   * told), listeners in order. `parts` (per tick, per transaction: its body and archive
   * prefix as intake wrote them) spare the store encoding them again.
   */
  async append(ticks: Tick[], head: Head, extra: ExtraOp[] = [], parts?: ReadonlyArray<readonly StoredTxParts[]>, stored?: () => void): Promise<void> {
    if (ticks.length === 0) return;
    if (ticks[0]!.tickNumber !== this.headValue.tick + 1) {
      throw new Error(`tick ${ticks[0]!.tickNumber} appended after ${this.headValue.tick}`);
    }
    const records = parts ? encodeArchiveRecordsBytes(ticks, parts.map((p) => p.map((x) => x.archivePrefix))) : undefined;
    await this.disk.writeTicks(ticks, records, head, extra);
    for (let i = 0; i < ticks.length; i++) this.memory.append({ tick: ticks[i]!, bodies: parts?.[i]?.map((x) => x.body) });
    this.headValue = head;
    stored?.();
    for (const tick of ticks) {
      for (const listener of this.listeners) {
        try {
          listener(tick);
        } catch (err) {
          this.options.onListenerError?.(err instanceof Error ? err : new Error(String(err)));
        }
      }
    }
  }

  /** Called with each tick once it is durable, in order. Returns an unsubscribe function. */
  onTick(listener: TickLogListener): () => void {
    const wrapped: TickLogListener = (t) => listener(t);
    this.listeners.add(wrapped);
    return () => {
      this.listeners.delete(wrapped);
    };
  }

  async getTick(tickNumber: number): Promise<Tick | undefined> {
    if (!Number.isSafeInteger(tickNumber) || tickNumber < this.first || tickNumber > this.headValue.tick) return undefined;
    return this.memory.get(tickNumber) ?? (await this.disk.readTick(tickNumber));
  }

  /** Every durable transaction whose 8-hex hash matches (already validated by the caller). */
  async findTransactions(txHash8: string): Promise<TransactionLocation[]> {
    const rows = await this.disk.lookup(txHash8.toLowerCase());
    const out: TransactionLocation[] = [];
    const cache = new Map<number, Tick | undefined>();
    for (const row of rows) {
      if (row.tick > this.headValue.tick) continue; // stored but not yet shown
      if (!cache.has(row.tick)) cache.set(row.tick, await this.getTick(row.tick));
      const tick = cache.get(row.tick);
      if (!tick || tick.transactions.length === 0) continue;
      const tx = tick.transactions[row.sequence - tick.transactions[0]!.sequenceNumber];
      if (tx && tx.sequenceNumber === row.sequence) out.push({ tickNumber: tick.tickNumber, transaction: tx });
    }
    return out;
  }

  /** Newest first, from memory. */
  recentTicks(limit: number, offset: number): TickSummary[] {
    const l = Number.isSafeInteger(limit) && limit > 0 ? limit : 0;
    const o = Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
    return this.memory.recent(l, o);
  }

  /** Durable ticks in [from, to], oldest first, from memory or disk. */
  async *readTicks(from: number, to: number): AsyncIterable<Tick> {
    if (!Number.isFinite(from) || !Number.isFinite(to)) return;
    let n = Math.max(this.first, Math.ceil(from));
    const hi = Math.min(Math.floor(to), this.headValue.tick);
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

  /** Ticks and bytes held in the memory window. */
  memoryFootprint(): { ticks: number; bytes: number } {
    return { ticks: this.memory.size(), bytes: this.memory.allocatedBytes() };
  }
}
