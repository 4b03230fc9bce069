/**
 * The chain: consumes the order book's applied-tick records (`applied`, a consumer of the
 * order book runtime's applier), builds
 * blocks (builder.ts), writes every record to LevelDB (store.ts) and only then shows it
 * to the listeners (WebSocket, StreamTx, the message queue) and the REST reads; a
 * transaction's own record goes to its submitter (derivedRecord) and GET /transactions/:id
 * as soon as it is derived (docs/chain.md "Stored before shown"). Implements the ChainReader
 * surface (interface.ts).
 *
 * Snapshots: once at least `snapshotTxs` order book transactions, or at least
 * `snapshotTicks` ticks, were applied since the last one (and, either way, a quarter of the
 * state's size, so the O(state) cost of a snapshot is spread over at least as many
 * transactions or ticks), the write of that tick also stores a snapshot of the engine and
 * the builder; and on close. The tick count bounds a restart's replay on a chain with few
 * order book transactions (each tick replayed costs a read and a decode even when empty). A restart restores the latest
 * snapshot and replays only the ticks after it (re-deriving, byte for byte, whatever
 * records of those ticks were already stored).
 */
import type { Logger } from 'pino';
import type { Tick } from '../../core/index.js';
import { type AppliedTick, encodeSnapshot, type OrderBookEngine } from '../../dex/engine/index.js';
import type { BlockBuilder, BuildStep } from './builder.js';
import { formatId, heightKey, recordKey, u64Key } from './ids.js';
import type {
  BlockDetail,
  BlockRecord,
  ChainReader,
  ChainStatus,
  ExplorerEvent,
  ExplorerTransaction,
  MarketCreation,
  RecordFeed,
  TransactionBatch,
  Unsubscribe,
} from './interface.js';
import { encodeJson, parseRecordJson } from '../../wire/index.js';
import { blockDetailText, type ChainOp, type ChainStore } from './store.js';

/** What the readers see: the figures of the last WRITTEN tick. */
interface StoredFigures {
  tick: number;
  producedHeight: number;
  producedRoot: number[];
  producedBatches: number;
  producedTransactions: number;
  producedEvents: number;
  openHeight: number;
  lastSequence: bigint;
}

interface WriteJob {
  step: BuildStep;
  tickTimestamp: number; // µs
  figures: StoredFigures;
  batch?: TransactionBatch;
  /** The batch's market creations (not in `batch`: StreamTx carries transactions only). */
  markets?: MarketCreation[];
  /** The cut block's detail when all of it was built in this process (else read back). */
  cutDetail?: BlockDetail;
  /** cutDetail's JSON (detailJson's text), put together from the records' stored JSON. */
  cutDetailJson?: string;
  /** The tick hooks' work once this write is stored (in tick order). */
  written: Array<() => void>;
}

/**
 * A part that stores records of its own per applied tick in the chain's atomic write (the
 * channels' owner log; per-order proof records): `onTick` runs while the tick is delivered
 * (its engine objects are live only then) and gives the ops to add to the tick's batch and
 * what to run once that batch is written (called in tick order, after the chain's own
 * listeners). So the part's records and the chain's stored head are always the same prefix.
 */
export interface ChainTickHook {
  onTick(record: AppliedTick): { ops: ChainOp[]; written?: () => void } | undefined;
}

export interface ChainDeps {
  store: ChainStore;
  /** The order book engine whose applied-tick records it consumes (its state goes into snapshots). */
  engine: OrderBookEngine;
  builder: BlockBuilder;
  snapshotTxs: number;
  snapshotTicks: number;
  logger?: Logger;
  /** Tick of the snapshot the engine and builder were restored from (0: none). */
  restoredTick?: number;
}

/** Called while the engine's state is a produced block's (docs/proofs.md "Which state"). */
export type BlockStateCallback = (at: { height: number }) => void;

