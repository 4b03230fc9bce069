/**
 * The durable tick log: appends ticks in order (one atomic LevelDB batch per group, with
 * any extra operations the caller adds, e.g. write-ahead deletions), keeps the newest in
 * the memory window, and serves every read of the tick store (getTick, readTicks,
 * findTransactions, recentTicks, head, onTick listeners). Nothing is readable or
 * announced before the batch that holds it is written.
 *
 * Two heads (docs/sequencer.md "Order first, proof after"): a tick is ORDERED once it is
 * durable, with its VDF output, and PROVEN once its Wesolowski proof and every earlier
 * tick's are stored too. A leader stores a heartbeat before the pool has proven it, so
 * what depends only on the order (the order book, through `onOrdered` and `readOrdered`)
 * need not wait for proofs; the tick reads and `onTick` serve proven ticks only, in
 * order. A proof that arrives later is written into the stored tick (`commit`'s
 * `proofs`). A tick waiting for its proof has the all-zero element as its proof (never a
 * valid proof); after a crash the head record's `proven` says which ticks to prove again.
 *
 * It knows nothing of the clock: the leader's sequencer appends the ticks its clock
 * closes, and a follower (issue 9) can append ticks it verified from a leader and serve
 * the same reads. A follower started from a leader's snapshot seeds it at tick T (seed()):
 * its ticks are then T..head, and reads below T answer not found.
 */
import { shortHash } from '../core/index.js';
import type { Tick, TickSummary, TransactionLocation } from '../core/index.js';
import { DiskTickStore, STORAGE_LAYOUT, type ExtraOp, type Head } from './disk-store.js';
import { MemoryTickStore } from './memory-store.js';
import { TickReads } from './tick-reads.js';
import { isPendingProof } from './pending-proof.js';
import { TICK_FORMAT } from '../vdf/index.js';

const FORMAT_KEY = 'format';
const STORAGE_KEY = 'storage';

export interface TickLogOptions {
  retainTicks: number; // ticks kept in memory
  retainBytes?: number; // memory bound of those ticks
  /** A listener threw: reported here, the others still run. */
  onListenerError?: (err: Error) => void;
}

/** `bodies`: each transaction's stored form as intake wrote it, where the log has them (not after a restart). */
export type TickLogListener = (tick: Tick, bodies?: readonly Uint8Array[]) => void;

/** A proof computed after its tick was stored. */
export interface LateProof {
  tickNumber: number;
  proof: Uint8Array;
}

/** One commit: new ticks after the head, proofs for stored ticks, in ONE atomic batch. */
export interface Commit {
  ticks: Tick[]; // consecutive, the next after the head; a pending proof is all zeros
  head: Head; // the head after these ticks
  extra?: ExtraOp[];
  /** Per tick, per transaction: its body as intake wrote it. */
  parts?: ReadonlyArray<readonly StoredTxParts[]>;
  /** Proofs of ticks stored earlier (or in this commit) without them. */
  proofs?: readonly LateProof[];
  /** The caller's own bookkeeping, after the write and before anyone is told. */
  stored?: () => void;
}

export { isPendingProof };

interface Unproven {
  tick: Tick;
  bodies?: Uint8Array[];
  lastSequence: number; // the head's last sequence number once this tick is in
}

/** A transaction's stored form, written once at intake (src/sequencer/prepare.ts). */
export interface StoredTxParts {
  body: Uint8Array; // src/core/tx-record.ts
}

export class TickLog {
  readonly disk: DiskTickStore;
  private readonly memory: MemoryTickStore;
  private readonly reads: TickReads;
  private headValue: Head = { tick: 0, lastSequence: 0 };
  private provenValue: Head = { tick: 0, lastSequence: 0 };
  /** Ordered ticks waiting for their proof or an earlier tick's: provenValue.tick+1 .. headValue.tick. */
  private readonly unproven: Unproven[] = [];
  private first = 1; // first stored tick: 1, or T for a store seeded from a snapshot (seed())
  private readonly listeners = new Set<TickLogListener>();
  private readonly orderedListeners = new Set<TickLogListener>();

  constructor(
    db: ConstructorParameters<typeof DiskTickStore>[0],
    private readonly options: TickLogOptions,
  ) {
    this.disk = new DiskTickStore(db);
    this.memory = new MemoryTickStore(options.retainTicks, undefined, options.retainBytes);
    this.reads = new TickReads(this.disk, this.memory, () => ({ first: this.first, proven: this.provenValue.tick }));
  }

