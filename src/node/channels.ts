/**
 * The live channels (docs/chain.md "Channels") wired into the node: one part of the chain's
 * per-tick write (ChainPart) and one WebSocket route of the rpc port (WS /ws).
 *
 *   reset    the chain records are rebuilt from the ticks: the owner log's keys go too
 *   open     before the replay: the owner log reads its stored counts as of the chain's
 *            stored head tick; the book mirrors are seeded with the engine's books as
 *            restored (every replayed tick is then folded in, as live ones are)
 *   per tick while the tick is delivered: its book deltas are derived and published at once
 *            (they are of a durable tick, kept in memory only); its owner events are
 *            numbered, their ops go into the tick's atomic chain write, and once that write
 *            resolves (in tick order) they are published (a resumable channel replays what
 *            is stored)
 *   serve    the hub over the three sources (blocks from the chain's reader) behind the
 *            ws transport, handed to the rpc face as an upgrade route
 *
 * Why here: the channels stand above the chain (they read it), so the chain cannot build
 * them; the node builds both and joins them through the chain's hooks.
 */
import type { Logger } from 'pino';
import type { RpcUpgradeRoute } from '../chain/api/index.js';
import type { ChainPart } from '../chain/index.js';
import type { ChainReader, ChainOp } from '../chain/core/index.js';
import {
  BlocksSource,
  BookSource,
  ChannelHub,
  ChannelSocket,
  DEFAULT_LIMITS,
  OwnerLog,
  type ChannelLimits,
} from '../channels/index.js';
import type { Database } from '../db/index.js';
import type { AppliedTick, OrderBookEngine } from '../dex/engine/index.js';

export class NodeChannels implements ChainPart {
  readonly owners: OwnerLog;
  readonly book = new BookSource();
  /** Last tick whose channel messages are published (heartbeats, answers). */
  private publishedTick = 0;

  constructor(db: Database) {
    this.owners = new OwnerLog(db);
  }

  async reset(): Promise<void> {
    await this.owners.events.clear();
    await this.owners.counts.clear();
  }

  async open(engine: OrderBookEngine, headTick: number): Promise<void> {
    await this.owners.load(headTick);
    const books = [...engine.state.markets.values()].map((m) => ({ marketId: m.info.marketId, book: m.book }));
    this.book.seed(books, engine.lastTick);
    this.publishedTick = engine.lastTick;
  }

  onTick(record: AppliedTick): { ops: ChainOp[]; written: () => void } {
    this.book.publish(this.book.derive(record));
    const recorded = this.owners.record(record);
    const tick = record.tick.tickNumber;
    return {
      ops: recorded.ops,
      written: () => {
        this.publishedTick = tick;
        this.owners.publish(recorded.items);
      },
    };
  }

  /** The channels' WebSocket over the chain's stored blocks, for the rpc face. */
  serve(
    chain: ChainReader,
    logger: Logger,
    limits: Partial<ChannelLimits> = {},
  ): RpcUpgradeRoute & { hub: ChannelHub } {
    const blocks = new BlocksSource(chain);
    const hub = new ChannelHub(
      {
        blocks,
        orders: this.owners,
        book: this.book,
        head: { tick: () => this.publishedTick, height: () => chain.latestHeight() },
      },
      { ...DEFAULT_LIMITS, ...limits },
      logger,
    );
    const socket = new ChannelSocket(hub);
    return {
      hub,
      upgrade: (req, sock, head) => socket.upgrade(req, sock, head),
      close: () => {
        socket.close();
        blocks.close();
      },
    };
  }
}