/** How many recently stored transactions SubmitTx answers from memory. */
const RECENT_TXS = 16_384;
/** The same for market creations (SubmitTx of a market; they are rare). */
const RECENT_MARKETS = 1_024;
/** A record feed's live buffer; beyond it the feed reads from the store instead. */
const FOLLOW_BUFFER = 1_024;

export class Chain implements ChainReader {
  readonly store: ChainStore;
  readonly builder: BlockBuilder;
  private readonly engine: OrderBookEngine;
  private readonly logger: Logger | undefined;
  private readonly snapshotTxs: number;
  private readonly snapshotTicks: number;
  private txsSinceSnapshot = 0;
  private ticksSinceSnapshot = 0;
  /** continuum_sequence of the last transaction derived (stored or about to be). */
  private derivedLastSequence = 0n;
  private emitChain: Promise<void> = Promise.resolve();
  private figures: StoredFigures;
  private readonly blockListeners = new Set<(d: BlockDetail) => void>();
  private readonly txListeners = new Set<(b: TransactionBatch) => void>();
  private readonly storedListeners = new Set<(tickTimestampUs: number) => void>();
  private readonly storedWaiters: Array<{ tick: number; resolve(): void }> = [];
  private readonly recent = new Map<bigint, ExplorerTransaction>();
  /** Derived from durable ticks, their write not done yet (answers may show them: derivedRecord). */
  private readonly unstored = new Map<bigint, ExplorerTransaction | MarketCreation>();
  /** The same transactions by id, with their JSON as it will be stored (GET /transactions/:id). */
  private readonly unstoredById = new Map<string, string>();
  private readonly recentMarkets = new Map<bigint, MarketCreation>();
  private openTxs: ExplorerTransaction[] = [];
  private openMarkets: MarketCreation[] = [];
  private openEvents: ExplorerEvent[] = [];
  /** The open block's records as stored (encodeJson), so its detail is not encoded again at the cut. */
  private openJson: OpenJson = { transactions: [], events: [], markets: [] };
  private latestDetail: { height: number; json: string; bytes: Buffer } | undefined;
  private failure: Error | undefined;
  private closed = false;
  private readonly tickHooks: ChainTickHook[] = [];
  private blockStateWaiters: BlockStateCallback[] = [];

  constructor(deps: ChainDeps) {
    this.store = deps.store;
    this.builder = deps.builder;
    this.engine = deps.engine;
    this.logger = deps.logger;
    this.snapshotTxs = deps.snapshotTxs;
    this.snapshotTicks = deps.snapshotTicks;
    this.figures = this.currentFigures(0n);
  }

  /** Load the last stored transaction's sequence and the latest block's detail (at start). */
  async init(): Promise<void> {
    const last = await this.store.seqs.keys({ reverse: true, limit: 1 }).all();
    if (last.length > 0) this.figures.lastSequence = BigInt(`0x${last[0]!}`);
    this.derivedLastSequence = this.figures.lastSequence;
    if (this.figures.producedHeight > 0) await this.refreshLatest(this.figures.producedHeight);
  }

  /** Add a part's records to every later tick's write (before the first tick is applied). */
  addTickHook(hook: ChainTickHook): void {
    this.tickHooks.push(hook);
  }

  // ---------------------------------------------------------------- writing

  private currentFigures(lastSequence: bigint): StoredFigures {
    const b = this.builder;
    return {
      tick: b.lastTick,
      producedHeight: b.producedHeight,
      producedRoot: b.producedRoot,
      producedBatches: b.producedBatches,
      producedTransactions: b.producedTransactions,
      producedEvents: b.producedEvents,
      openHeight: b.openHeight,
      lastSequence,
    };
  }

  /**
   * The consumer of the applier's records, in tick order. The applier must compute the
   * state root before the ticks that close a block (`closesBlock`). Stops consuming once
   * closed or after a failed write.
   */
  readonly applied = (record: AppliedTick): void => {
    if (this.closed || this.failure) return;
    this.onApplied(record);
  };

