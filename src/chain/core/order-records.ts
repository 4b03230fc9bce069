/**
 * What the chain keeps per order so that a node can prove an order's state later
 * (docs/chain-internals.md "What a node keeps to serve order proofs", docs/storage.md "Chain node"):
 *
 *   chain-oid   <owner 64 hex><order_id 16 hex> -> u64 LE used-id ordinal | i32 LE slot it
 *                                                 rested in (-1: never rested)
 *   chain-oend  <owner 64 hex><order_id 16 hex> -> u8 end code | u64 LE continuum_sequence
 *                                                 of the transaction that ended it
 *   chain-uid   <ordinal 16 hex>                -> the used-id leaf owner || u64 LE order_id
 *   chain-unode <height 2 hex><index 16 hex>    -> root of the complete used-id subtree
 *                                                 (heights 8 and above: one per 256 ids)
 *
 * Its ops go into the chain's atomic per-tick write (a tick-ops hook of the Chain), derived
 * from the applied-tick record alone, so a replay after a restart rewrites the same bytes.
 * In memory it holds only what appending needs: the leaf hashes of the unfinished block of
 * 256 and the unpaired complete nodes (one per height at most). A used-id audit path is read
 * back from the store (any size n, the batch hash's rule): about log2 n node reads and one
 * or two ranges of at most 256 leaves, against a count n that the proof fixes.
 */
import { binaryPut, type Database } from '../../db/index.js';
import { leafHashWith, nodeHashWith } from '../../crypto/index.js';
import { rootOfLeafHashesWith } from '../../crypto/index.js';
import { sha256 } from '../../crypto/index.js';
import type { AppliedTick, BookOrder } from '../../dex/engine/index.js';
import { u64Key } from './ids.js';
import type { ChainOp } from './store.js';

/** Heights below this are rebuilt from the leaves; complete nodes at and above it are stored. */
export const STORED_NODE_HEIGHT = 8;
const BLOCK = 1 << STORED_NODE_HEIGHT;

/** How an order left the book, as stored (docs/proofs.md `end`). */
export const END_CODES = ['filled', 'cancelled', 'expired', 'self_trade', 'filled_on_arrival'] as const;
export type EndName = (typeof END_CODES)[number];

export interface OrderPlacement {
  ordinal: number;
  /** The slot it rested in; -1 when it never rested. */
  slot: number;
}

export interface OrderEnding {
  end: EndName;
  /** continuum_sequence of the transaction that ended it (the order itself when filled on arrival). */
  sequence: bigint;
}

/** Version of these records; a chain without it (built before them) is rebuilt from its ticks. */
export const ORDER_RECORDS_FORMAT = '1';

function binarySublevel(db: Database, name: string) {
  return db.sublevel<string, Uint8Array>(name, { keyEncoding: 'utf8', valueEncoding: 'view' });
}

function orderKey(owner: Uint8Array, orderId: bigint): string {
  return Buffer.from(owner).toString('hex') + u64Key(orderId);
}

function nodeKey(height: number, index: number): string {
  return height.toString(16).padStart(2, '0') + u64Key(index);
}

function usedLeaf(owner: Uint8Array, orderId: bigint): Uint8Array {
  const out = new Uint8Array(40);
  out.set(owner, 0);
  new DataView(out.buffer).setBigUint64(32, orderId, true);
  return out;
}

const isPow2 = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

export class OrderRecords {
  readonly placements: ReturnType<typeof binarySublevel>;
  readonly endings: ReturnType<typeof binarySublevel>;
  readonly leaves: ReturnType<typeof binarySublevel>;
  readonly nodes: ReturnType<typeof binarySublevel>;
  private readonly meta: ReturnType<typeof binarySublevel>;
  /** Leaf hashes of the unfinished block of 256 ids. */
  private tail: Uint8Array[] = [];
  /** height -> the unpaired complete node at that height (bit `height` of count is set). */
  private frontier = new Map<number, Uint8Array>();
  private count = 0;
  private on = true;

  constructor(db: Database) {
    this.placements = binarySublevel(db, 'chain-oid');
    this.endings = binarySublevel(db, 'chain-oend');
    this.leaves = binarySublevel(db, 'chain-uid');
    this.nodes = binarySublevel(db, 'chain-unode');
    this.meta = binarySublevel(db, 'chain-meta');
  }

