/**
 * The chain of one node, opened once by the node and fed by the order book runtime
 * (src/dex/runtime.ts) as one consumer of its applied-tick records; shared by the chain's
 * faces (the explorer REST/WebSocket, the gRPC ChainService):
 *
 *   0. rebuild the chain records from the ticks when they are of an older format, or made
 *      before the per-order records of order proofs (core/order-records.ts; not on a chain
 *      started from another node's snapshot, which has no ticks before it: proofs are off);
 *   1. restore the engine and the block builder from the chain's latest snapshot, if any
 *      (a chain built with another --block-ms is refused: blocks would differ): the order
 *      book runtime starts from that engine;
 *   2. the order book replays the stored ticks after it (all of them without a snapshot)
 *      into the chain, which re-derives and rewrites, byte for byte, the records of those
 *      ticks;
 *   3. then it follows new ticks: engine -> applied records -> chain records.
 *
 * Parts that store records of their own in the chain's per-tick write (`parts`: the live
 * channels' owner log) are told when the records are rebuilt (`reset`), are opened with the
 * engine as restored and the stored head tick before the replay (`open`), and add their ops
 * to each tick's write (ChainTickHook).
 */
import type { Logger } from 'pino';
import type { Tick } from '../core/index.js';
import type { Database } from '../db/index.js';
import { OrderBookEngine, type AppliedTick } from '../dex/engine/index.js';
import {
  BlockBuilder,
  Chain,
  ChainStore,
  OrderRecords,
  ORDER_RECORDS_FORMAT,
  restoreSnapshot,
  type BuilderState,
  type ChainOp,
  type ChainTickHook,
} from './core/index.js';

export interface ChainRuntimeDeps {
  db: Database;
  blockMs: number;
  snapshotTxs: number;
  snapshotTicks: number;
  logger?: Logger;
  parts?: readonly ChainPart[];
}

/** A part whose records live in the chain's per-tick write (see the docblock). */
export interface ChainPart extends ChainTickHook {
  /** The chain records are rebuilt from the ticks: delete this part's records too. */
  reset(): Promise<void>;
  /** Before the first tick is applied: the engine as restored (or fresh) and the chain's stored head tick (0: none). */
  open(engine: OrderBookEngine, headTick: number): Promise<void>;
}

export interface ChainRuntime {
  chain: Chain;
  /** What the chain keeps per order for order state proofs (docs/proofs.md). */
  orders: OrderRecords;
  /**
   * What the order book runtime is built with for the chain: the engine to start from (the
   * snapshot's, or a fresh one), the consumer of its records, the state root before the
   * ticks that close a block, and the pace of its replay (the chain's writes).
   */
  book: {
    engine: OrderBookEngine;
    consumers: Array<(record: AppliedTick) => void>;
    rootBefore: (tick: Tick) => boolean;
    throttle: () => Promise<void>;
  };
  /** Once the order book has replayed the stored ticks: resolves when their records are written. */
  ready(): Promise<void>;
  /** Write what is pending and a final snapshot (after the order book stopped applying). */
  close(): Promise<void>;
}

export async function openChainRuntime(deps: ChainRuntimeDeps): Promise<ChainRuntime> {
  const log = deps.logger;
  const store = new ChainStore(deps.db);
  const blockMsKey = 'block-ms';
  const storedBlockMs = await store.meta.get(blockMsKey);
  if (storedBlockMs !== undefined) {
    const was = Number(new TextDecoder().decode(storedBlockMs));
    if (was !== deps.blockMs) {
      throw new Error(
        `the chain in this --db-path was built with --block-ms ${was}; start with --block-ms ${was} (blocks must stay a function of the ticks), or use a fresh --db-path`,
      );
    }
  } else {
    await store.meta.put(blockMsKey, new TextEncoder().encode(String(deps.blockMs)));
  }

  const orders = new OrderRecords(deps.db);
  const chainIsEmpty =
    (await store.loadHead()) === undefined && (await store.blocks.keys({ limit: 1 }).all()).length === 0;
  const recordsCurrent = await store.recordsCurrent();
  const ordersFormat = await orders.format();
  const ordersCurrent =
    ordersFormat === ORDER_RECORDS_FORMAT || ordersFormat === 'off' || (ordersFormat === undefined && chainIsEmpty);
  // A full node started from another node's snapshot holds no blocks before it (block 1 is absent).
  const fromForeignSnapshot =
    ordersFormat === undefined &&
    !chainIsEmpty &&
    (await store.loadSnapshot()) !== undefined &&
    (await store.blockJson(1)) === undefined;
  if (!recordsCurrent && (ordersFormat === 'off' || fromForeignSnapshot)) {
    // Its blocks cannot be derived again: the ticks before its snapshot are not here.
    throw new Error(
      "the chain in this --db-path started from another node's snapshot and its records have an older format (blocks without last_tick_output_hash), which cannot be rebuilt without the ticks before that snapshot; start again with a fresh --db-path and --follow-from snapshot",
    );
  }
  if (recordsCurrent && (ordersFormat === 'off' || fromForeignSnapshot)) {
    // Started from another node's snapshot (a full node): the ticks before it are not here,
    // so the per-order records cannot be derived for the ids used before it.
    log?.warn('chain: this chain started from a snapshot; order state proofs are not served');
    await orders.markOff();
  } else if (!recordsCurrent || !ordersCurrent) {
    // Records of an older shape (market creations among the transactions): derive them
    // again from the stored ticks, like a node that never had them.
    log?.warn('chain: the chain records in this --db-path have an older format; rebuilding them from the stored ticks');
    await store.resetRecords();
    await orders.reset();
    for (const part of deps.parts ?? []) await part.reset();
  } else {
    await store.markRecordsFormat();
    if (orders.enabled) await orders.markFormat();
  }

  let engine = new OrderBookEngine();
  let builderState: BuilderState | undefined;
  const snap = await store.loadSnapshot();
  if (snap) {
    const t0 = performance.now();
    ({ engine, builderState } = restoreSnapshot(snap));
    log?.info(
      { tick: snap.tick, ms: Math.round(performance.now() - t0) },
      'chain: restored the order book and the block builder from a snapshot',
    );
  }
  const builder = new BlockBuilder(deps.blockMs, builderState);
  const chain = new Chain({
    store,
    engine,
    builder,
    snapshotTxs: deps.snapshotTxs,
    snapshotTicks: deps.snapshotTicks,
    ...(log ? { logger: log } : {}),
  });
  await chain.init();
  const headTick = (await store.loadHead())?.tick ?? 0;
  for (const part of deps.parts ?? []) {
    await part.open(engine, headTick);
    chain.addTickHook(part);
  }
  if (orders.enabled) {
    await orders.init(engine.state.usedIdCount);
    const bookEngine = engine;
    chain.addTickHook({
      onTick(record) {
        const ops: ChainOp[] = [];
        orders.tickOps(record, bookEngine.state.usedIdCount, ops);
        return { ops };
      },
    });
  }
  let closing: Promise<void> | undefined;
  return {
    chain,
    orders,
    book: { engine, consumers: [chain.applied], rootBefore: chain.closesBlock, throttle: () => chain.flushed() },
    async ready() {
      await chain.flushed();
      log?.info({ height: chain.latestHeight(), tick: engine.lastTick }, 'chain: ready');
    },
    close() {
      closing ??= chain.close();
      return closing;
    },
  };
}
