/**
 * startNode(config): opens the database and the worker pool, starts the sequencer, then
 * the order book runtime and the chain it feeds (restored from the chain's latest
 * snapshot, then the stored ticks after it), then each face in order; once every face is
 * up it prints `listening <face> <host:port>` for each (so a face that cannot start is
 * reported before any `listening` line). A step that takes more than a second logs that it
 * is still running. close() shuts down gracefully: every face stops accepting, the
 * sequencer ticks out what is in flight and stops, then faces, the order book and the
 * chain, metrics, pool and database close, in reverse order of opening.
 *
 * With --node-thread on (the default for a leader started from the config alone), all but
 * the sequencer runs on the node thread (threaded.ts), and this thread loads only the
 * ordering part; otherwise everything runs here (single-thread.ts, loaded only then).
 */
import type { NodeConfig } from '../config/index.js';
import { createLogger } from '../log/index.js';
import type { NodeHandle, StartNodeOptions } from './interface.js';
import { startThreaded } from './threaded.js';

export async function startNode(config: NodeConfig, options: StartNodeOptions = {}): Promise<NodeHandle> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (config.nodeThread && !options.faces && !options.createSequencer && config.follow === undefined)
    return startThreaded(config, options, logger, print);
  const { startSingleThread } = await import('./single-thread.js');
  return startSingleThread(config, options, logger, print);
}
