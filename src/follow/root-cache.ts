/**
 * The block roots FollowService/StreamBlockRoots sends, computed once per block and shared
 * by every stream (issue 19 point 3: each stream used to re-read, re-encode and hash every
 * block on the main thread).
 *
 *   live blocks   one chain.onBlock subscription hashes each new block once, from the JSON
 *                 text the chain already made for it (Chain.latestDetailJson)
 *   stored blocks read from LevelDB as the stored detail JSON text (the bytes
 *                 GET /blocks/:height serves: no parse, no re-encode), by one loader for the
 *                 whole node, a block at a time, yielding to the event loop between blocks,
 *                 in batches of at most READ_BATCH; streams that want the same height wait
 *                 for the same read
 *   memory        at most CACHE_ROOTS encoded roots (about 150 bytes each), oldest evicted
 *
 * A root is the protobuf BlockRoot message, encoded once (block-roots.ts encodeBlockRoot).
 */
import { setImmediate as yieldTurn } from 'node:timers/promises';
import type { BlockDetail, BlockRecord, ChainReader, Unsubscribe } from '../chain/core/index.js';
import { parseRecordJson } from '../wire/index.js';
import { ChainStore } from '../chain/core/index.js';
import type { Database } from '../db/index.js';
import { encodeBlockRoot, rootOfJson } from './block-roots.js';

export const CACHE_ROOTS = 16_384;
export const READ_BATCH = 64;

/** Where stored blocks are read: their state_root and detail JSON text. */
export interface StoredBlocks {
  read(height: number): Promise<{ stateRoot: number[]; json: string } | undefined>;
}

/** Stored blocks read from the node's database (the chain's own store, read-only). */
export function storedBlocks(db: Database): StoredBlocks {
  const store = new ChainStore(db);
  return {
    async read(height) {
      const [block, json] = await Promise.all([store.blockJson(height), store.blockDetailJson(height)]);
      return block === undefined || json === undefined
        ? undefined
        : { stateRoot: parseRecordJson<BlockRecord>(block).state_root, json };
    },
  };
}

/** The chain as the cache uses it: the produced height, new blocks, and the JSON of the latest one. */
export type RootChain = Pick<ChainReader, 'latestHeight' | 'onBlock'> & {
  latestDetailJson?(): { height: number; json: string } | undefined;
};

export class BlockRootCache {
  private readonly roots = new Map<number, Buffer>();
  private readonly loading = new Map<number, Promise<Buffer | undefined>>();
  private loader: Promise<unknown> = Promise.resolve(); // one stored read at a time, node-wide
  private readonly waiters = new Set<() => void>();
  private readonly unsubscribe: Unsubscribe;
  /** Stored blocks read and hashed (tests: each block once, whatever the number of streams). */
  reads = 0;

  constructor(
    private readonly chain: RootChain,
    private readonly stored: StoredBlocks,
  ) {
    this.unsubscribe = chain.onBlock((d) => this.onBlock(d));
  }

  latestHeight(): number {
    return this.chain.latestHeight();
  }

  /** Call `wake` once after the next block (or close). */
  waitForBlock(wake: () => void): void {
    this.waiters.add(wake);
  }

  stopWaiting(wake: () => void): void {
    this.waiters.delete(wake);
  }

  close(): void {
    this.unsubscribe();
    this.wakeAll();
  }

  /** Encoded roots of heights [from, to] (at most READ_BATCH, produced ones only), in order; shorter if one is missing. */
  async get(from: number, to: number): Promise<Buffer[]> {
    const last = Math.min(to, from + READ_BATCH - 1, this.chain.latestHeight());
    const out: Buffer[] = [];
    for (let h = from; h <= last; h++) {
      const hit = this.roots.get(h) ?? (await this.load(h));
      if (!hit) break;
      out.push(hit);
    }
    return out;
  }

  private load(height: number): Promise<Buffer | undefined> {
    let p = this.loading.get(height);
    if (p) return p;
    p = this.loader.then(async () => {
      const cached = this.roots.get(height);
      if (cached) return cached;
      await yieldTurn(); // let other clients' I/O in between two blocks
      const block = await this.stored.read(height);
      if (!block) return undefined;
      this.reads++;
      return this.put(height, encodeBlockRoot(rootOfJson(height, block.stateRoot, block.json)));
    });
    this.loader = p.catch(() => undefined);
    this.loading.set(height, p);
    void p.finally(() => this.loading.delete(height)).catch(() => undefined);
    return p;
  }

  private onBlock(d: BlockDetail): void {
    const h = d.block.height;
    if (!this.roots.has(h)) {
      const latest = this.chain.latestDetailJson?.();
      const json = latest?.height === h ? latest.json : undefined;
      // The chain keeps the JSON of its latest block; without it (another reader), read it when asked.
      if (json !== undefined) this.put(h, encodeBlockRoot(rootOfJson(h, d.block.state_root, json)));
    }
    this.wakeAll();
  }

  private put(height: number, root: Buffer): Buffer {
    this.roots.set(height, root);
    if (this.roots.size > CACHE_ROOTS) this.roots.delete(this.roots.keys().next().value as number);
    return root;
  }

  private wakeAll(): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }
}
