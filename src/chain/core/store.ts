/**
 * The chain's records in the node's LevelDB (docs/storage.md "Chain node"):
 *
 *   chain-blk   <height, 16 hex>                          -> BlockRecord JSON
 *   chain-tx    <height 16 hex><batch 8 hex><index 8 hex> -> ExplorerTransaction JSON
 *   chain-seq   <continuum_sequence, 16 hex>              -> its chain-tx key
 *   chain-mkt   <height 16 hex><batch 8 hex><index 8 hex> -> MarketCreation JSON
 *   chain-ev    <height 16 hex><batch 8 hex><index 8 hex> -> ExplorerEvent JSON
 *   chain-evn   <event ordinal, 16 hex>                   -> ExplorerEvent JSON (paging)
 *   chain-evm   <market_id>:<ordinal in market, 16 hex>   -> ExplorerEvent JSON (paging by market)
 *   chain-meta  "head"      -> {"tick":t,"height":h}: last tick whose records are written
 *               "snapshot"  -> u64 tick | u32 n | builder state JSON (n bytes) | order book snapshot
 *               "records"   -> RECORDS_FORMAT: how the records above are shaped (absent on a
 *                              chain built before market creations left chain-tx)
 *
 * Writes are group commits: the records of each applied tick are queued in order, one
 * LevelDB batch is in flight at a time, and everything queued meanwhile goes in the next
 * one. A batch is atomic, so after any crash the stored ticks' records are a prefix of
 * what the node derived, and re-deriving from the snapshot rewrites the same bytes. Its
 * operations are puts on the node's database with each sublevel's prefix in the key
 * (src/db prefixed-put.ts): the bytes the sublevels would write, with less work per
 * operation on the thread that applies the ticks.
 * JSON values are exactly what the REST face serves, so reads concatenate them.
 */
import { binaryPut, textPut, type Database, type PrefixedPut } from '../../db/index.js';
import { heightKey, recordKey, u64Key } from './ids.js';
import { parseRecordJson } from '../../wire/index.js';
import type { ExplorerTransaction } from './interface.js';

type TextSublevel = ReturnType<typeof textSublevel>;
type BinarySublevel = ReturnType<typeof binarySublevel>;

function textSublevel(db: Database, name: string) {
  return db.sublevel<string, string>(name, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
}
function binarySublevel(db: Database, name: string) {
  return db.sublevel<string, Uint8Array>(name, { keyEncoding: 'utf8', valueEncoding: 'view' });
}

/** One put of the chain's per-tick write: a sublevel's bytes, keyed on the node's database (textPut, binaryPut). */
export type ChainOp = PrefixedPut;

/** db.batch of puts with per-operation value encodings (one cast at this boundary, as in src/store). */
function batchWrite(db: Database, ops: ChainOp[]): Promise<void> {
  return (db.batch as unknown as (this: Database, operations: ChainOp[]) => Promise<void>).call(db, ops);
}

/**
 * Version of the chain records' shape. 2: market creations are MarketCreation records in
 * chain-mkt, not ExplorerTransactions in chain-tx/chain-seq. 3: BlockRecord carries
 * last_tick_output_hash (the block's anchor in the tick chain). A database whose chain
 * records have another (or no) version is rebuilt from its ticks at start (runtime.ts).
 */
export const RECORDS_FORMAT = '3';

export interface StoredSnapshot {
  tick: number;
  builder: string; // JSON
  engine: Uint8Array;
}

/** The `chain-meta` / `snapshot` value: u64 LE tick | u32 LE n | builder JSON (n bytes) | engine snapshot. */
export function encodeStoredSnapshot(s: StoredSnapshot): Uint8Array {
  const builder = new TextEncoder().encode(s.builder);
  const out = new Uint8Array(12 + builder.length + s.engine.length);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(s.tick), true);
  view.setUint32(8, builder.length, true);
  out.set(builder, 12);
  out.set(s.engine, 12 + builder.length);
  return out;
}

/** The inverse of encodeStoredSnapshot; throws on bytes too short for their own lengths (a snapshot from another node). */
export function decodeStoredSnapshot(v: Uint8Array): StoredSnapshot {
  if (v.byteLength < 12) throw new Error(`a chain snapshot has at least 12 bytes, this one ${v.byteLength}`);
  const view = new DataView(v.buffer, v.byteOffset, v.byteLength);
  const tick = Number(view.getBigUint64(0, true));
  const n = view.getUint32(8, true);
  if (12 + n > v.byteLength)
    throw new Error(`a chain snapshot's builder state of ${n} bytes overruns its ${v.byteLength} bytes`);
  return { tick, builder: new TextDecoder().decode(v.subarray(12, 12 + n)), engine: v.subarray(12 + n) };
}