  /**
   * Whether this tick closes the open block: the applier's `rootBefore`. Asked before the
   * tick is applied, so when it does, the engine's state is still the closing block's: the
   * moment to run what waits for a produced block's state (atBlockState).
   */
  readonly closesBlock = (tick: Tick): boolean => {
    const closes = this.builder.closes(tick);
    if (closes && this.blockStateWaiters.length > 0) this.runBlockState(this.builder.openHeight);
    return closes;
  };

  /**
   * Run `callback` synchronously while the engine's state is that of a produced block: at
   * once when no block is open (the latest produced block's state), else just before the
   * tick that closes the open block is applied.
   */
  atBlockState(callback: BlockStateCallback): void {
    if (!this.builder.blockOpen && this.builder.producedHeight > 0)
      this.call(callback, { height: this.builder.producedHeight });
    else this.blockStateWaiters.push(callback);
  }

  private runBlockState(height: number): void {
    const waiters = this.blockStateWaiters;
    this.blockStateWaiters = [];
    for (const w of waiters) this.call(w, { height });
  }

  private onApplied(record: AppliedTick): void {
    const step = this.builder.apply(record);
    const ops: ChainOp[] = [];
    const s = this.store;
    const job: WriteJob = { step, tickTimestamp: record.tick.timestamp, figures: this.figures, written: [] };
    if (step.cut) {
      const block = step.cut;
      const blockJson = encodeJson(block);
      s.putText(ops, s.blocks, heightKey(block.height), blockJson);
      if (
        this.openTxs.length === block.transaction_ids.length &&
        this.openEvents.length === block.event_ids.length &&
        this.openMarkets.length === block.total_markets
      ) {
        job.cutDetail = { block, transactions: this.openTxs, events: this.openEvents, markets: this.openMarkets };
        const open = this.openJson;
        job.cutDetailJson = blockDetailText(blockJson, open.transactions, open.events, open.markets);
      }
      this.openTxs = [];
      this.openMarkets = [];
      this.openEvents = [];
      this.openJson = { transactions: [], events: [], markets: [] };
    }
    if (step.batch) {
      const b = step.batch;
      for (const t of b.transactions) {
        // Keyed by the transaction's own id: a batch numbers its market creations and
        // transactions together, so a transaction's index is not its place among the
        // batch's transactions when a market was created before it in the same tick.
        const key = recordKeyOf(t.id);
        const json = encodeJson(t);
        s.putText(ops, s.txs, key, json);
        this.openJson.transactions.push(json);
        this.unstored.set(t.continuum_sequence, t);
        this.unstoredById.set(t.id, json);
        s.putText(ops, s.seqs, u64Key(t.continuum_sequence), key);
        this.openTxs.push(t);
        this.derivedLastSequence = t.continuum_sequence;
      }
      for (const m of b.markets) {
        const json = encodeJson(m);
        s.putText(ops, s.markets, recordKeyOf(m.id), json);
        this.unstored.set(m.continuum_sequence, m);
        this.openMarkets.push(m);
        this.openJson.markets.push(json);
      }
      b.events.forEach((e, k) => {
        const json = encodeJson(e);
        s.putText(ops, s.events, recordKey(b.height, b.batchIndex, k), json);
        s.putText(ops, s.eventsByOrdinal, u64Key(b.eventOrdinals[k]!), json);
        s.putText(ops, s.eventsByMarket, `${e.market_id}:${u64Key(b.marketOrdinals[k]!)}`, json);
        this.openEvents.push(e);
        this.openJson.events.push(json);
      });
      job.batch = {
        tick_number: b.tickNumber,
        block_height: b.height,
        batch_index: b.batchIndex,
        batch_hash: b.batchHash,
        transactions: b.transactions,
      };
      job.markets = b.markets;
      this.txsSinceSnapshot += b.transactions.length + b.markets.length;
    }
    for (const hook of this.tickHooks) {
      const work = hook.onTick(record);
      if (work === undefined) continue;
      for (const op of work.ops) ops.push(op);
      if (work.written) job.written.push(work.written);
    }
    if (ops.length > 0) s.putHead(ops, record.tick.tickNumber, this.builder.producedHeight);
    this.ticksSinceSnapshot++;
    const quarterOfState = this.engine.state.usedIdCount / 4;
    if (
      (this.txsSinceSnapshot > 0 && this.txsSinceSnapshot >= Math.max(this.snapshotTxs, quarterOfState)) ||
      this.ticksSinceSnapshot >= Math.max(this.snapshotTicks, quarterOfState)
    ) {
      this.addSnapshot(ops, record.tick.tickNumber);
    }
    job.figures = this.currentFigures(this.derivedLastSequence);
    if (ops.length === 0 && this.pending === 0) {
      // Nothing to store or show (a tick without order book transactions, not closing a
      // block) and nothing queued before it: readers move on at once.
      this.figures = job.figures;
      for (const w of job.written) this.call(w, undefined);
      this.releaseWaiters(job.figures.tick);
      return;
    }
    this.pending++;
    s.write(ops).then(
      () => {
        this.emitChain = this.emitChain.then(() => this.emit(job)).finally(() => this.pending--);
      },
      (err: unknown) => {
        this.pending--;
        this.fail(err as Error);
      },
    );
  }

