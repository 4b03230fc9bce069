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
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { openChainRuntime, type ChainRuntime } from '../chain/index.js';
import { followLeaders } from '../config/index.js';
import { formatHostPort, readerPace } from '../wire/index.js';
import type { NodeConfig } from '../config/index.js';
import { openDatabase, type Database } from '../db/index.js';
import { startOrderBook, type OrderBookRuntime } from '../dex/index.js';
import { createLogger, startProgress, type Logger } from '../log/index.js';
import { createMetrics, type NodeMetrics } from '../metrics/index.js';
import { createPool, workerFile } from '../pool/index.js';
import { createSequencer } from '../sequencer/index.js';
import { followerFactory, FollowError, probeLeader, registerFollowMetrics } from '../follow/index.js';
import type { Sequencer } from '../sequencer/index.js';
import { CHAIN_SNAPSHOT_CODE } from './chain-snapshots.js';
import { NodeChannels } from './channels.js';
import { databaseError, faceError, orderBookError, StartupError } from './errors.js';
import { defaultFaces } from './faces.js';
import { hostSequencer, type LinkSeed } from './sequencer-link.js';
import type { FaceSpec, NodeContext, NodeHandle, PreparedFace, RunningFace, StartNodeOptions } from './interface.js';

/** A full node's refusal (bad leader, refused snapshot) is a start-up error the user acts on; others pass. */
function startupErrorOf(err: unknown): unknown {
  return err instanceof FollowError ? new StartupError(err.message, { cause: err }) : err;
}

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
 * The node's state, in order: the database and pool, the sequencer (or a full node's
 * follower) resumed from the stored ticks, the chain opened from its latest snapshot, and
 * the order book runtime that feeds it (the chain is one consumer of its records; the live
 * channels store their owner log in the chain's per-tick write). Each part is recorded in
 * `parts` as soon as it is open, so a failure later closes what was opened.
 */
async function openState(
  config: NodeConfig,
  options: StartNodeOptions,
  parts: Parts,
  step: Step,
  logger: Logger,
  reportFailure: (err: Error) => void,
): Promise<Omit<NodeContext, 'metrics'>> {
  const { db, pool, sequencer } = await openOrdering(config, options, parts, step, logger, reportFailure, false);
  return openAfterOrdering(config, parts, step, logger, reportFailure, db, pool, sequencer);
}

/** The database, the pool and the sequencer (or a full node's follower), resumed from the stored ticks. */
export async function openOrdering(
  config: NodeConfig,
  options: StartNodeOptions,
  parts: Parts,
  step: Step,
  logger: Logger,
  reportFailure: (err: Error) => void,
  shared: boolean,
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
    openDatabase(config.dbPath, { shared }).catch((err: unknown) => Promise.reject(databaseError(config.dbPath, err))),
  );
  parts.db = db;
  const pool = createPool(options.poolThreads ? { threads: options.poolThreads } : {});
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
    retainTicks: config.retainTicks,
    retainBytes: config.retainBytes,
    vdfIterations: config.vdfIterations,
    idleTickMs: config.idleTickMs,
    queueCapacity: config.queueCapacity,
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

/** The chain opened from its latest snapshot and the order book runtime that feeds it, over `sequencer`. */
export async function openAfterOrdering(
  config: NodeConfig,
  parts: Parts,
  step: Step,
  logger: Logger,
  reportFailure: (err: Error) => void,
  db: Database,
  pool: Piscina,
  sequencer: Sequencer,
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

export async function startNode(config: NodeConfig, options: StartNodeOptions = {}): Promise<NodeHandle> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (config.nodeThread && !options.faces && !options.createSequencer && config.follow === undefined)
    return startThreaded(config, options, logger, print);
  const parts: Parts = { faces: [] };
  let reportFailure: (err: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => (reportFailure = resolve));
  const specs = options.faces ?? defaultFaces();
  // What stream readers get together while ordering has work (docs/api.md "Stream backpressure policy").
  readerPace.configure({ minBytesPerS: config.readerFloor });
  // Faces that can begin now (gateway processes boot while the database opens and the state is restored).
  const prepared = new Map<FaceSpec, PreparedFace>();
  for (const spec of specs) if (spec.prepare) prepared.set(spec, spec.prepare(config, logger));

  const step = makeStep(logger);

  let sequencer: Sequencer;
  try {
    const state = await openState(config, options, parts, step, logger, (err) => reportFailure(err));
    sequencer = state.sequencer;
    const faces = parts.faces;
    const metrics = createMetrics({
      sequencer,
      streamClients: () => faces.reduce((n, f) => n + (f.streamClients?.() ?? 0), 0),
    });
    parts.metrics = metrics;
    if (config.follow !== undefined) registerFollowMetrics(metrics.registry, () => state.sequencer.status().follow);
    await startFaces(specs, prepared, { ...state, metrics }, parts, step);
    for (const { name, address } of faces.flatMap(listening)) {
      print(`listening ${name} ${address}`);
      logger.info({ face: name, address }, 'listening');
    }
  } catch (err) {
    logger.error({ err }, 'node failed to start');
    for (const early of prepared.values())
      await early.abort().catch((e: unknown) => logger.error({ err: e }, 'face abort failed'));
    await closeParts(parts, logger);
    throw err;
  }

  const addresses = Object.fromEntries(parts.faces.flatMap(listening).map((f) => [f.name, f.address]));
  logger.info(
    { dbPath: config.dbPath, addresses, retainTicks: config.retainTicks, vdfIterations: config.vdfIterations },
    'node started',
  );
  let closing: Promise<void> | undefined;
  return {
    addresses,
    sequencer,
    failed,
    close() {
      closing ??= (async () => {
        logger.info('shutting down');
        await closeParts(parts, logger);
        logger.info('stopped');
      })();
      return closing;
    },
  };
}

/** A face's ports: its own, then any more it listens on. */
export function listening(f: RunningFace): Array<{ name: string; address: string }> {
  return [
    { name: f.name, address: f.address },
    ...Object.entries(f.more ?? {}).map(([name, address]) => ({ name, address })),
  ];
}

/**
 * The node on two threads: this (the process's main) thread opens the database, the pool and
 * the sequencer and does nothing else; a node thread (workers/node.worker.ts) runs the order
 * book, the chain, the channels and every face over a SequencerProxy (sequencer-link.ts).
 */
async function startThreaded(
  config: NodeConfig,
  options: StartNodeOptions,
  logger: Logger,
  print: (line: string) => void,
): Promise<NodeHandle> {
  const parts: Parts = { faces: [] };
  let reportFailure: (err: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => (reportFailure = resolve));
  readerPace.configure({ minBytesPerS: config.readerFloor });
  const step = makeStep(logger);
  const { sequencer } = await openOrdering(config, options, parts, step, logger, (e) => reportFailure(e), true).catch(
    async (err: unknown) => {
      logger.error({ err }, 'node failed to start');
      await closeParts(parts, logger);
      throw err;
    },
  );
  const link = new MessageChannel();
  const host = await hostSequencer(sequencer, link.port1);
  const worker = new Worker(workerFile('node'), {
    workerData: { config, seed: host.seed, port: link.port2 } satisfies NodeWorkerData,
    transferList: [link.port2],
  });
  const control = new NodeThreadControl(worker, (err) => reportFailure(err));
  let up: NodeThreadUp;
  try {
    up = (await control.next('up')) as NodeThreadUp;
  } catch (err) {
    host.stop();
    await worker.terminate();
    await closeParts(parts, logger);
    throw err;
  }
  for (const line of up.lines) print(line);
  let closing: Promise<void> | undefined;
  return {
    addresses: up.addresses,
    sequencer,
    failed,
    close() {
      closing ??= (async () => {
        logger.info('shutting down');
        await control.request('stop-accepting').catch(() => undefined);
        await sequencer.stop().catch((err: unknown) => logger.error({ err }, 'sequencer stop failed'));
        parts.sequencer = undefined;
        await control.request('close').catch(() => undefined);
        host.stop();
        link.port1.close();
        await worker.terminate();
        await closeParts(parts, logger);
        logger.info('stopped');
      })();
      return closing;
    },
  };
}

/** What the node thread is started with (workers/node.worker.ts). */
export interface NodeWorkerData {
  config: NodeConfig;
  seed: LinkSeed;
  port: MessagePort;
}

/** The node thread's first answer. */
export interface NodeThreadUp {
  t: 'up';
  addresses: Record<string, string>;
  lines: string[];
}

/** Control messages with the node thread: 'up' or 'error' once, then acks of requests; 'fail' any time. */
class NodeThreadControl {
  private waiters: Array<{ t: string; resolve: (m: unknown) => void; reject: (e: Error) => void }> = [];

  constructor(
    private readonly worker: Worker,
    onFail: (err: Error) => void,
  ) {
    worker.on('message', (m: { t: string; message?: string; name?: string }) => {
      if (m.t === 'fail') return onFail(new Error(m.message));
      const w = this.waiters.shift();
      if (!w) return;
      if (m.t === 'error')
        w.reject(m.name === 'StartupError' ? new StartupError(m.message ?? '') : new Error(m.message));
      else w.resolve(m);
    });
    worker.on('error', (err) => {
      for (const w of this.waiters.splice(0)) w.reject(err);
      onFail(err);
    });
  }

  next(t: string): Promise<unknown> {
    return new Promise((resolve, reject) => this.waiters.push({ t, resolve, reject }));
  }

  request(t: string): Promise<unknown> {
    const answer = this.next(t);
    this.worker.postMessage({ t });
    return answer;
  }
}
