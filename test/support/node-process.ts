/**
 * Runs the real `node bin/svc.js node` as a child process on 127.0.0.1 port 0 flags in a
 * given database directory, and reads the `listening <face> <addr>` lines it prints.
 * Used by the end-to-end tests (kill -9, SIGTERM) and the benchmarks. The order book runs
 * behind one gateway process unless `--gateways` is given. `SVC_NODE_FLAGS` (space
 * separated) are Node's own flags for the node process, e.g. `--cpu-prof` for a profile
 * of its main thread (Node refuses that one in NODE_OPTIONS).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SVC_BIN = fileURLToPath(new URL('../../../bin/svc.js', import.meta.url));

export interface NodeProcess {
  child: ChildProcess;
  addresses: Record<string, string>;
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  exited: Promise<number | string>;
}

/**
 * `options.timeoutMs` (default 60 s): how long to wait for the `listening` lines (a node
 * starts in 1-3 s on a quiet 2-core machine and took over 20 s on one at load 20); a restart
 * that replays a long chain (bench/follow.bench.ts, no snapshot at 10^6 ticks) needs more.
 */
export async function spawnNode(
  dbPath: string,
  extraArgs: string[] = [],
  waitFor = ['grpc', 'rest'],
  options: { timeoutMs?: number } = {},
): Promise<NodeProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const nodeFlags = (process.env.SVC_NODE_FLAGS ?? '').split(/\s+/).filter((f) => f !== '');
  const args = [
    ...nodeFlags,
    SVC_BIN,
    'node',
    '--grpc-addr',
    '127.0.0.1:0',
    '--rest-addr',
    '127.0.0.1:0',
    '--dex-addr',
    '127.0.0.1:0',
    '--rpc-addr',
    '127.0.0.1:0',
    '--db-path',
    dbPath,
    '--log-level',
    'warn',
    // One order book gateway process unless the test asks for more (or 0): the order book
    // is served the default way, gateway in front, at the lowest start-up cost.
    ...(extraArgs.includes('--gateways') ? [] : ['--gateways', '1']),
    ...extraArgs,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    if (err.length > 200_000) err = err.slice(-100_000);
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const addresses: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => {
      // A node that never said it listens is killed, not left behind: an orphan's clock
      // thread would take a core from every test after it.
      child.kill('SIGKILL');
      reject(new Error(`node did not print its addresses in ${timeoutMs / 1000} s; stderr:\n${err}`));
    }, timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const m = /^listening (\S+) (\S+)$/.exec(line);
        if (m) addresses[m[1]!] = m[2]!;
      }
      if (waitFor.every((f) => addresses[f])) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`node exited (${code}) before listening; stderr:\n${err}`));
    });
  });
  return { child, addresses, stderr: () => err, exited };
}