  /** Writes queued and not yet shown. */
  private pending = 0;

  private releaseWaiters(tick: number): void {
    while (this.storedWaiters.length > 0 && this.storedWaiters[0]!.tick <= tick) this.storedWaiters.shift()!.resolve();
  }

  private addSnapshot(ops: ChainOp[], tick: number): void {
    const t0 = performance.now();
    const engine = encodeSnapshot(this.engine.state);
    const builder = JSON.stringify(this.builder.exportState());
    this.store.putSnapshot(ops, { tick, builder, engine });
    this.txsSinceSnapshot = 0;
    this.ticksSinceSnapshot = 0;
    this.logger?.info(
      { tick, bytes: engine.length + builder.length, ms: Math.round(performance.now() - t0) },
      'chain: state snapshot',
    );
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.logger?.error(
      { err },
      'chain: writing records failed; the chain stops here (restart the node to resume from the stored ticks)',
    );
  }

  /** After a job's write: update what readers see, then tell the listeners. */
  private async emit(job: WriteJob): Promise<void> {
    this.figures = job.figures;
    const cut = job.step.cut;
    if (cut) {
      const detail = job.cutDetail ?? (await this.readBlock(cut.height));
      if (detail) {
        const json = job.cutDetailJson ?? detailJson(detail);
        this.latestDetail = { height: cut.height, json, bytes: Buffer.from(json) };
        for (const l of this.blockListeners) this.call(l, detail);
      }
    }
    for (const m of job.markets ?? []) {
      this.unstored.delete(m.continuum_sequence);
      this.recentMarkets.set(m.continuum_sequence, m);
      if (this.recentMarkets.size > RECENT_MARKETS)
        this.recentMarkets.delete(this.recentMarkets.keys().next().value as bigint);
    }
    if (job.batch) {
      for (const t of job.batch.transactions) {
        this.unstored.delete(t.continuum_sequence);
        this.unstoredById.delete(t.id);
        this.recent.set(t.continuum_sequence, t);
        if (this.recent.size > RECENT_TXS) this.recent.delete(this.recent.keys().next().value as bigint);
      }
      // A batch of market creations only has no transactions: nothing for StreamTx.
      if (job.batch.transactions.length > 0) for (const l of this.txListeners) this.call(l, job.batch);
      for (const l of this.storedListeners) this.call(l, job.tickTimestamp);
    }
    for (const w of job.written) this.call(w, undefined);
    this.releaseWaiters(job.figures.tick);
  }

