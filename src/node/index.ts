/**
 * startNode(config): opens the database and the worker pool, starts the sequencer, then
 * the order book runtime and the chain it feeds (restored from the chain's latest
 * snapshot, then the stored ticks after it), then each face in order; once every face is
 * up it prints `listening <face> <host:port>` for each (so a face that cannot start is reported before any `listening` line). A step that
 * takes more than a second logs that it is still running. close() shuts
 * down gracefully: every face stops accepting, the sequencer ticks out what is in flight
 * and stops, then faces, the order book and the chain, metrics, pool and database close,
 * in reverse order of opening.
 */
import type { Piscina } from 'piscina';
import { openChainRuntime, type ChainRuntime } from '../chain/index.js';
import { followLeaders } from '../config/index.js';
import { formatHostPort } from '../wire/index.js';
import type { NodeConfig } from '../config/index.js';
import { openDatabase, type Database } from '../db/index.js';
import { startOrderBook, type OrderBookRuntime } from '../dex/index.js';
import { createLogger } from '../log/index.js';
import { startProgress } from '../log/index.js';
import { createMetrics, type NodeMetrics } from '../metrics/index.js';
import { createPool } from '../pool/index.js';
import { createSequencer } from '../sequencer/index.js';
import { followerFactory, FollowError, probeLeader, registerFollowMetrics } from '../follow/index.js';
import type { Sequencer } from '../sequencer/index.js';
import { CHAIN_SNAPSHOT_CODE } from './chain-snapshots.js';
import { NodeChannels } from './channels.js';
import { databaseError, faceError, orderBookError, StartupError } from './errors.js';
import { defaultFaces } from './faces.js';
import type { FaceSpec, NodeContext, NodeHandle, PreparedFace, RunningFace, StartNodeOptions } from './interface.js';

export type { FaceSpec, NodeContext, NodeHandle, PreparedFace, RunningFace, StartNodeOptions } from './interface.js';
export { defaultFaces, grpcFace, restFace } from './faces.js';
export { StartupError } from './errors.js';

/** A full node's refusal (bad leader, refused snapshot) is a start-up error the user acts on; others pass. */
function startupErrorOf(err: unknown): unknown {
  return err instanceof FollowError ? new StartupError(err.message, { cause: err }) : err;
}

