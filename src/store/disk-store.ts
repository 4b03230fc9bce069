/**
 * The durable side of the tick store, in LevelDB sublevels of the node's database
 * (docs/storage.md lists every key):
 *
 *   ticks    <tick number, 16 decimal digits>          -> the tick's binary record (./stored-tick.ts)
 *   proofs   <tick number, 16 decimal digits>          -> its Wesolowski proof, unless trivial
 *   txs      <sequence number, 16 decimal digits>      -> one transaction (./stored-tick.ts)
 *   txindex  <8-hex tx_hash>:<sequence, 16 digits>     -> tick number (decimal text)
 *   seqmeta  "head"                                    -> {"tick":n,"last_sequence":s,"proven":p}
 *   seqmeta  "base"                                    -> {"tick":T,"last_sequence":s}: only in a store
 *            seeded from a leader's snapshot (src/follow/snapshot-bootstrap.ts): its first tick is T, not 1
 *   seqmeta  "storage"                                 -> "svc-store-2": this layout
 *
 * `writeTicks` puts a run of consecutive ticks, their transactions and index entries, the
 * new head and any extra operations (write-ahead deletions) in ONE atomic batch: a group
 * commit, and a crash leaves either all of it or none. Keys with the full sequence number
 * make 8-hex collisions harmless: each colliding transaction has its own key under the
 * shared prefix. A tick's record holds no previous output (it is the record before it),
 * no transactions (they are under `txs`) and no proof (under `proofs`, written when the
 * pool has it: docs/sequencer.md "Order first, proof after"), so a tick costs about its
 * content, every byte is written once, and one transaction is read alone.
 */
import type { Database, PrefixedPut } from '../db/index.js';
import type { OrderedTransaction, Tick } from '../core/index.js';
import {
  decodeStoredTick,
  decodeStoredTx,
  encodeStoredTick,
  storedTickCounts,
  storedTickOutput,
} from './stored-tick.js';
import { TxOpsBuilder, type RootPut } from './tx-batch.js';
import { isPendingProof } from './pending-proof.js';

/** The layout this store writes (seqmeta "storage"); a store of another layout is refused at open. */
export const STORAGE_LAYOUT = 'svc-store-2';

type TextSublevel = ReturnType<typeof textSublevel>;
/** A sublevel with utf8 keys and binary values. */
export type Sublevel = ReturnType<typeof binarySublevel>;

