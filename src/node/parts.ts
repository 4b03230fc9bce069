/**
 * The parts a node is built from, in the order startNode opens them, and how they close:
 * the ordering part (the database, the pool, the sequencer or a full node's follower), then
 * what follows ordering (the chain, the order book runtime and the live channels), then the
 * faces. startNode (node.ts) runs them all on one thread, or the ordering part on the main
 * thread and the rest on the node thread (threaded.ts, workers/node.worker.ts).
 */
import type { Piscina } from 'piscina';
import { openChainRuntime, type ChainRuntime } from '../chain/index.js';
import { followLeaders } from '../config/index.js';
import { formatHostPort } from '../wire/index.js';
import type { NodeConfig } from '../config/index.js';
import { openDatabase, type Database } from '../db/index.js';
import { startOrderBook, type OrderBookRuntime } from '../dex/index.js';
import { startProgress, type Logger } from '../log/index.js';
import type { NodeMetrics } from '../metrics/index.js';
import { createPool, workerFile } from '../pool/index.js';
import { createSequencer } from '../sequencer/index.js';
import { followerFactory, FollowError, probeLeader } from '../follow/index.js';
import type { Sequencer } from '../sequencer/index.js';
import { CHAIN_SNAPSHOT_CODE } from './chain-snapshots.js';
import { NodeChannels } from './channels.js';
import { databaseError, faceError, orderBookError, StartupError } from './errors.js';
import type { FaceSpec, NodeContext, PreparedFace, RunningFace, StartNodeOptions } from './interface.js';

/** What startNode has opened so far; closeParts closes it in reverse order. */
export interface Parts {
  faces: RunningFace[];
  db?: Database;
  pool?: Piscina;
  sequencer?: Sequencer;
  chain?: ChainRuntime;
  book?: OrderBookRuntime;
  metrics?: NodeMetrics;
}

export type Step = <T>(what: string, run: () => Promise<T>) => Promise<T>;

/** Every face stops accepting, the sequencer ticks out what is in flight, then faces, order book, chain, metrics, pool, database close. */
export async function closeParts(parts: Parts, logger: Logger): Promise<void> {
  const { faces, sequencer, book, chain, metrics, pool, db } = parts;
  for (const face of faces) face.stopAccepting();
  if (sequencer) await sequencer.stop().catch((err: unknown) => logger.error({ err }, 'sequencer stop failed'));
  for (const face of [...faces].reverse()) {
    await face.close().catch((err: unknown) => logger.error({ err, face: face.name }, 'face close failed'));
  }
  await book?.close().catch((err: unknown) => logger.error({ err }, 'order book close failed'));
  await chain?.close().catch((err: unknown) => logger.error({ err }, 'chain close failed'));
  metrics?.close();
  await pool?.destroy().catch((err: unknown) => logger.error({ err }, 'pool close failed'));
  if (db && db.status !== 'closed')
    await db.close().catch((err: unknown) => logger.error({ err }, 'database close failed'));
}

/**
 * The ordering thread's own tick window when the node thread runs beside it: the node thread
 * holds the --retain-ticks / --retain-bytes window and serves every read, so the ordering
 * thread keeps only the newest few (its reads are the order book's start-up replay).
 */
const ORDERING_THREAD_WINDOW = { retainTicks: 256, retainBytes: 4 * 1024 * 1024 };

/**
 * The database, the pool and the sequencer (or a full node's follower), resumed from the
 * stored ticks. `threaded`: the node thread runs beside it (the database opened shared,
 * a small tick window here).
 */
export async function openOrdering(
  config: NodeConfig,
  options: StartNodeOptions,
  parts: Parts,
  step: Step,
  logger: Logger,
  reportFailure: (err: Error) => void,
  threaded: boolean,
  backlog?: () => number,
): Promise<{ db: Database; pool: Piscina; sequencer: Sequencer }> {
  const leaders = config.follow !== undefined ? followLeaders(config.follow) : undefined;
  const leader = leaders?.[0];
  if (leader !== undefined) {
    // Before anything is written: a leader that does not answer, or is no svc node, stops us here.
    await step(`reaching the leader at ${leader}`, () => probeLeader(leader)).catch((err: unknown) =>
      Promise.reject(startupErrorOf(err)),
    );
  }
  const db = await step('opening the database', () =>
    openDatabase(config.dbPath, { shared: threaded }).catch((err: unknown) =>
      Promise.reject(databaseError(config.dbPath, err)),
    ),
  );
  parts.db = db;
  const pool = createPool({
    preload: workerFile('vdf'),
    ...(options.poolThreads ? { threads: options.poolThreads } : {}),
  });
  parts.pool = pool;
  const create =
    options.createSequencer ??
    (leaders !== undefined
      ? followerFactory({
          leaders,
          fromSnapshot: config.followFrom === 'snapshot' ? CHAIN_SNAPSHOT_CODE : undefined,
          logger,
          onFatal: (err) => reportFailure(err),
        })
      : createSequencer);
  const sequencer = await create({
    db,
    pool,
    ...(threaded ? ORDERING_THREAD_WINDOW : { retainTicks: config.retainTicks, retainBytes: config.retainBytes }),
    vdfIterations: config.vdfIterations,
    idleTickMs: config.idleTickMs,
    queueCapacity: config.queueCapacity,
    ...(backlog ? { backlog } : {}),
    onError: (err) => logger.error({ err }, 'sequencer error'),
  });
  parts.sequencer = sequencer;
  await step(
    leader !== undefined
      ? `checking the leader at ${leader} and resuming from the stored ticks`
      : 'resuming the chain (stored ticks, write-ahead log)',
    () => sequencer.start(),
  ).catch((err: unknown) => Promise.reject(startupErrorOf(err)));
  return { db, pool, sequencer };
}

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

/** Run one start-up step, logging progress if it lasts more than a second. */
export function makeStep(logger: Logger): Step {
  return async (what, run) => {
    const progress = startProgress({ logger, what });
    try {
      return await run();
    } finally {
      progress.end();
    }
  };
}

/** A face's ports: its own, then any more it listens on. */
export function listening(f: RunningFace): Array<{ name: string; address: string }> {
  return [
    { name: f.name, address: f.address },
    ...Object.entries(f.more ?? {}).map(([name, address]) => ({ name, address })),
  ];
}

/** A full node's refusal (bad leader, refused snapshot) is a start-up error the user acts on; others pass. */
function startupErrorOf(err: unknown): unknown {
  return err instanceof FollowError ? new StartupError(err.message, { cause: err }) : err;
}
