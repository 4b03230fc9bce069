/**
 * Process plumbing for benchmarks: fork the load generator with a job and await its
 * result (runChild), or start a child that says when it is ready and runs until told to
 * stop (startChild); spawn the no-op server; spawn the real node
 * (test/support/node-process.ts), optionally with `npm start`'s defaults (spawnDefaultNode).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { spawnNode, type NodeProcess } from '../../test/support/node-process.js';

export { spawnNode, type NodeProcess };

/** Extra node flags from BENCH_NODE_ARGS (space separated; empty when unset). */
export function benchNodeArgs(): string[] {
  return (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
}

/**
 * The real node as `npm start` runs it (every default flag), on 127.0.0.1 port 0 and the
 * given --db-path. spawnNode alone pins one gateway process; `npm start` runs one per core
 * (--gateways default), so that default is passed unless `extraArgs` names --gateways.
 */
export function spawnDefaultNode(dbPath: string, extraArgs: string[] = []): Promise<NodeProcess> {
  const gateways = extraArgs.includes('--gateways') ? [] : ['--gateways', String(availableParallelism())];
  const entry = extraArgs.includes('--grpc-entry-addr') ? ['grpc-entry'] : [];
  return spawnNode(dbPath, [...gateways, ...extraArgs], ['grpc', 'rest', 'dex', ...entry]);
}

const here = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** Fork a bench/support child module, send it one job, resolve with its `result`. */
export function runChild<J, R>(module: string, job: J): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const child = fork(here(module), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (msg: { result?: R; error?: string }) =>
      msg.error ? reject(new Error(msg.error)) : resolve(msg.result!),
    );
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${module} exited with ${code}`));
    });
    child.send(job as object);
  });
}

/** A forked child that sends `{ ready: true }` once set up, then `{ result }`; `stop()` sends it `{ stop: true }`. */
export interface StartedChild<R> {
  ready: Promise<void>;
  result: Promise<R>;
  stop(): void;
  /** Send the child another message (e.g. a go signal after `ready`). */
  send(message: object): void;
}

export function startChild<J, R>(module: string, job: J): StartedChild<R> {
  const child = fork(here(module), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let readyResolve!: () => void;
  let readyReject!: (e: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    readyResolve = resolve;
    readyReject = reject;
  });
  const result = new Promise<R>((resolve, reject) => {
    child.on('message', (msg: { ready?: boolean; result?: R; error?: string }) => {
      if (msg.ready) readyResolve();
      else if (msg.error) {
        readyReject(new Error(msg.error));
        reject(new Error(msg.error));
      } else resolve(msg.result!);
    });
    child.once('exit', (code) => {
      if (code !== 0) {
        readyReject(new Error(`${module} exited with ${code}`));
        reject(new Error(`${module} exited with ${code}`));
      }
    });
  });
  child.send(job as object);
  return {
    ready,
    result,
    stop: () => void (child.connected && child.send({ stop: true })),
    send: (m) => void (child.connected && child.send(m)),
  };
}

export interface Spawned {
  child: ChildProcess;
  address: string;
  stop(): Promise<void>;
}

/** `module`: noop-server.js (plain grpc-js) or frontend-server.js (the node's gRPC face over a no-op sequencer). */
export async function spawnNoopServer(module = 'noop-server.js'): Promise<Spawned> {
  const child = spawn(process.execPath, [here(module)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const address = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /listening noop (\S+)/.exec(buf);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`no-op server exited with ${code}`)));
  });
  return {
    child,
    address,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