  /**
   * Load the head and warm the memory window with up to `warmTicks` newest ticks (fewer
   * once they hold `maxTransactions`); returns the last stored tick and the warm ticks,
   * oldest first (the sequencer fills its replay window from them).
   */
  async open(
    warmTicks: number,
    maxTransactions: number,
  ): Promise<{ head: Head; last: Tick | undefined; warm: Tick[] }> {
    const stored = await this.disk.loadHead();
    await this.checkFormat(stored);
    this.first = (await this.disk.loadBase())?.tick ?? 1;
    const head: Head = { tick: stored.tick, lastSequence: stored.lastSequence };
    let last: Tick | undefined;
    if (head.tick > 0) {
      last = await this.disk.readTick(head.tick);
      if (!last) throw new Error(`tick store is inconsistent: head tick ${head.tick} is missing`);
    }
    this.headValue = head;
    // Ticks stored before their proof (a crash came first) wait in the unproven list.
    const proven = Math.min(stored.proven, head.tick);
    let lastSequence = proven === head.tick ? head.lastSequence : await this.disk.lastSequenceAt(proven);
    this.provenValue = { tick: proven, lastSequence };
    for await (const t of this.disk.readRange(proven + 1, head.tick)) {
      if (t.transactions.length > 0) lastSequence = t.transactions[t.transactions.length - 1]!.sequenceNumber;
      this.unproven.push({ tick: t, lastSequence });
    }
    // The replay window takes all of them; the memory window keeps what its bounds allow.
    const warm = await this.disk.readLast(warmTicks, maxTransactions, proven);
    for (const t of warm) this.memory.append({ tick: t });
    return { head, last, warm: [...warm, ...this.unproven.map((u) => u.tick)] };
  }

  /** Stored ticks whose proofs are not stored yet (after a crash), oldest first. */
  waitingForProof(): Tick[] {
    return this.unproven.filter((u) => isPendingProof(u.tick.vdfProof.proof)).map((u) => u.tick);
  }