  /** Whether they are kept (not on a chain started from another node's snapshot: no ticks before it). */
  get enabled(): boolean {
    return this.on;
  }

  /** The stored marker: ORDER_RECORDS_FORMAT, 'off' (not kept on this chain), or undefined (never marked). */
  async format(): Promise<string | undefined> {
    const v = await this.meta.get('order-records');
    return v === undefined ? undefined : new TextDecoder().decode(v);
  }

  /** Not kept from now on (a chain started from another node's snapshot: no ticks before it). */
  async markOff(): Promise<void> {
    this.on = false;
    await this.meta.put('order-records', new TextEncoder().encode('off'));
  }

  /** Delete them (with the chain records, rebuilt from the ticks) and mark the format. */
  async reset(): Promise<void> {
    await Promise.all([this.placements, this.endings, this.leaves, this.nodes].map((s) => s.clear()));
    await this.markFormat();
  }

  markFormat(): Promise<void> {
    return this.meta.put('order-records', new TextEncoder().encode(ORDER_RECORDS_FORMAT));
  }

  /** Take up the appending state at `count` used ids (the engine's, after a snapshot restore). */
  async init(count: number): Promise<void> {
    this.count = count;
    const start = count - (count % BLOCK);
    const leaves = start < count ? await this.leaves.values({ gte: u64Key(start), lt: u64Key(count) }).all() : [];
    if (leaves.length !== count - start)
      throw new Error(`chain: ${count - start} used-id leaves expected from ${start}, ${leaves.length} stored`);
    this.tail = leaves.map((l) => leafHashWith(sha256, l));
    this.frontier.clear();
    for (let h = STORED_NODE_HEIGHT; 2 ** h <= count; h++) {
      if (Math.floor(count / 2 ** h) % 2 === 1) {
        const n = await this.nodes.get(nodeKey(h, Math.floor(count / 2 ** h) - 1));
        if (n === undefined) throw new Error(`chain: the used-id node at height ${h} is missing`);
        this.frontier.set(h, n);
      }
    }
  }

  /** Number of used ids appended so far (equals the engine's usedIdCount after each tick). */
  get usedIdCount(): number {
    return this.count;
  }

  /**
   * The tick-ops hook: the placements, endings, used-id leaves and completed nodes of one
   * applied tick. `usedAfter` is the engine's used-id count after the tick.
   */
  tickOps(record: AppliedTick, usedAfter: number, ops: ChainOp[]): void {
    const put = (sublevel: ReturnType<typeof binarySublevel>, key: string, value: Uint8Array) =>
      ops.push(binaryPut(sublevel, key, value));
    const ending = (o: BookOrder, end: EndName, seq: bigint) => {
      const v = new Uint8Array(9);
      v[0] = END_CODES.indexOf(end);
      new DataView(v.buffer).setBigUint64(1, seq, true);
      put(this.endings, orderKey(o.owner, o.orderId), v);
    };
    const accepted = record.txs.filter((a) => a.outcome.ok && a.outcome.kind === 'order').length;
    let ordinal = usedAfter - accepted;
    if (ordinal !== this.count)
      throw new Error(
        `chain: used-id records at ${this.count}, the engine at ${ordinal} before tick ${record.tick.tickNumber}`,
      );
    // In order: the last event that touches an order in this tick is what ended it.
    for (const a of record.txs) {
      const out = a.outcome;
      if (!out.ok) continue;
      if (out.kind === 'cancel') ending(out.order, 'cancelled', a.continuumSequence);
      if (out.kind === 'cancel_all') for (const e of out.ended) ending(e.order, 'cancelled', a.continuumSequence);
      if (out.kind !== 'order') continue;
      const o = out.order;
      const v = new Uint8Array(12);
      const view = new DataView(v.buffer);
      view.setBigUint64(0, BigInt(ordinal), true);
      view.setInt32(8, out.result.slot, true);
      put(this.placements, orderKey(o.owner, o.orderId), v);
      this.append(usedLeaf(o.owner, o.orderId), ordinal, put);
      ordinal++;
      for (const t of out.result.trades) if (!t.maker.open) ending(t.maker, 'filled', a.continuumSequence);
      for (const r of out.result.removals) ending(r.order, r.reason, a.continuumSequence);
      if (out.result.slot < 0) ending(o, 'filled_on_arrival', a.continuumSequence);
    }
  }