interface Job {
  ops: ChainOp[];
  done: () => void;
  fail: (err: Error) => void;
}

export class ChainStore {
  readonly blocks: TextSublevel;
  readonly txs: TextSublevel;
  readonly seqs: TextSublevel;
  readonly markets: TextSublevel;
  readonly events: TextSublevel;
  readonly eventsByOrdinal: TextSublevel;
  readonly eventsByMarket: TextSublevel;
  readonly meta: BinarySublevel;
  private queue: Job[] = [];
  private writing = false;

  constructor(private readonly db: Database) {
    this.blocks = textSublevel(db, 'chain-blk');
    this.txs = textSublevel(db, 'chain-tx');
    this.seqs = textSublevel(db, 'chain-seq');
    this.markets = textSublevel(db, 'chain-mkt');
    this.events = textSublevel(db, 'chain-ev');
    this.eventsByOrdinal = textSublevel(db, 'chain-evn');
    this.eventsByMarket = textSublevel(db, 'chain-evm');
    this.meta = binarySublevel(db, 'chain-meta');
  }

  // ------------------------------------------------------------------ writes

  /** Queue one tick's records; resolves once they are in the database (in queue order). */
  write(ops: ChainOp[]): Promise<void> {
    return new Promise<void>((done, fail) => {
      this.queue.push({ ops, done, fail });
      if (!this.writing) void this.pump();
    });
  }