function textSublevel(db: Database, name: string) {
  return db.sublevel<string, string>(name, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
}

export function binarySublevel(db: Database, name: string) {
  return db.sublevel<string, Uint8Array>(name, { keyEncoding: 'utf8', valueEncoding: 'view' });
}

/** One operation of a tick batch; also what a caller adds to it (write-ahead deletions, a snapshot seed's records). */
export type BatchOp =
  | { type: 'put'; sublevel: TextSublevel; key: string; value: string }
  | { type: 'put'; sublevel: Sublevel; key: string; value: Uint8Array }
  | { type: 'del'; sublevel: Sublevel; key: string };

/**
 * `db.batch(ops)` with operations aimed at sublevels (abstract-level's `sublevel`
 * property). Its typings cannot express a mix of sublevels with different value
 * encodings in one array, hence the one cast at this boundary.
 */
function batchWrite(db: Database, ops: Array<ExtraOp | RootPut>): Promise<void> {
  return (db.batch as unknown as (this: Database, operations: Array<ExtraOp | RootPut>) => Promise<void>).call(db, ops);
}

/** 16-digit zero-padded decimal: sorts like the number, covers every safe integer. */
export const pad16 = (n: number): string => String(n).padStart(16, '0');

/** A batch operation this store does not own (e.g. write-ahead deletions, a snapshot seed's chain records). */
export type ExtraOp = BatchOp | PrefixedPut;

export interface Head {
  tick: number; // last durable tick (0: none)
  lastSequence: number; // highest sequence number in a durable tick (0: none)
}

/** The head record: the last durable tick, and the last tick whose proof (and every one before it) is stored. */
export interface StoredHead extends Head {
  proven: number; // <= tick; ticks after it are durable and ordered but wait for their proof
}

export class DiskTickStore {
  readonly ticks: Sublevel;
  readonly proofs: Sublevel;
  readonly txs: Sublevel;
  readonly txindex: TextSublevel;
  readonly meta: TextSublevel;
  /** The txs and txindex puts of a commit, in one buffer with the sublevels' key bytes (./tx-batch.ts). */
  private readonly txOps: TxOpsBuilder;

  constructor(private readonly db: Database) {
    this.ticks = binarySublevel(db, 'ticks');
    this.proofs = binarySublevel(db, 'proofs');
    this.txs = binarySublevel(db, 'txs');
    this.txindex = textSublevel(db, 'txindex');
    this.meta = textSublevel(db, 'seqmeta');
    // Prefixes relative to `db`, the database the batch goes to (local: not doubled if db is itself a sublevel).
    this.txOps = new TxOpsBuilder(this.txs.prefixKey('', 'utf8', true), this.txindex.prefixKey('', 'utf8', true));
  }

  /**
   * Last durable tick and sequence number and the last proven tick, from the head record
   * (or the last tick; a record without `proven` is from before proofs could follow).
   */
  async loadHead(): Promise<StoredHead> {
    const text = await this.meta.get('head');
    if (text !== undefined) {
      const h = JSON.parse(text) as { tick: number; last_sequence: number; proven?: number };
      return { tick: h.tick, lastSequence: h.last_sequence, proven: h.proven ?? h.tick };
    }
    // No head record (a store written by hand): derive it.
    const last = await this.ticks.keys({ reverse: true, limit: 1 }).all();
    if (last.length === 0) return { tick: 0, lastSequence: 0, proven: 0 };
    const tick = Number(last[0]);
    return { tick, lastSequence: await this.lastSequenceAt(tick), proven: tick };
  }

  /** The first tick of a store seeded from a snapshot and the last sequence number at it; undefined for a store from tick 1. */
  async loadBase(): Promise<Head | undefined> {
    const text = await this.meta.get('base');
    if (text === undefined) return undefined;
    const h = JSON.parse(text) as { tick: number; last_sequence: number };
    return { tick: h.tick, lastSequence: h.last_sequence };
  }

  /** The seqmeta "base" record, for the batch that writes a seeded store's first tick. */
  baseOp(base: Head): BatchOp {
    return {
      type: 'put',
      sublevel: this.meta,
      key: 'base',
      value: JSON.stringify({ tick: base.tick, last_sequence: base.lastSequence }),
    };
  }

  /**
   * The highest sequence number in the stored ticks up to `tick` (0: none): the last tick
   * at or before it with transactions, scanned back on the records' counts, else the
   * base's. With `known` (the answer for an earlier tick) the scan stops there.
   */
  async lastSequenceAt(tick: number, known?: Head): Promise<number> {
    const floor = known !== undefined && known.tick < tick ? known : undefined;
    for await (const value of this.ticks.values({
      lte: pad16(tick),
      ...(floor ? { gt: pad16(floor.tick) } : {}),
      reverse: true,
    })) {
      const { firstSequence, txCount } = storedTickCounts(value);
      if (txCount > 0) return firstSequence + txCount - 1;
    }
    if (floor) return floor.lastSequence;
    return (await this.loadBase())?.lastSequence ?? 0;
  }

  /**
   * Store consecutive ticks atomically with their transactions, index entries and the new
   * head. `bodies` (per tick, per transaction) are the transactions' tx-record bodies when
   * intake wrote them already. `proven` (default: the head tick) is the last tick whose
   * proof, and every earlier one's, is stored. A record carries its previous output
   * only where no record is before it: tick 1 (the genesis output), and the first tick
   * of a store seeded from a snapshot (`prevInline`).
   */
  async writeTicks(
    ticks: Tick[],
    bodies: ReadonlyArray<readonly Uint8Array[] | undefined> | undefined,
    head: Head,
    extra: ExtraOp[] = [],
    proven = head.tick,
    prevInline = false,
  ): Promise<void> {
    // One array batch (cheaper per operation than a chained one); the transactions' two
    // puts each are views into one buffer, keyed on the root database (./tx-batch.ts).
    const ops: Array<ExtraOp | RootPut> = [];
    for (let i = 0; i < ticks.length; i++) {
      const t = ticks[i]!;
      const value = encodeStoredTick(t, t.tickNumber === 1 || (prevInline && i === 0));
      ops.push({ type: 'put', sublevel: this.ticks, key: pad16(t.tickNumber), value });
      if (storedTickCounts(value).proofApart && !isPendingProof(t.vdfProof.proof))
        ops.push(this.proofOp(t.tickNumber, t.vdfProof.proof));
    }
    this.txOps.push(ops, ticks, bodies);
    ops.push({
      type: 'put',
      sublevel: this.meta,
      key: 'head',
      value: JSON.stringify({ tick: head.tick, last_sequence: head.lastSequence, proven }),
    });
    for (const op of extra) ops.push(op);
    await batchWrite(this.db, ops);
  }

  /** The operation that stores a tick's proof (with the tick, or once the pool has it). */
  proofOp(tickNumber: number, proof: Uint8Array): BatchOp {
    return { type: 'put', sublevel: this.proofs, key: pad16(tickNumber), value: proof };
  }

  /** The transactions of a stored record, from `txs`. */
  private async transactionsOf(value: Uint8Array): Promise<OrderedTransaction[]> {
    const { firstSequence, txCount } = storedTickCounts(value);
    if (txCount === 0) return [];
    const values = await this.txs.values({ gte: pad16(firstSequence), lte: pad16(firstSequence + txCount - 1) }).all();
    return values.map((v, i) => decodeStoredTx(v, firstSequence + i).transaction);
  }

  async readTick(tickNumber: number): Promise<Tick | undefined> {
    if (tickNumber < 1) return undefined;
    for await (const t of this.readRange(tickNumber, tickNumber)) return t;
    return undefined;
  }

  /**
   * Ticks in [from, to] in order, streamed from one iterator over the records (it starts
   * one tick early for the previous output) and one over their proofs beside it.
   */
  async *readRange(from: number, to: number): AsyncGenerator<Tick> {
    let previous: Uint8Array | undefined;
    let previousTick = -1;
    const proofs = this.proofs.iterator({ gte: pad16(from), lte: pad16(to) });
    let nextProof: [string, Uint8Array] | undefined = await proofs.next();
    try {
      for await (const [key, value] of this.ticks.iterator({ gte: pad16(Math.max(0, from - 1)), lte: pad16(to) })) {
        const n = Number(key);
        if (n >= from) {
          let proof: Uint8Array | undefined;
          if (storedTickCounts(value).proofApart) {
            while (nextProof && nextProof[0] < key) nextProof = await proofs.next();
            if (nextProof && nextProof[0] === key) proof = nextProof[1];
          }
          yield decodeStoredTick(
            value,
            previousTick === n - 1 ? previous : undefined,
            await this.transactionsOf(value),
            proof,
          );
        }
        previous = storedTickOutput(value).slice();
        previousTick = n;
      }
    } finally {
      await proofs.close();
    }
  }

  /**
   * The last `count` ticks up to `upTo`, oldest first (for warming the memory window), stopping
   * early once they hold `maxTransactions` transactions so a start stays quick.
   */
  async readLast(count: number, maxTransactions = Infinity, upTo = Number.MAX_SAFE_INTEGER): Promise<Tick[]> {
    const out: Tick[] = [];
    if (count <= 0) return out;
    let txs = 0;
    let from: number | undefined;
    for await (const [key, value] of this.ticks.iterator({ reverse: true, limit: count, lte: pad16(upTo) })) {
      from = Number(key);
      txs += storedTickCounts(value).txCount;
      if (txs >= maxTransactions) break;
    }
    if (from === undefined) return out;
    for await (const t of this.readRange(from, upTo)) out.push(t);
    return out;
  }

  /** (sequence, tick) of every indexed transaction whose 8-hex hash is `hash8` (lowercase). */
  async lookup(hash8: string): Promise<Array<{ sequence: number; tick: number }>> {
    const out: Array<{ sequence: number; tick: number }> = [];
    for await (const [key, value] of this.txindex.iterator({ gt: `${hash8}:`, lt: `${hash8};` })) {
      out.push({ sequence: Number(key.slice(9)), tick: Number(value) });
    }
    return out;
  }

  /** One stored transaction by its sequence number, and its tick; undefined if none. */
  async readTransaction(
    sequence: number,
  ): Promise<{ tickNumber: number; transaction: OrderedTransaction } | undefined> {
    const value = await this.txs.get(pad16(sequence));
    return value === undefined ? undefined : decodeStoredTx(value, sequence);
  }
}
