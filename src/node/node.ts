/**
 * startNode(config): opens the database and the worker pool, starts the sequencer, then
 * the order book runtime and the chain it feeds (restored from the chain's latest
 * snapshot, then the stored ticks after it), then each face in order; once every face is
 * up it prints `listening <face> <host:port>` for each (so a face that cannot start is reported before any `listening` line). A step that
 * takes more than a second logs that it is still running. close() shuts
 * down gracefully: every face stops accepting, the sequencer ticks out what is in flight
 * and stops, then faces, the order book and the chain, metrics, pool and database close,
 * in reverse order of opening.
 *
 * With --node-thread on (the default for a leader started from the config alone), all but
 * the sequencer runs on the node thread (threaded.ts); otherwise everything runs here.
 */
import { readerPace } from '../wire/index.js';
import type { NodeConfig } from '../config/index.js';
import { createLogger } from '../log/index.js';
import { createMetrics } from '../metrics/index.js';
import { registerFollowMetrics } from '../follow/index.js';
import type { Sequencer } from '../sequencer/index.js';
import { defaultFaces } from './faces.js';
import { closeParts, listening, makeStep, openAfterOrdering, openOrdering, startFaces, type Parts } from './parts.js';
import { startThreaded } from './threaded.js';
import type { FaceSpec, NodeHandle, PreparedFace, StartNodeOptions } from './interface.js';

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
    // The node's state, in order (parts.ts); each part is recorded in `parts` as soon as it is
    // open, so a failure later closes what was opened.
    const fail = (err: Error) => reportFailure(err);
    const { db, pool, sequencer: seq } = await openOrdering(config, options, parts, step, logger, fail, false);
    const state = await openAfterOrdering(config, parts, step, logger, fail, db, pool, seq, false);
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
