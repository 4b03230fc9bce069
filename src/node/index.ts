/**
 * startNode(config): opens the database and the worker pool, starts the sequencer, then
 * each face in order, printing `listening <face> <host:port>` for each. close() shuts
 * down gracefully: every face stops accepting, the sequencer ticks out what is in flight
 * and stops, then faces, metrics, pool and database close, in reverse order of opening.
 */
import type { Piscina } from 'piscina';
import { formatAddress } from '../config/flags.js';
import type { NodeConfig } from '../config/interface.js';
import { openDatabase, type Database } from '../db/index.js';
import { createLogger } from '../log/index.js';
import { createMetrics, type NodeMetrics } from '../metrics/index.js';
import { createPool } from '../pool/index.js';
import { createSequencer } from '../sequencer/index.js';
import type { Sequencer } from '../sequencer/interface.js';
import { defaultFaces } from './faces.js';
import type { NodeContext, NodeHandle, RunningFace, StartNodeOptions } from './interface.js';

export type { FaceSpec, NodeContext, NodeHandle, RunningFace, StartNodeOptions } from './interface.js';
export { defaultFaces, grpcFace, restFace } from './faces.js';

export async function startNode(config: NodeConfig, options: StartNodeOptions = {}): Promise<NodeHandle> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const faces: RunningFace[] = [];
  let db: Database | undefined;
  let pool: Piscina | undefined;
  let sequencer: Sequencer | undefined;
  let metrics: NodeMetrics | undefined;

  const closeAll = async (): Promise<void> => {
    for (const face of faces) face.stopAccepting();
    if (sequencer) {
      await sequencer.stop().catch((err: unknown) => logger.error({ err }, 'sequencer stop failed'));
    }
    for (const face of [...faces].reverse()) {
      await face.close().catch((err: unknown) => logger.error({ err, face: face.name }, 'face close failed'));
    }
    metrics?.close();
    await pool?.destroy().catch((err: unknown) => logger.error({ err }, 'pool close failed'));
    if (db && db.status !== 'closed') await db.close().catch((err: unknown) => logger.error({ err }, 'database close failed'));
  };

  try {
    db = await openDatabase(config.dbPath);
    pool = createPool(options.poolThreads ? { threads: options.poolThreads } : {});
    const create = options.createSequencer ?? createSequencer;
    sequencer = await create({
      db,
      pool,
      retainTicks: config.retainTicks,
      retainBytes: config.retainBytes,
      vdfIterations: config.vdfIterations,
      idleTickMs: config.idleTickMs,
      queueCapacity: config.queueCapacity,
      onError: (err) => logger.error({ err }, 'sequencer error'),
    });
    await sequencer.start();
    const running = faces;
    metrics = createMetrics({
      sequencer,
      streamClients: () => running.reduce((n, f) => n + (f.streamClients?.() ?? 0), 0),
    });
    const ctx: NodeContext = { config, logger, db, pool, sequencer, metrics };
    for (const spec of options.faces ?? defaultFaces()) {
      const face = await spec.start(ctx);
      faces.push(face);
      print(`listening ${face.name} ${face.address}`);
      logger.info({ face: face.name, address: face.address }, 'listening');
    }
  } catch (err) {
    logger.error({ err }, 'node failed to start');
    await closeAll();
    throw err;
  }

  logger.info(
    { dbPath: config.dbPath, grpc: formatAddress(config.grpcAddr), retainTicks: config.retainTicks, vdfIterations: config.vdfIterations },
    'node started',
  );
  let closing: Promise<void> | undefined;
  const started = sequencer;
  return {
    addresses: Object.fromEntries(faces.map((f) => [f.name, f.address])),
    sequencer: started,
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
