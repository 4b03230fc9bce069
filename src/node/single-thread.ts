/**
 * The node on one thread (--node-thread off, a full node, or a node given its own faces or
 * sequencer): opens the ordering part (ordering.ts), then the chain and the order book runtime
 * that feeds it (after-ordering.ts), then each face in order; once every face is up it prints
 * `listening <face> <host:port>` for each (so a face that cannot start is reported before any
 * `listening` line). Faces that can begin early (the gateway processes) are prepared first,
 * so they boot while the database opens and the state is restored. close() shuts down
 * gracefully, in reverse order of opening (parts.ts).
 */
import type { NodeConfig } from '../config/index.js';
import { registerFollowMetrics } from '../follow/index.js';
import type { Logger } from '../log/index.js';
import { createMetrics } from '../metrics/index.js';
import type { Sequencer } from '../sequencer/index.js';
import { readerPace } from '../wire/index.js';
import { openAfterOrdering, startFaces } from './after-ordering.js';
import { defaultFaces } from './faces.js';
import type { FaceSpec, NodeHandle, PreparedFace, StartNodeOptions } from './interface.js';
import { openOrdering } from './ordering.js';
import { closeParts, failureSignal, listening, makeStep, type Parts } from './parts.js';

export async function startSingleThread(
  config: NodeConfig,
  options: StartNodeOptions,
  logger: Logger,
  print: (line: string) => void,
): Promise<NodeHandle> {
  const parts: Parts = { faces: [] };
  const { failed, report: reportFailure } = failureSignal();
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