  /**
   * The tick construction a database holds is written when it is created; a database of
   * another construction (v1 ticks, whose VDF input bound only the batch hash) is refused
   * rather than continued into a chain whose ticks verify by two different rules.
   */
  private async checkFormat(head: Head): Promise<void> {
    const [format, layout] = await Promise.all([this.disk.meta.get(FORMAT_KEY), this.disk.meta.get(STORAGE_KEY)]);
    if (format === TICK_FORMAT && layout === STORAGE_LAYOUT) return;
    if (format === undefined && head.tick === 0) {
      await this.disk.meta.batch([
        { type: 'put', key: FORMAT_KEY, value: TICK_FORMAT },
        { type: 'put', key: STORAGE_KEY, value: STORAGE_LAYOUT },
      ]);
      return;
    }
    if (format === TICK_FORMAT) {
      throw new Error(
        `the database under --db-path holds ${head.tick} ticks stored as JSON records (before ${STORAGE_LAYOUT}, docs/storage.md), and this node stores ticks in binary: ` +
          'start with a new --db-path, or move the old one away to keep it',
      );
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
    if (stored.tick !== 0 || this.headValue.tick !== 0)
      throw new Error(`a tick store that holds ticks (up to ${stored.tick}) cannot be seeded`);
    if (head.tick !== tick.tickNumber) throw new Error(`seed: head ${head.tick} is not tick ${tick.tickNumber}`);
    const format: ExtraOp = { type: 'put', sublevel: this.disk.meta, key: FORMAT_KEY, value: TICK_FORMAT };
    const layout: ExtraOp = { type: 'put', sublevel: this.disk.meta, key: STORAGE_KEY, value: STORAGE_LAYOUT };
    await this.disk.writeTicks(
      [tick],
      undefined,
      head,
      [this.disk.baseOp(head), format, layout, ...extra],
      head.tick,
      true,
    );
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
   * Store consecutive proven ticks (the next after the head) atomically with `extra`, then
   * show them (a full node: it appends ticks it verified, proofs included).
   */
  append(
    ticks: Tick[],
    head: Head,
    extra: ExtraOp[] = [],
    parts?: ReadonlyArray<readonly StoredTxParts[]>,
    stored?: () => void,
  ): Promise<void> {
    return this.commit({ ticks, head, extra, parts, stored });
  }

  /**
   * Store new ticks (the next after the head, proofs pending or not) and late proofs in
   * ONE atomic batch with `extra`, then: the head and `stored` (the caller's bookkeeping),
   * `onOrdered` listeners for the new ticks, and for every tick now proven in order the
   * memory window and the `onTick` listeners.
   */
  async commit(c: Commit): Promise<void> {
    const { ticks, head } = c;
    if (ticks.length === 0 && (c.proofs?.length ?? 0) === 0) return;
    if (ticks.length > 0 && ticks[0]!.tickNumber !== this.headValue.tick + 1) {
      throw new Error(`tick ${ticks[0]!.tickNumber} appended after ${this.headValue.tick}`);
    }
    // Late proofs go into the ticks they belong to: new ones before they are stored,
    // stored ones under their own key.
    const rewrites: ExtraOp[] = [];
    for (const p of c.proofs ?? []) {
      const fresh = ticks.length > 0 ? ticks[p.tickNumber - ticks[0]!.tickNumber] : undefined;
      if (fresh && fresh.tickNumber === p.tickNumber) {
        fresh.vdfProof.proof = p.proof;
        continue;
      }
      const waiting = this.unproven[p.tickNumber - this.provenValue.tick - 1];
      if (!waiting || waiting.tick.tickNumber !== p.tickNumber)
        throw new Error(`a proof for tick ${p.tickNumber}, which waits for none`);
      waiting.tick.vdfProof.proof = p.proof;
      rewrites.push(this.disk.proofOp(p.tickNumber, p.proof));
    }
    let lastSequence = this.headValue.lastSequence;
    const added: Unproven[] = ticks.map((tick, i) => {
      if (tick.transactions.length > 0) lastSequence = tick.transactions[tick.transactions.length - 1]!.sequenceNumber;
      return { tick, bodies: c.parts?.[i]?.map((x) => x.body), lastSequence };
    });
    const all = this.unproven.length === 0 ? added : [...this.unproven, ...added];
    let provenCount = 0;
    while (provenCount < all.length && !isPendingProof(all[provenCount]!.tick.vdfProof.proof)) provenCount++;
    const proven = provenCount > 0 ? all[provenCount - 1]!.tick.tickNumber : this.provenValue.tick;

    const nextHead = ticks.length > 0 ? head : this.headValue;
    await this.disk.writeTicks(
      ticks,
      added.map((u) => u.bodies),
      nextHead,
      [...rewrites, ...(c.extra ?? [])],
      proven,
    );
    this.headValue = nextHead;
    c.stored?.();
    for (const u of added) this.unproven.push(u);
    for (const u of added) this.tell(this.orderedListeners, u.tick, u.bodies);
    const shown = this.unproven.splice(0, provenCount);
    for (const u of shown) {
      this.memory.append({ tick: u.tick, bodies: u.bodies });
      this.provenValue = { tick: u.tick.tickNumber, lastSequence: u.lastSequence };
    }
    for (const u of shown) this.tell(this.listeners, u.tick);
  }

  private tell(listeners: Set<TickLogListener>, tick: Tick, bodies?: readonly Uint8Array[]): void {
    for (const listener of listeners) {
      try {
        listener(tick, bodies);
      } catch (err) {
        this.options.onListenerError?.(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }

  /** Called with each tick once it is durable and ordered, proof or not, in order. Returns an unsubscribe function. */
  onOrdered(listener: TickLogListener): () => void {
    const wrapped: TickLogListener = (t, bodies) => listener(t, bodies);
    this.orderedListeners.add(wrapped);
    return () => {
      this.orderedListeners.delete(wrapped);
    };
  }

  /** Latest proven tick (and every one before it) and its sequence number: what the tick reads serve. */
  get provenHead(): Head {
    return this.provenValue;
  }

  /** Durable ticks in [from, to], proofs or not, oldest first (the order book's replay). */
  async *readOrdered(from: number, to: number): AsyncIterable<Tick> {
    const hi = this.provenValue.tick;
    const waiting = this.unproven.slice();
    yield* this.reads.readTicks(from, Math.min(to, hi));
    for (const u of waiting) if (u.tick.tickNumber >= from && u.tick.tickNumber <= to) yield u.tick;
  }

  /** Called with each tick once it is durable and proven, in order. Returns an unsubscribe function. */
  onTick(listener: TickLogListener): () => void {
    const wrapped: TickLogListener = (t) => listener(t);
    this.listeners.add(wrapped);
    return () => {
      this.listeners.delete(wrapped);
    };
  }

  getTick(tickNumber: number): Promise<Tick | undefined> {
    return this.reads.getTick(tickNumber);
  }

  /** Every durable transaction whose 8-hex hash matches (already validated by the caller). */
  findTransactions(txHash8: string): Promise<TransactionLocation[]> {
    return this.reads.findTransactions(txHash8);
  }

  /**
   * Every transaction whose 8-hex hash matches in a tick that is ordered (durable) but not
   * yet proven: what a proof request answers "pending" for. Those ticks are all in memory
   * (the unproven list), so this reads nothing from disk; O(transactions waiting).
   */
  findUnproven(txHash8: string): TransactionLocation[] {
    const want = txHash8.toLowerCase();
    const out: TransactionLocation[] = [];
    for (const u of this.unproven) {
      for (const o of u.tick.transactions)
        if (shortHash(o.txHash) === want) out.push({ tickNumber: u.tick.tickNumber, transaction: o });
    }
    return out;
  }

  /** Newest first, from memory. */
  recentTicks(limit: number, offset: number): TickSummary[] {
    const l = Number.isSafeInteger(limit) && limit > 0 ? limit : 0;
    const o = Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
    return this.memory.recent(l, o);
  }

  /** Proven ticks in [from, to], oldest first, from memory or disk. */
  readTicks(from: number, to: number): AsyncIterable<Tick> {
    return this.reads.readTicks(from, to);
  }

  /** Ticks and bytes held in the memory window. */
  memoryFootprint(): { ticks: number; bytes: number } {
    return { ticks: this.memory.size(), bytes: this.memory.allocatedBytes() };
  }
}