  private call<T>(listener: (v: T) => void, value: T): void {
    try {
      listener(value);
    } catch (err) {
      this.logger?.error({ err }, 'chain: a listener failed');
    }
  }

  private async refreshLatest(height: number): Promise<void> {
    const json = await this.store.blockDetailJson(height);
    if (json !== undefined) this.latestDetail = { height, json, bytes: Buffer.from(json) };
  }

  /** Resolves once every record derived so far is written and shown. */
  async flushed(): Promise<void> {
    await this.store.flushed();
    await this.emitChain;
  }

  /** Resolves once the records of `tick` (and every tick before) are stored and shown. */
  whenStored(tick: number): Promise<void> {
    if (this.figures.tick >= tick || this.failure || this.closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const w = { tick, resolve };
      let i = this.storedWaiters.length;
      while (i > 0 && this.storedWaiters[i - 1]!.tick > tick) i--;
      this.storedWaiters.splice(i, 0, w);
    });
  }

  /**
   * The stored transaction or market creation with this continuum_sequence (waits for its
   * tick to be stored). Market creations are answered from memory (the last 1,024): SubmitTx
   * asks right after its own tick is stored.
   */
  private async storedTransaction(seq: bigint): Promise<ExplorerTransaction | MarketCreation | undefined> {
    await this.whenStored(Number(seq >> 32n));
    const hit = this.recent.get(seq) ?? this.recentMarkets.get(seq);
    if (hit) return hit;
    const [key] = await this.store.keysOfSequences([seq]);
    if (key === undefined) return undefined;
    const json = await this.store.txs.get(key);
    return json === undefined ? undefined : parseRecordJson<ExplorerTransaction>(json);
  }

  /**
   * The record a SubmitTx answer shows: as derived, without waiting for its write, or else
   * the stored one. Safe to show early: it is a pure function of ticks that were durable
   * before they were applied, so after kill -9 the node derives the same bytes again
   * (docs/chain.md "Stored before shown", its exceptions).
   */
  derivedRecord(seq: bigint): Promise<ExplorerTransaction | MarketCreation | undefined> {
    const derived = this.unstored.get(seq);
    return derived !== undefined ? Promise.resolve(derived) : this.storedTransaction(seq);
  }

  /** A transaction's JSON by id: derived and not yet written (see derivedRecord), or stored. */
  async transactionJson(id: { height: number; batch: number; index: number }): Promise<string | undefined> {
    return (
      this.unstoredById.get(formatId(id.height, id.batch, id.index)) ??
      (await this.store.transactionJson(id.height, id.batch, id.index))
    );
  }

  /** Stop consuming; write what is pending and a final snapshot. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushed();
    if (!this.failure && this.txsSinceSnapshot > 0 && this.builder.lastTick === this.engine.lastTick) {
      const ops: ChainOp[] = [];
      this.addSnapshot(ops, this.builder.lastTick);
      await this.store.write(ops);
    }
    for (const w of this.storedWaiters.splice(0)) w.resolve();
  }

  // ---------------------------------------------------------------- ChainReader

  latestHeight(): number {
    return this.figures.producedHeight;
  }

  lastStoredSequence(): bigint {
    return this.figures.lastSequence;
  }

  status(): ChainStatus {
    const f = this.figures;
    return {
      block_height: f.producedHeight,
      state_root: f.producedRoot,
      applied_batches: f.producedBatches,
      latest_tick: f.tick,
      open_block_height: f.openHeight,
      total_transactions: f.producedTransactions,
      total_events: f.producedEvents,
    };
  }

  /** JSON text of the latest block detail (REST /blocks/latest, WS on connect). */
  latestDetailJson(): { height: number; json: string; bytes: Buffer } | undefined {
    return this.latestDetail;
  }

  async readBlock(height: number): Promise<BlockDetail | undefined> {
    if (!Number.isSafeInteger(height) || height < 1 || height > this.figures.producedHeight) return undefined;
    const [block, txs, events, markets] = await Promise.all([
      this.store.blockJson(height),
      this.store.blockTransactionJsons(height),
      this.store.blockEventJsons(height),
      this.store.blockMarketJsons(height),
    ]);
    if (block === undefined) return undefined;
    return {
      block: parseRecordJson<BlockRecord>(block),
      transactions: txs.map((t) => parseRecordJson<ExplorerTransaction>(t)),
      events: events.map((e) => parseRecordJson<ExplorerEvent>(e)),
      markets: markets.map((m) => parseRecordJson<MarketCreation>(m)),
    };
  }

  async *readBlockDetails(fromHeight: number, toHeight: number): AsyncIterable<BlockDetail> {
    const to = Math.min(toHeight, this.figures.producedHeight);
    for (let h = Math.max(1, fromHeight); h <= to; h++) {
      const d = await this.readBlock(h);
      if (d) yield d;
    }
  }

  onBlock(listener: (detail: BlockDetail) => void): Unsubscribe {
    this.blockListeners.add(listener);
    return () => this.blockListeners.delete(listener);
  }

  async *readTransactionsFrom(fromSequence: bigint, toSequence?: bigint): AsyncIterable<TransactionBatch> {
    const to = toSequence ?? this.figures.lastSequence;
    let current: TransactionBatch | undefined;
    for await (const chunk of this.store.transactionsFrom(fromSequence, to)) {
      for (const t of chunk) {
        if (current && (current.block_height !== t.block_height || current.batch_index !== t.batch_index)) {
          yield current;
          current = undefined;
        }
        current ??= {
          tick_number: t.tick_number,
          block_height: t.block_height,
          batch_index: t.batch_index,
          batch_hash: await this.batchHashOf(t.block_height, t.batch_index),
          transactions: [],
        };
        current.transactions.push(t);
      }
    }
    if (current) yield current;
  }

  /** A stored batch's hash, from its first event (every batch has one: each transaction touches a market). */
  private async batchHashOf(height: number, batch: number): Promise<string> {
    const json = await this.store.events.get(recordKey(height, batch, 0));
    return json === undefined ? '' : (JSON.parse(json) as { batch_hash: string }).batch_hash;
  }

  /** Called with the tick timestamp (µs) of each batch once it is stored and shown (metrics, benchmarks). */
  onStoredTick(listener: (tickTimestampUs: number) => void): Unsubscribe {
    this.storedListeners.add(listener);
    return () => this.storedListeners.delete(listener);
  }

  onTransactions(listener: (batch: TransactionBatch) => void): Unsubscribe {
    this.txListeners.add(listener);
    return () => this.txListeners.delete(listener);
  }

  async readTransactionJsons(fromSequence: bigint, limit: number): Promise<string[]> {
    const to = this.figures.lastSequence;
    if (limit <= 0 || fromSequence > to) return [];
    return this.store.transactionJsonsFrom(fromSequence, to, limit);
  }

  async readBlockJsons(height: number): Promise<{ block: string; events: string[]; markets: string[] } | undefined> {
    if (!Number.isSafeInteger(height) || height < 1 || height > this.figures.producedHeight) return undefined;
    const [block, events, markets] = await Promise.all([
      this.store.blockJson(height),
      this.store.blockEventJsons(height),
      this.store.blockMarketJsons(height),
    ]);
    return block === undefined ? undefined : { block, events, markets };
  }

  async getTransaction(id: string): Promise<ExplorerTransaction | undefined> {
    const m = /^([0-9a-f]{16})-([0-9a-f]{4,8})-([0-9a-f]{4,8})$/.exec(id);
    if (!m) return undefined;
    const json = await this.transactionJson({
      height: parseInt(m[1]!, 16),
      batch: parseInt(m[2]!, 16),
      index: parseInt(m[3]!, 16),
    });
    return json === undefined ? undefined : parseRecordJson<ExplorerTransaction>(json);
  }

  followTransactions(fromSequence: bigint, handler: (batch: TransactionBatch) => Promise<void> | void): RecordFeed {
    return follow<TransactionBatch>({
      subscribe: (push) => this.onTransactions(push),
      firstOf: (b) => b.transactions[0]!.continuum_sequence,
      lastOf: (b) => b.transactions[b.transactions.length - 1]!.continuum_sequence,
      trim: (b, from) => ({ ...b, transactions: b.transactions.filter((t) => t.continuum_sequence >= from) }),
      storedUpTo: () => this.figures.lastSequence,
      readStored: (from, to) => this.readTransactionsFrom(from, to),
      closed: () => this.closed,
      start: fromSequence,
      handler,
    });
  }

  followBlocks(fromHeight: number, handler: (detail: BlockDetail) => Promise<void> | void): RecordFeed {
    return follow<BlockDetail>({
      subscribe: (push) => this.onBlock(push),
      firstOf: (d) => BigInt(d.block.height),
      lastOf: (d) => BigInt(d.block.height),
      trim: (d) => d,
      storedUpTo: () => BigInt(this.figures.producedHeight),
      readStored: (from, to) => this.readBlockDetails(Number(from), Number(to)),
      closed: () => this.closed,
      start: BigInt(Math.max(1, fromHeight)),
      handler,
    });
  }
}