export async function startNode(config: NodeConfig, options: StartNodeOptions = {}): Promise<NodeHandle> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const faces: RunningFace[] = [];
  let db: Database | undefined;
  let pool: Piscina | undefined;
  let sequencer: Sequencer | undefined;
  let chain: ChainRuntime | undefined;
  let book: OrderBookRuntime | undefined;
  let metrics: NodeMetrics | undefined;
  let reportFailure: (err: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => (reportFailure = resolve));
  const specs = options.faces ?? defaultFaces();
  // Faces that can begin now (gateway processes boot while the database opens and the state is restored).
  const prepared = new Map<FaceSpec, PreparedFace>();
  for (const spec of specs) if (spec.prepare) prepared.set(spec, spec.prepare(config, logger));

  const closeAll = async (): Promise<void> => {
    for (const face of faces) face.stopAccepting();
    if (sequencer) {
      await sequencer.stop().catch((err: unknown) => logger.error({ err }, 'sequencer stop failed'));
    }
    for (const face of [...faces].reverse()) {
      await face.close().catch((err: unknown) => logger.error({ err, face: face.name }, 'face close failed'));
    }
    await book?.close().catch((err: unknown) => logger.error({ err }, 'order book close failed'));
    await chain?.close().catch((err: unknown) => logger.error({ err }, 'chain close failed'));
    metrics?.close();
    await pool?.destroy().catch((err: unknown) => logger.error({ err }, 'pool close failed'));
    if (db && db.status !== 'closed') await db.close().catch((err: unknown) => logger.error({ err }, 'database close failed'));
  };

  /** Run one start-up step, logging progress if it lasts more than a second. */
  const step = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    const progress = startProgress({ logger, what });
    try {
      return await run();
    } finally {
      progress.end();
    }
  };

  try {
    const leaders = config.follow !== undefined ? followLeaders(config.follow) : undefined;
    const leader = leaders?.[0];
    if (leader !== undefined) {
      // Before anything is written: a leader that does not answer, or is no svc node, stops us here.
      await step(`reaching the leader at ${leader}`, () => probeLeader(leader)).catch((err: unknown) => Promise.reject(startupErrorOf(err)));
    }
    const opened = await step('opening the database', () => openDatabase(config.dbPath).catch((err: unknown) => Promise.reject(databaseError(config.dbPath, err))));
    db = opened;
    const nodePool = createPool(options.poolThreads ? { threads: options.poolThreads } : {});
    pool = nodePool;
    const create =
      options.createSequencer ??
      (leaders !== undefined ? followerFactory({ leaders, fromSnapshot: config.followFrom === 'snapshot' ? CHAIN_SNAPSHOT_CODE : undefined, logger, onFatal: (err) => reportFailure(err) }) : createSequencer);
    const created = await create({
      db: opened,
      pool,
      retainTicks: config.retainTicks,
      retainBytes: config.retainBytes,
      vdfIterations: config.vdfIterations,
      idleTickMs: config.idleTickMs,
      queueCapacity: config.queueCapacity,
      onError: (err) => logger.error({ err }, 'sequencer error'),
    });
    sequencer = created;
    await step(leader !== undefined ? `checking the leader at ${leader} and resuming from the stored ticks` : 'resuming the chain (stored ticks, write-ahead log)', () => created.start()).catch((err: unknown) => Promise.reject(startupErrorOf(err)));
    // The order book runtime, fed from the stored ticks after the chain's latest snapshot; the chain is one consumer of its records.
    // The live channels store their owner log in the chain's per-tick write (a part of the chain).
    const channels = new NodeChannels(opened);
    const openedChain = await step('opening the chain', () =>
      openChainRuntime({ db: opened, blockMs: config.blockMs, snapshotTxs: config.snapshotTxs, snapshotTicks: config.snapshotTicks, logger, parts: [channels] }),
    ).catch((err: unknown) => Promise.reject(orderBookError(err)));
    chain = openedChain;
    const openedBook = await step('starting the order book', () =>
      startOrderBook({ sequencer: created, pool: nodePool, dbPath: config.dbPath, signatureThreads: config.dexSignatureThreads, logger, ...openedChain.book }),
    ).catch((err: unknown) => Promise.reject(orderBookError(err)));
    book = openedBook;
    await step('writing the chain records of the replayed ticks', () => openedChain.ready()).catch((err: unknown) => Promise.reject(orderBookError(err)));
    const running = faces;
    metrics = createMetrics({
      sequencer,
      streamClients: () => running.reduce((n, f) => n + (f.streamClients?.() ?? 0), 0),
    });
    if (leader !== undefined) registerFollowMetrics(metrics.registry, () => created.status().follow);
    const ctx: NodeContext = { config, logger, db: opened, pool, sequencer, book: openedBook, chain: openedChain, channels, metrics, fail: (err) => reportFailure(err) };
    for (const spec of specs) {
      const configured = config[`${spec.name}Addr` as keyof NodeConfig];
      const address = typeof configured === 'object' ? formatHostPort(configured) : '(no address)';
      const early = prepared.get(spec);
      prepared.delete(spec);
      const start = early ? () => early.start(ctx) : () => spec.start(ctx);
      faces.push(await step(`starting the ${spec.name} face`, start).catch((err: unknown) => Promise.reject(faceError(spec.name, address, err))));
    }
    for (const face of faces) {
      print(`listening ${face.name} ${face.address}`);
      logger.info({ face: face.name, address: face.address }, 'listening');
    }
  } catch (err) {
    logger.error({ err }, 'node failed to start');
    for (const early of prepared.values()) await early.abort().catch((e: unknown) => logger.error({ err: e }, 'face abort failed'));
    await closeAll();
    throw err;
  }

  const addresses = Object.fromEntries(faces.map((f) => [f.name, f.address]));
  logger.info({ dbPath: config.dbPath, addresses, retainTicks: config.retainTicks, vdfIterations: config.vdfIterations }, 'node started');
  let closing: Promise<void> | undefined;
  const started = sequencer;
  return {
    addresses,
    sequencer: started,
    failed,
    close() {
      closing ??= (async () => {
        logger.info('shutting down');
        await closeAll();
        logger.info('stopped');
      })();
      return closing;
    },
  };
}
