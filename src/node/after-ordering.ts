/**
 * What follows ordering, opened over the ordering part's sequencer: the chain (from its latest
 * snapshot), the order book runtime that feeds it and the live channels, then each face in
 * order. It runs on the node thread (workers/node.worker.ts) or, with --node-thread off, on
 * the one thread after ordering.ts (single-thread.ts).
 */
import type { Piscina } from 'piscina';
import { openChainRuntime } from '../chain/index.js';
import type { NodeConfig } from '../config/index.js';
import type { Database } from '../db/index.js';
import { startOrderBook } from '../dex/index.js';
import type { Logger } from '../log/index.js';
import type { Sequencer } from '../sequencer/index.js';
import { formatHostPort } from '../wire/index.js';
import { NodeChannels } from './channels.js';
import { faceError, orderBookError } from './errors.js';
import type { FaceSpec, NodeContext, PreparedFace } from './interface.js';
import type { Parts, Step } from './parts.js';

/**
 * Signature checks and receipt signatures of one turn made on the node thread itself when at
 * most this many (docs/architecture.md "Threads and priorities"): it does not order, and a
 * lone order then skips the signature pool's round trip.
 */
const NODE_THREAD_INLINE = 2;

/**
 * The chain opened from its latest snapshot and the order book runtime that feeds it, over
 * `sequencer`. `offOrdering`: this is the node thread, not the thread that orders.
 */
export async function openAfterOrdering(
  config: NodeConfig,
  parts: Parts,
  step: Step,
  logger: Logger,
  reportFailure: (err: Error) => void,
  db: Database,
  pool: Piscina,
  sequencer: Sequencer,
  offOrdering: boolean,
): Promise<Omit<NodeContext, 'metrics'>> {
  const channels = new NodeChannels(db);
  const chain = await step('opening the chain', () =>
    openChainRuntime({
      db,
      blockMs: config.blockMs,
      snapshotTxs: config.snapshotTxs,
      snapshotTicks: config.snapshotTicks,
      logger,
      parts: [channels],
    }),
  ).catch((err: unknown) => Promise.reject(orderBookError(err)));
  parts.chain = chain;
  const book = await step('starting the order book', () =>
    startOrderBook({
      sequencer,
      pool,
      dbPath: config.dbPath,
      signatureThreads: config.dexSignatureThreads,
      maxPending: config.maxPending,
      ...(offOrdering ? { checkInlineMax: NODE_THREAD_INLINE, signInlineMax: NODE_THREAD_INLINE } : {}),
      logger,
      ...chain.book,
    }),
  ).catch((err: unknown) => Promise.reject(orderBookError(err)));
  parts.book = book;
  await step('writing the chain records of the replayed ticks', () => chain.ready()).catch((err: unknown) =>
    Promise.reject(orderBookError(err)),
  );
  return { config, logger, db, pool, sequencer, book, chain, channels, fail: (err) => reportFailure(err) };
}

/** Each face in order, started early where it was prepared (gateway processes); a face that cannot start is a start-up error naming its address. */
export async function startFaces(
  specs: FaceSpec[],
  prepared: Map<FaceSpec, PreparedFace>,
  ctx: NodeContext,
  parts: Parts,
  step: Step,
): Promise<void> {
  for (const spec of specs) {
    const configured = ctx.config[`${spec.name}Addr` as keyof NodeConfig];
    const address = typeof configured === 'object' ? formatHostPort(configured) : '(no address)';
    const early = prepared.get(spec);
    prepared.delete(spec);
    const start = early ? () => early.start(ctx) : () => spec.start(ctx);
    parts.faces.push(
      await step(`starting the ${spec.name} face`, start).catch((err: unknown) =>
        Promise.reject(faceError(spec.name, address, err)),
      ),
    );
  }
}