/** The block detail object (spec/3's, plus `markets`) as JSON text. */
export function detailJson(d: BlockDetail): string {
  return encodeJson(d);
}

/** The open block's records' stored JSON texts, in the detail's order. */
interface OpenJson {
  transactions: string[];
  events: string[];
  markets: string[];
}

interface FollowSpec<T> {
  subscribe(push: (item: T) => void): Unsubscribe;
  firstOf(item: T): bigint;
  lastOf(item: T): bigint;
  trim(item: T, from: bigint): T;
  storedUpTo(): bigint;
  readStored(from: bigint, to: bigint): AsyncIterable<T>;
  closed(): boolean;
  start: bigint;
  handler(item: T): Promise<void> | void;
}

/**
 * Deliver stored then live items in order, without gaps or duplicates, at the handler's
 * pace: live items are buffered (at most FOLLOW_BUFFER); when the buffer overflows it is
 * dropped and the feed catches up from the store instead, so a slow handler never
 * makes the node hold more than that.
 */
function follow<T>(spec: FollowSpec<T>): RecordFeed {
  let cursor = spec.start;
  let stopped = false;
  let queue: T[] = [];
  let wake: (() => void) | undefined;
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const unsubscribe = spec.subscribe((item) => {
    if (queue.length >= FOLLOW_BUFFER) queue = [];
    else queue.push(item);
    poke();
  });
  const run = async (): Promise<void> => {
    try {
      while (!stopped && !spec.closed()) {
        while (queue.length > 0 && spec.lastOf(queue[0]!) < cursor) queue.shift();
        const head = queue[0];
        if (head !== undefined && spec.firstOf(head) <= cursor) {
          queue.shift();
          const item = spec.trim(head, cursor);
          cursor = spec.lastOf(head) + 1n;
          await spec.handler(item);
          continue;
        }
        const upTo = head !== undefined ? spec.firstOf(head) - 1n : spec.storedUpTo();
        if (cursor <= upTo) {
          for await (const item of spec.readStored(cursor, upTo)) {
            if (stopped) return;
            cursor = spec.lastOf(item) + 1n;
            await spec.handler(item);
          }
          if (cursor <= upTo) cursor = upTo + 1n; // nothing stored in the rest of the range
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      unsubscribe();
    }
  };
  const done = run();
  return {
    stop() {
      stopped = true;
      poke();
    },
    done,
  };
}

/** The store key of a transaction or market creation, from its `{height}-{batch}-{index}` id. */
function recordKeyOf(id: string): string {
  const [height, batch, index] = id.split('-').map((g) => parseInt(g, 16)) as [number, number, number];
  return recordKey(height, batch, index);
}
