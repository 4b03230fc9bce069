/**
 * Process plumbing for benchmarks: fork the load generator with a job and await its
 * result; spawn the no-op server; spawn the real node (test/support/node-process.ts).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export { spawnNode, type NodeProcess } from '../../test/support/node-process.js';

const here = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** Fork a bench/support child module, send it one job, resolve with its `result`. */
export function runChild<J, R>(module: string, job: J): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const child = fork(here(module), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (msg: { result?: R; error?: string }) => (msg.error ? reject(new Error(msg.error)) : resolve(msg.result!)));
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${module} exited with ${code}`));
    });
    child.send(job as object);
  });
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
