/**
 * The ordering part of a node, opened first: the database, the pool and the sequencer (or a
 * full node's follower), resumed from the stored ticks. It runs on the process's main thread;
 * a full node's follower (src/follow) is loaded only for --follow, so a leader's ordering
 * thread loads the sequencer and no more.
 */
import type { Piscina } from 'piscina';
import { followLeaders } from '../config/index.js';
import type { ChainSnapshotCode } from '../follow/index.js';
import type { NodeConfig } from '../config/index.js';
import { openDatabase, type Database } from '../db/index.js';
import type { Logger } from '../log/index.js';
import { createPool, workerFile } from '../pool/index.js';
import { createSequencer } from '../sequencer/index.js';
import type { Sequencer, SequencerOptions } from '../sequencer/index.js';
import { databaseError, StartupError } from './errors.js';
import type { StartNodeOptions } from './interface.js';
import type { Parts, Step } from './parts.js';

/**
 * The ordering thread's own tick window when the node thread runs beside it: the node thread
 * holds the --retain-ticks / --retain-bytes window and serves every read, so the ordering
 * thread keeps only the newest few (its reads are the order book's start-up replay).
 */
const ORDERING_THREAD_WINDOW = { retainTicks: 256, retainBytes: 4 * 1024 * 1024 };

type CreateSequencer = (options: SequencerOptions) => Sequencer | Promise<Sequencer>;

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
  // A full node's follower, loaded only when there is a leader to follow.
  const follow = leaders !== undefined ? await import('../follow/index.js') : undefined;
  // A full node's refusal (bad leader, refused snapshot) is a start-up error the user acts on; others pass.
  const startupErrorOf = (err: unknown): unknown =>
    follow && err instanceof follow.FollowError ? new StartupError(err.message, { cause: err }) : err;
  if (follow && leader !== undefined) {
    // Before anything is written: a leader that does not answer, or is no svc node, stops us here.
    await step(`reaching the leader at ${leader}`, () => follow.probeLeader(leader)).catch((err: unknown) =>
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
  const create: CreateSequencer =
    options.createSequencer ??
    (follow && leaders !== undefined
      ? follow.followerFactory({
          leaders,
          fromSnapshot: config.followFrom === 'snapshot' ? await chainSnapshotCode() : undefined,
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

/** The chain's snapshot code a full node bootstraps with (--follow-from snapshot); it loads the chain's core. */
async function chainSnapshotCode(): Promise<ChainSnapshotCode> {
  return (await import('./chain-snapshots.js')).CHAIN_SNAPSHOT_CODE;
}