  private append(
    leaf: Uint8Array,
    ordinal: number,
    put: (s: ReturnType<typeof binarySublevel>, k: string, v: Uint8Array) => void,
  ): void {
    put(this.leaves, u64Key(ordinal), leaf);
    this.tail.push(leafHashWith(sha256, leaf));
    this.count++;
    if (this.tail.length < BLOCK) return;
    let node = rootOfLeafHashesWith(sha256, this.tail);
    this.tail = [];
    let h = STORED_NODE_HEIGHT;
    let index = this.count / BLOCK - 1;
    for (;;) {
      put(this.nodes, nodeKey(h, index), node);
      const left = this.frontier.get(h);
      if (index % 2 === 0 || left === undefined) {
        this.frontier.set(h, node);
        return;
      }
      this.frontier.delete(h);
      node = nodeHashWith(sha256, left, node);
      h++;
      index = (index - 1) / 2;
    }
  }

  // ------------------------------------------------------------------ reads

  async placement(owner: Uint8Array, orderId: bigint): Promise<OrderPlacement | undefined> {
    const v = await this.placements.get(orderKey(owner, orderId));
    if (v === undefined || v.byteLength !== 12) return undefined;
    const view = new DataView(v.buffer, v.byteOffset, 12);
    return { ordinal: Number(view.getBigUint64(0, true)), slot: view.getInt32(8, true) };
  }

  async ending(owner: Uint8Array, orderId: bigint): Promise<OrderEnding | undefined> {
    const v = await this.endings.get(orderKey(owner, orderId));
    if (v === undefined || v.byteLength !== 9 || v[0]! >= END_CODES.length) return undefined;
    return { end: END_CODES[v[0]!]!, sequence: new DataView(v.buffer, v.byteOffset, 9).getBigUint64(1, true) };
  }

  /**
   * The audit path of used id `index` in the used-id tree of its first `n` leaves (leaf to
   * root, the batch hash's rule). Reads only stored values: call it once the records of
   * the ticks that used those n ids are written.
   */
  async usedIdPath(index: number, n: number): Promise<Uint8Array[]> {
    if (!(index >= 0 && index < n)) throw new RangeError(`used id ${index} is not below ${n}`);
    const blocks = new Map<number, Uint8Array[]>();
    const leafHashes = async (start: number, size: number): Promise<Uint8Array[]> => {
      const b = Math.floor(start / BLOCK);
      let hashes = blocks.get(b);
      if (!hashes) {
        const from = b * BLOCK;
        const to = Math.min(n, from + BLOCK);
        const leaves = await this.leaves.values({ gte: u64Key(from), lt: u64Key(to) }).all();
        if (leaves.length !== to - from) throw new Error(`chain: used-id leaves ${from}..${to - 1} are not all stored`);
        hashes = leaves.map((l) => leafHashWith(sha256, l));
        blocks.set(b, hashes);
      }
      return hashes.slice(start - b * BLOCK, start - b * BLOCK + size);
    };
    // The node over leaves [start, start + size): a complete subtree when size is a power
    // of two (start is a multiple of it), else the right edge, split at the largest power of two.
    const rangeRoot = async (start: number, size: number): Promise<Uint8Array> => {
      if (size < BLOCK) return rootOfLeafHashesWith(sha256, await leafHashes(start, size));
      if (isPow2(size)) {
        const h = Math.log2(size);
        const stored = await this.nodes.get(nodeKey(h, start / size));
        if (stored === undefined)
          throw new Error(`chain: the used-id node at height ${h}, index ${start / size} is not stored`);
        return stored;
      }
      let k = 1;
      while (k * 2 < size) k *= 2;
      return nodeHashWith(sha256, await rangeRoot(start, k), await rangeRoot(start + k, size - k));
    };
    const path: Uint8Array[] = [];
    let p = index;
    let m = n;
    for (let h = 0; m > 1; h++) {
      if (!(p % 2 === 0 && p === m - 1)) {
        const s = p ^ 1;
        const start = s * 2 ** h;
        path.push(await rangeRoot(start, Math.min(2 ** h, n - start)));
      }
      p = Math.floor(p / 2);
      m = Math.ceil(m / 2);
    }
    return path;
  }
}
