/**
 * The real `svc indexer` binary as a child process (for kill -9 tests and benchmarks):
 * started with the given flags on 127.0.0.1 port 0, resolved once it prints
 * `listening indexer HOST:PORT`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { SVC_BIN } from '../../support/node-process.js';

export interface IndexerProcess {
  child: ChildProcess;
  url: string;
  stderr(): string;
  exited: Promise<number | string>;
}

export async function spawnIndexer(args: string[]): Promise<IndexerProcess> {
  const child = spawn(
    process.execPath,
    [SVC_BIN, 'indexer', '--indexer-addr', '127.0.0.1:0', '--log-level', 'warn', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    if (err.length > 100_000) err = err.slice(-50_000);
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`svc indexer did not listen in 20 s; stderr:\n${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /^listening indexer (\S+)$/m.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`svc indexer exited (${code}) before listening; stderr:\n${err}`));
    });
  });
  return { child, url, stderr: () => err, exited };
}
