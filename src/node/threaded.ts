/**
 * The node on two threads: this (the process's main) thread opens the database, the pool and
 * the sequencer and does nothing else; the node thread (workers/node.worker.ts, `svc-node`)
 * runs the order book, the chain, the channels and every face over a SequencerProxy
 * (sequencer-link.ts). Both open the one LevelDB (shared). close(): the faces stop accepting,
 * the sequencer ticks out what is in flight and stops, the node thread closes its parts,
 * then the pool and the database close here.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { NodeConfig } from '../config/index.js';
import type { Logger, LogLevel } from '../log/index.js';
import { workerFile } from '../pool/index.js';
import { readerPace } from '../wire/index.js';
import { StartupError } from './errors.js';
import type { NodeHandle, StartNodeOptions } from './interface.js';
import { closeParts, makeStep, openOrdering, type Parts } from './parts.js';
import { hostSequencer } from './sequencer-host.js';
import type { LinkSeed } from './sequencer-link.js';

export async function startThreaded(
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
  // Ticks the node thread has not applied count toward --queue-capacity (set once the link is up).
  let backlog = () => 0;
  const { sequencer } = await openOrdering(
    config,
    options,
    parts,
    step,
    logger,
    (e) => reportFailure(e),
    true,
    () => backlog(),
  ).catch(async (err: unknown) => {
    logger.error({ err }, 'node failed to start');
    await closeParts(parts, logger);
    throw err;
  });
  const link = new MessageChannel();
  const host = hostSequencer(sequencer, link.port1);
  backlog = host.backlog;
  const worker = new Worker(workerFile('node'), {
    workerData: {
      config,
      seed: host.seed,
      port: link.port2,
      // A logger cannot cross threads: the node thread logs to stderr at the caller's level.
      logLevel: (options.logger?.level as LogLevel | undefined) ?? config.logLevel,
      ...(options.poolThreads ? { poolThreads: options.poolThreads } : {}),
    } satisfies NodeWorkerData,
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
  logLevel: LogLevel;
  poolThreads?: number;
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
