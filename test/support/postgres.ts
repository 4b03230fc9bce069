/**
 * A real throwaway PostgreSQL server for tests and benchmarks: initdb in a temp directory
 * and `postgres` on 127.0.0.1, a free port, its Unix socket in that directory. Found like
 * the other tools (scripts/test-tools.mjs: POSTGRES_PATH or Debian's
 * /usr/lib/postgresql/<version>/bin). initdb and postgres refuse to run as root, so as
 * root (CI, these machines) both run as the `postgres` user, owner of the directory.
 *
 * kill() is a real kill -9 of the server: SIGKILL to its whole process group (the
 * postmaster and every backend), as a crash would; start() brings it back on the same
 * directory and port, where it recovers from its WAL.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { freePort } from './nats-server.js';
import { toolPath } from './tools.js';

export interface PostgresServer {
  port: number;
  /** postgres://svc@127.0.0.1:PORT/<database> */
  url(database?: string): string;
  /** A new empty database on this server; returns its URL. */
  createDatabase(name: string): Promise<string>;
  running(): boolean;
  start(): Promise<void>;
  /** Fast shutdown (SIGINT) and wait. */
  stop(): Promise<void>;
  /** SIGKILL to the server's process group, and wait. */
  kill(): Promise<void>;
  dispose(): Promise<void>;
  log(): string;
}

/** uid and gid of a system user, from /etc/passwd. */
function userIds(name: string): { uid: number; gid: number } | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export async function postgresServer(): Promise<PostgresServer> {
  const bin = dirname(await toolPath('postgres'));
  const root = process.getuid?.() === 0;
  const ids = root ? userIds('postgres') : undefined;
  if (root && !ids)
    throw new Error('running as root: PostgreSQL needs the postgres user (apt-get install postgresql creates it)');
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const data = join(dir, 'data');
  const as = ids ? { uid: ids.uid, gid: ids.gid } : {};
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'svc', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    { ...as, encoding: 'utf8', cwd: dir },
  );
  if (init.status !== 0) throw new Error(`initdb failed (${init.status}): ${init.stderr || init.error?.message}`);
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = '';

  const url = (database = 'postgres') => `postgres://svc@127.0.0.1:${port}/${database}`;
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const handle: PostgresServer = {
    port,
    url,
    running,
    async createDatabase(name) {
      const c = new pg.Client({ connectionString: url() });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE "${name}"`);
      } finally {
        await c.end();
      }
      return url(name);
    },
    async start() {
      if (running()) return;
      const args = [
        '-D',
        data,
        '-p',
        String(port),
        '-h',
        '127.0.0.1',
        '-k',
        dir,
        '-c',
        'max_connections=100',
        '-c',
        'shared_buffers=64MB',
      ];
      const proc = spawn(join(bin, 'postgres'), args, {
        ...as,
        cwd: dir,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      exited = new Promise((resolve) => proc.once('exit', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`postgres did not become ready in 30 s:\n${output}`)), 30_000);
        const onData = (d: Buffer) => {
          output += d.toString();
          if (output.length > 100_000) output = output.slice(-50_000);
          if (output.includes('ready to accept connections')) {
            clearTimeout(timer);
            output = output.replace(/ready to accept connections/g, 'was ready');
            resolve();
          }
        };
        proc.stdout!.on('data', onData);
        proc.stderr!.on('data', onData);
        proc.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`postgres exited (${code ?? signal}) before it was ready:\n${output}`));
        });
      });
    },
    async stop() {
      if (running()) child!.kill('SIGINT');
      await exited;
      child = undefined;
    },
    async kill() {
      const pid = child?.pid;
      if (running()) process.kill(-pid!, 'SIGKILL');
      await exited;
      // The backends of the group die with it; wait until none holds the data directory.
      for (let i = 0; pid !== undefined && i < 100 && spawnSync('pgrep', ['-g', String(pid)]).status === 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      child = undefined;
    },
    async dispose() {
      await handle.kill();
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => output,
  };
  await handle.start();
  return handle;
}
