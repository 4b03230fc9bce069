/**
 * Test and bench support: the channels on a real http.Server and a real LevelDB, fed the way
 * the node will feed them (phase 2 wires the same calls to the node's applier and chain):
 * each applied tick's owner events are numbered and written in one LevelDB batch, then the
 * tick's book deltas and owner events are published; blocks come from an in-memory chain
 * whose replay reads asynchronously like the store does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlockDetail } from '../../../src/chain/core/index.js';
import {
  BlocksSource,
  BookSource,
  ChannelHub,
  ChannelSocket,
  CHANNELS_PATH,
  DEFAULT_LIMITS,
  OwnerLog,
  type BlockReader,
  type ChannelLimits,
} from '../../../src/channels/index.js';
import { openDatabase, type Database } from '../../../src/db/index.js';
import type { AppliedTick } from '../../../src/dex/engine/index.js';
import type { DexTx } from '../../../src/dex/engine/index.js';
import type { ChainOp } from '../../../src/chain/core/index.js';
import { TickMaker } from './ticks.js';

/** One atomic LevelDB batch over sublevels (the cast ChainStore makes at the same boundary). */
export function writeOps(db: Database, ops: ChainOp[]): Promise<void> {
  return (db.batch as unknown as (this: Database, operations: ChainOp[]) => Promise<void>).call(db, ops);
}

/** Blocks in memory: `produce` stores then announces one (with `produced_us`, its wall-clock time in µs); replay reads one per macrotask. */
export class MemoryBlocks implements BlockReader {
  readonly details: BlockDetail[] = [];
  private readonly listeners = new Set<(d: BlockDetail) => void>();
  latestHeight(): number {
    return this.details.length;
  }
  async *readBlockDetails(from: number, to: number): AsyncIterable<BlockDetail> {
    for (let h = Math.max(1, from); h <= Math.min(to, this.details.length); h++) {
      await new Promise((resolve) => setImmediate(resolve));
      yield this.details[h - 1]!;
    }
  }
  onBlock(listener: (d: BlockDetail) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  produce(tick: number, padding = 0): BlockDetail {
    const height = this.details.length + 1;
    const producedUs = Math.round((performance.timeOrigin + performance.now()) * 1000);
    const d = {
      block: {
        height,
        last_tick: tick,
        produced_us: producedUs,
        padding: padding > 0 ? 'x'.repeat(padding) : undefined,
      },
      transactions: [],
      events: [],
      markets: [],
    } as unknown as BlockDetail;
    this.details.push(d);
    for (const l of this.listeners) l(d);
    return d;
  }
}

export class ChannelsHarness {
  readonly ticks = new TickMaker();
  readonly blocks = new MemoryBlocks();
  readonly book = new BookSource();
  readonly blocksSource: BlocksSource;
  readonly hub: ChannelHub;
  readonly socket: ChannelSocket;
  url = '';
  publishedTick = 0;
  /** Wall-clock µs at which each tick was applied by the engine (kept for the bench's latency). */
  readonly appliedUs = new Map<number, number>();
  recordAppliedTimes = false;

  private constructor(
    readonly db: Database,
    readonly owners: OwnerLog,
    readonly server: Server,
    private readonly dir: string,
    limits: ChannelLimits,
  ) {
    this.blocksSource = new BlocksSource(this.blocks);
    this.hub = new ChannelHub(
      {
        blocks: this.blocksSource,
        orders: owners,
        book: this.book,
        head: { tick: () => this.publishedTick, height: () => this.blocks.latestHeight() },
      },
      limits,
    );
    this.socket = new ChannelSocket(this.hub);
    this.socket.attach(server);
  }

  static async start(limits: Partial<ChannelLimits> = {}): Promise<ChannelsHarness> {
    const dir = await mkdtemp(join(tmpdir(), 'svc-channels-'));
    const db = await openDatabase(dir);
    const owners = new OwnerLog(db);
    await owners.load(0);
    const server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const h = new ChannelsHarness(db, owners, server, dir, { ...DEFAULT_LIMITS, ...limits });
    h.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}${CHANNELS_PATH}`;
    return h;
  }

  /** Apply one tick, store its owner events (one batch), then publish its deltas and events. */
  async apply(txs: DexTx[], verified: boolean[] = []): Promise<AppliedTick> {
    const applied = this.ticks.apply(txs, verified);
    if (this.recordAppliedTimes)
      this.appliedUs.set(applied.tick.tickNumber, (performance.timeOrigin + performance.now()) * 1000);
    const deltas = this.book.derive(applied);
    const recorded = this.owners.record(applied);
    if (recorded.ops.length > 0) await writeOps(this.db, recorded.ops);
    this.publishedTick = applied.tick.tickNumber;
    this.book.publish(deltas);
    this.owners.publish(recorded.items);
    return applied;
  }

  async close(): Promise<void> {
    this.socket.close();
    this.blocksSource.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.db.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}
