/**
 * The order book engine and the chain of one node, started once and shared by its faces
 * (the order book HTTP API, the explorer REST/WebSocket, the gRPC ChainService):
 *
 *   0. rebuild the chain records from the ticks when they are of an older format;
 *   1. restore the engine and the block builder from the chain's latest snapshot, if any
 *      (a chain built with another --block-ms is refused: blocks would differ);
 *   2. replay the stored ticks after it (all of them without a snapshot), re-deriving and
 *      rewriting, byte for byte, the records of those ticks;
 *   3. follow new ticks: engine -> applied records -> HTTP waiters, chain records.
 */
import type { Logger } from 'pino';
import type { Piscina } from 'piscina';
import type { Database } from '../db/index.js';
import { TickApplier, type TickSource } from '../dex/applier.js';
import { OrderBookEngine, decodeSnapshot } from '../dex/engine/index.js';
import { OrderBookGateway } from '../dex/gateway.js';
import { BatchVerifier } from '../dex/verifier.js';
import { createPool } from '../pool/index.js';
import type { Sequencer } from '../sequencer/interface.js';
import { BlockBuilder, type BuilderState } from './builder.js';
import { Chain } from './chain.js';
import { ChainStore, type StoredSnapshot } from './store.js';

export interface ChainRuntimeDeps {
  db: Database;
  pool: Piscina; // the node's pool (used for signatures when signatureThreads is 0)
  sequencer: TickSource & Pick<Sequencer, 'submit' | 'submitBatch' | 'orderedTicks'>;
  blockMs: number;
  snapshotTxs: number;
  snapshotTicks: number;
  logger?: Logger;
  /** Threads of a pool of its own for ed25519 checks and receipt signatures (default 2, env SVC_DEX_SIGNATURE_THREADS). */
  signatureThreads?: number;
}

export interface ChainRuntime {
  applier: TickApplier;
  gateway: OrderBookGateway;
  verifier: BatchVerifier;
  chain: Chain;
  /** Stop following ticks, write what is pending and a final snapshot. */
  close(): Promise<void>;
}

/**
 * The engine and the block builder's state of a stored snapshot; throws if it does not
 * decode or its parts disagree on the tick (also the check of a snapshot fetched from a
 * leader, src/follow/snapshot-bootstrap.ts).
 */
export function restoreSnapshot(snap: StoredSnapshot): { engine: OrderBookEngine; builderState: BuilderState } {
  const engine = new OrderBookEngine(decodeSnapshot(snap.engine));
  const builderState = JSON.parse(snap.builder) as BuilderState;
  if (engine.lastTick !== snap.tick || builderState.lastTick !== snap.tick) throw new Error(`chain snapshot is inconsistent (tick ${snap.tick}, engine ${engine.lastTick}, builder ${builderState.lastTick})`);
  return { engine, builderState };
}

export async function startChainRuntime(deps: ChainRuntimeDeps): Promise<ChainRuntime> {
  const log = deps.logger;
  const store = new ChainStore(deps.db);
  const blockMsKey = 'block-ms';
  const storedBlockMs = await store.meta.get(blockMsKey);
  if (storedBlockMs !== undefined) {
    const was = Number(new TextDecoder().decode(storedBlockMs));
    if (was !== deps.blockMs) {
      throw new Error(`the chain in this --db-path was built with --block-ms ${was}; start with --block-ms ${was} (blocks must stay a function of the ticks), or use a fresh --db-path`);
    }
  } else {
    await store.meta.put(blockMsKey, new TextEncoder().encode(String(deps.blockMs)));
  }

  if (!(await store.recordsCurrent())) {
    // Records of an older shape (market creations among the transactions): derive them
    // again from the stored ticks, like a node that never had them.
    log?.warn('chain: the chain records in this --db-path have an older format; rebuilding them from the stored ticks');
    await store.resetRecords();
  } else {
    await store.markRecordsFormat();
  }

  let engine = new OrderBookEngine();
  let builderState: BuilderState | undefined;
  const snap = await store.loadSnapshot();
  if (snap) {
    const t0 = performance.now();
    ({ engine, builderState } = restoreSnapshot(snap));
    log?.info({ tick: snap.tick, ms: Math.round(performance.now() - t0) }, 'chain: restored the order book and the block builder from a snapshot');
  }
  const builder = new BlockBuilder(deps.blockMs, builderState);

  const threads = deps.signatureThreads ?? Number(process.env.SVC_DEX_SIGNATURE_THREADS ?? 2);
  const signaturePool = threads > 0 ? createPool({ threads }) : undefined;
  const verifier = new BatchVerifier(signaturePool ?? deps.pool);
  let chain: Chain | undefined;
  const applier = new TickApplier(deps.sequencer.orderedTicks?.() ?? deps.sequencer, engine, verifier, { ...(log ? { logger: log } : {}), throttle: () => chain!.flushed() });
  chain = new Chain({ store, applier, builder, snapshotTxs: deps.snapshotTxs, snapshotTicks: deps.snapshotTicks, ...(log ? { logger: log } : {}) });
  const gateway = new OrderBookGateway(deps.sequencer, applier, verifier);
  try {
    await chain.init();
    await applier.start();
    await chain.flushed();
  } catch (err) {
    await applier.stop();
    await chain.close().catch(() => undefined);
    await signaturePool?.destroy();
    throw err;
  }
  log?.info({ height: chain.latestHeight(), tick: applier.lastTick }, 'chain: ready');
  const running = chain;
  let closing: Promise<void> | undefined;
  return {
    applier,
    gateway,
    verifier,
    chain: running,
    close() {
      closing ??= (async () => {
        await applier.stop();
        gateway.close();
        await running.close();
        await signaturePool?.destroy();
      })();
      return closing;
    },
  };
}
