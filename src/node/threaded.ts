/**
 * The node on two threads: this (the process's main) thread opens the database, the pool and
 * the sequencer and does nothing else; the node thread (workers/node.worker.ts, `svc-node`)
 * runs the order book, the chain, the channels and every face over a SequencerProxy
 * (sequencer-link.ts). Both open the one LevelDB (shared). close(): the faces stop accepting,
 * the sequencer ticks out what is in flight and stops, the node thread closes its parts,
 * then the pool and the database close here.
 *
 * The node thread is started first: it loads its modules and prepares the faces that can
 * begin early (the gateway processes boot) while this thread opens the ordering part, and it
 * opens nothing until it is handed the sequencer's link ('start'); if ordering cannot open,
 * it is told to give up ('abort') and drops what it prepared.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { NodeConfig } from '../config/index.js';
import type { Logger, LogLevel } from '../log/index.js';
import { workerFile } from '../pool/index.js';
import type { Sequencer } from '../sequencer/index.js';
import { StartupError } from './errors.js';
import type { NodeHandle, StartNodeOptions } from './interface.js';
import { openOrdering } from './ordering.js';
import { closeParts, failureSignal, makeStep, type Parts } from './parts.js';
import { hostSequencer } from './sequencer-host.js';
import type { LinkSeed } from './sequencer-link.js';

export async function startThreaded(
  config: NodeConfig,
  options: StartNodeOptions,
  logger: Logger,
  print: (line: string) => void,
): Promise<NodeHandle> {
  const parts: Parts = { faces: [] };
  // The readers' pace is the node thread's (workers/node.worker.ts): no reader runs here.
  const { failed, report: reportFailure } = failureSignal();
  const step = makeStep(logger);
  const worker = new Worker(workerFile('node'), {
    workerData: {
      config,
      // A logger cannot cross threads: the node thread logs to stderr at the caller's level.
      logLevel: (options.logger?.level as LogLevel | undefined) ?? config.logLevel,
      ...(options.poolThreads ? { poolThreads: options.poolThreads } : {}),
    } satisfies NodeWorkerData,
  });
  const control = new NodeThreadControl(worker, (err) => reportFailure(err));
  // Ticks the node thread has not applied count toward --queue-capacity (set once the link is up).
  let backlog = () => 0;
  let sequencer: Sequencer;
  try {
    ({ sequencer } = await openOrdering(
      config,
      options,
      parts,
      step,
      logger,
      (e) => reportFailure(e),
      true,
      () => backlog(),
    ));
  } catch (err) {
    logger.error({ err }, 'node failed to start');
    await control.request({ t: 'abort' }).catch(() => undefined);
    await worker.terminate();
    await closeParts(parts, logger);
    throw err;
  }
  const link = new MessageChannel();
  const host = hostSequencer(sequencer, link.port1);
  backlog = host.backlog;
  let up: NodeThreadUp;
  try {
    up = (await control.request({ t: 'start', seed: host.seed, port: link.port2 }, [link.port2])) as NodeThreadUp;
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
        await control.request({ t: 'stop-accepting' }).catch(() => undefined);
        await sequencer.stop().catch((err: unknown) => logger.error({ err }, 'sequencer stop failed'));
        parts.sequencer = undefined;
        await control.request({ t: 'close' }).catch(() => undefined);
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
  logLevel: LogLevel;
  poolThreads?: number;
}

/** The go-ahead, once ordering is open: the sequencer's state and the link's port (transferred). */
export interface NodeThreadStart {
  t: 'start';
  seed: LinkSeed;
  port: MessagePort;
}

/**
 * What this thread asks of the node thread: 'start' (answered 'up' or 'error'), 'abort'
 * (ordering could not open: drop what was prepared), 'stop-accepting' and 'close' (each
 * answered 'ok').
 */
export type NodeThreadRequest = NodeThreadStart | { t: 'abort' | 'stop-accepting' | 'close' };

/** The node thread's answer to 'start'. */
export interface NodeThreadUp {
  t: 'up';
  addresses: Record<string, string>;
  lines: string[];
}

/**
 * Requests to the node thread, each answered in turn ('error' rejects); 'fail' any time. A
 * node thread that failed or exited rejects what waits and every later request.
 */
class NodeThreadControl {
  private waiters: Array<{ resolve: (m: unknown) => void; reject: (e: Error) => void }> = [];
  private gone: Error | undefined;

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
      this.end(err);
      onFail(err);
    });
    worker.on('exit', (code) => this.end(new Error(`the node thread exited (code ${code})`)));
  }

  request(m: NodeThreadRequest, transfer: MessagePort[] = []): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    const answer = new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.worker.postMessage(m, transfer);
    return answer;
  }

  private end(err: Error): void {
    this.gone ??= err;
    for (const w of this.waiters.splice(0)) w.reject(err);
  }
}