  private async pump(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const jobs = this.queue;
        this.queue = [];
        const ops = jobs.length === 1 ? jobs[0]!.ops : jobs.flatMap((j) => j.ops);
        try {
          if (ops.length > 0) await batchWrite(this.db, ops);
        } catch (err) {
          for (const j of jobs) j.fail(err as Error);
          continue;
        }
        for (const j of jobs) j.done();
      }
    } finally {
      this.writing = false;
    }
  }

  /** Resolves once everything queued so far is written. */
  flushed(): Promise<void> {
    if (!this.writing && this.queue.length === 0) return Promise.resolve();
    return this.write([]);
  }

  putText(ops: ChainOp[], sublevel: TextSublevel, key: string, value: string): void {
    ops.push(textPut(sublevel, key, value));
  }

  putHead(ops: ChainOp[], tick: number, height: number): void {
    ops.push(binaryPut(this.meta, 'head', new TextEncoder().encode(JSON.stringify({ tick, height }))));
  }

  putSnapshot(ops: ChainOp[], s: StoredSnapshot): void {
    ops.push(binaryPut(this.meta, 'snapshot', encodeStoredSnapshot(s)));
  }

  /** chain-meta "records": RECORDS_FORMAT, in the batch that writes records of that shape. */
  putRecordsFormat(ops: ChainOp[]): void {
    ops.push(binaryPut(this.meta, 'records', new TextEncoder().encode(RECORDS_FORMAT)));
  }

  // ------------------------------------------------------------------ reads

  async loadSnapshot(): Promise<StoredSnapshot | undefined> {
    const v = await this.meta.get('snapshot');
    return v === undefined ? undefined : decodeStoredSnapshot(v);
  }

  /** The stored snapshot's bytes as they are (what StreamSnapshot sends), or undefined. */
  snapshotBytes(): Promise<Uint8Array | undefined> {
    return this.meta.get('snapshot');
  }

  async loadHead(): Promise<{ tick: number; height: number } | undefined> {
    const v = await this.meta.get('head');
    return v === undefined ? undefined : (JSON.parse(new TextDecoder().decode(v)) as { tick: number; height: number });
  }

  blockJson(height: number): Promise<string | undefined> {
    return this.blocks.get(heightKey(height));
  }

  /** BlockRecord JSON of heights [from, to], newest first. */
  async blockJsonsDescending(to: number, from: number): Promise<string[]> {
    if (to < from) return [];
    return this.blocks.values({ lte: heightKey(to), gte: heightKey(from), reverse: true }).all();
  }

  /** The block's transactions' JSON, in id order. */
  blockTransactionJsons(height: number): Promise<string[]> {
    return this.txs.values({ gte: heightKey(height), lt: heightKey(height + 1) }).all();
  }

  blockEventJsons(height: number): Promise<string[]> {
    return this.events.values({ gte: heightKey(height), lt: heightKey(height + 1) }).all();
  }

  /** The block's market creations' JSON, in id order. */
  blockMarketJsons(height: number): Promise<string[]> {
    return this.markets.values({ gte: heightKey(height), lt: heightKey(height + 1) }).all();
  }

  /** The block detail object (spec/3's, plus `markets`) as JSON text, from the stored values. */
  async blockDetailJson(height: number): Promise<string | undefined> {
    const [block, txs, events, markets] = await Promise.all([
      this.blockJson(height),
      this.blockTransactionJsons(height),
      this.blockEventJsons(height),
      this.blockMarketJsons(height),
    ]);
    if (block === undefined) return undefined;
    return blockDetailText(block, txs, events, markets);
  }

  /** Whether the chain records are of RECORDS_FORMAT (or there are none yet). */
  async recordsCurrent(): Promise<boolean> {
    const format = await this.meta.get('records');
    if (format !== undefined) return new TextDecoder().decode(format) === RECORDS_FORMAT;
    return (await this.meta.get('head')) === undefined && (await this.blocks.keys({ limit: 1 }).all()).length === 0;
  }

  /** Delete every chain record (they are rebuilt from the ticks) and mark the format. */
  async resetRecords(): Promise<void> {
    await Promise.all(
      [this.blocks, this.txs, this.seqs, this.markets, this.events, this.eventsByOrdinal, this.eventsByMarket].map(
        (s) => s.clear(),
      ),
    );
    await this.meta.del('head');
    await this.meta.del('snapshot');
    await this.markRecordsFormat();
  }

  markRecordsFormat(): Promise<void> {
    return this.meta.put('records', new TextEncoder().encode(RECORDS_FORMAT));
  }

  transactionJson(height: number, batch: number, index: number): Promise<string | undefined> {
    return this.txs.get(recordKey(height, batch, index));
  }

  /** Events with ordinals in [from, to], newest first. */
  eventJsonsDescending(to: number, from: number): Promise<string[]> {
    if (to < from) return Promise.resolve([]);
    return this.eventsByOrdinal.values({ lte: u64Key(to), gte: u64Key(from), reverse: true }).all();
  }

  marketEventJsonsDescending(marketId: string, to: number, from: number): Promise<string[]> {
    if (to < from) return Promise.resolve([]);
    return this.eventsByMarket
      .values({ lte: `${marketId}:${u64Key(to)}`, gte: `${marketId}:${u64Key(from)}`, reverse: true })
      .all();
  }

  /**
   * Stored transaction JSON texts with continuum_sequence in [from, to], oldest first, at
   * most `limit`, unparsed (chain-tx keys sort in continuum_sequence order).
   */
  async transactionJsonsFrom(from: bigint, to: bigint, limit: number): Promise<string[]> {
    const [first] = await this.seqs.values({ gte: u64Key(from), lte: u64Key(to), limit: 1 }).all();
    if (first === undefined) return [];
    const [last] = await this.seqs.values({ lte: u64Key(to), reverse: true, limit: 1 }).all();
    return this.txs.values({ gte: first, lte: last!, limit }).all();
  }

  /** chain-tx keys of the given continuum_sequences (undefined where not stored). */
  keysOfSequences(seqs: bigint[]): Promise<Array<string | undefined>> {
    return this.seqs.getMany(seqs.map((s) => u64Key(s)));
  }

  /**
   * Stored transactions with continuum_sequence in [from, to], oldest first, parsed, in
   * chunks of `chunk` (read lazily, at the caller's pace).
   */
  async *transactionsFrom(from: bigint, to: bigint, chunk = 512): AsyncGenerator<ExplorerTransaction[]> {
    const first = await this.seqs.values({ gte: u64Key(from), lte: u64Key(to), limit: 1 }).all();
    if (first.length === 0) return;
    let range: { gte: string } | { gt: string } = { gte: first[0]! };
    for (;;) {
      const rows: Array<[string, string]> = await this.txs.iterator({ ...range, limit: chunk }).all();
      if (rows.length === 0) return;
      const out: ExplorerTransaction[] = [];
      for (const [, json] of rows) {
        const t = parseRecordJson<ExplorerTransaction>(json);
        if (t.continuum_sequence > to) {
          if (out.length > 0) yield out;
          return;
        }
        out.push(t);
      }
      yield out;
      if (rows.length < chunk) return;
      range = { gt: rows[rows.length - 1]![0] };
    }
  }
}

/**
 * A block detail's JSON text from its records' stored JSON: the same characters as
 * encodeJson({ block, transactions, events, markets }) of the parsed records (that key
 * order, the arrays always written), without encoding them again.
 */
export function blockDetailText(block: string, transactions: string[], events: string[], markets: string[]): string {
  return (
    `{"block":${block},"transactions":[${transactions.join(',')}],` +
    `"events":[${events.join(',')}],"markets":[${markets.join(',')}]}`
  );
}
