/**
 * A real `nats-server -js` (Debian's /usr/sbin/nats-server) for tests and benchmarks: on
 * 127.0.0.1, on a free port, with its JetStream store in a temp directory. stop() and
 * kill() end it (SIGTERM or SIGKILL); start() brings it back on the same port and store,
 * so a test can take NATS away mid-run and return it with the stream it held.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian installs it in /usr/sbin, which a non-root PATH may lack; NATS_SERVER overrides. */
export const NATS_SERVER_BIN =
  process.env.NATS_SERVER ?? (existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server');

/** Credentials the server demands of every client (`--user`/`--pass`). */
export interface NatsAuth {
  user: string;
  pass: string;
}

export interface NatsServer {
  port: number;
  url: string; // nats://127.0.0.1:PORT (no credentials)
  /** With `auth`: nats://user:pass@127.0.0.1:PORT, what an operator passes as --mq-url. */
  authUrl?: string;
  storeDir: string;
  running(): boolean;
  /** The server's process id while it runs (benchmarks read its CPU time). */
  pid(): number | undefined;
  /** Start (again) on the same port and store; resolves once it logs "Server is ready". */
  start(): Promise<void>;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
  /** Stop and remove the store directory. */
  dispose(): Promise<void>;
  log(): string;
}

/** A TCP port that nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Create a server handle; `start: false` leaves it down (for "NATS down at start" tests);
 * `auth` starts it with `--user`/`--pass`, so clients without them are refused.
 */
export async function natsServer(
  options: { port?: number; start?: boolean; auth?: NatsAuth } = {},
): Promise<NatsServer> {
  const port = options.port ?? (await freePort());
  const storeDir = await mkdtemp(join(tmpdir(), 'svc-nats-'));
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = '';

  const end = async (signal: NodeJS.Signals): Promise<void> => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
    child = undefined;
  };

  const handle: NatsServer = {
    port,
    url: `nats://127.0.0.1:${port}`,
    ...(options.auth
      ? {
          authUrl: `nats://${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@127.0.0.1:${port}`,
        }
      : {}),
    storeDir,
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    pid: () => child?.pid,
    async start() {
      if (handle.running()) return;
      const args = ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir];
      if (options.auth) args.push('--user', options.auth.user, '--pass', options.auth.pass);
      const proc = spawn(NATS_SERVER_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      exited = new Promise((resolve) => proc.once('exit', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`nats-server did not become ready in 15 s:\n${output}`)),
          15_000,
        );
        const onData = (d: Buffer) => {
          output += d.toString();
          if (output.length > 100_000) output = output.slice(-50_000);
          if (output.includes('Server is ready')) {
            clearTimeout(timer);
            resolve();
          }
        };
        proc.stdout!.on('data', onData);
        proc.stderr!.on('data', onData);
        proc.once('error', (err) => {
          clearTimeout(timer);
          reject(new Error(`cannot run ${NATS_SERVER_BIN} (apt-get install nats-server): ${err.message}`));
        });
        proc.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`nats-server exited (${code ?? signal}) before it was ready:\n${output}`));
        });
      });
      output = output.replace(/Server is ready/g, 'Server was ready'); // the next start waits for its own line
    },
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    async dispose() {
      await end('SIGKILL');
      await rm(storeDir, { recursive: true, force: true });
    },
    log: () => output,
  };
  if (options.start !== false) await handle.start();
  return handle;
}
