/**
 * Forks and watches the gateway processes (node:cluster workers running process.ts) that
 * share the order book port. The gateways accept connections themselves from the one shared
 * listening socket (node:cluster's SCHED_NONE): this process (the primary, whose main thread
 * orders) only binds the socket and passes it to each gateway as it starts; it never touches
 * a connection, so a busy ordering thread delays no accept and a burst costs it nothing.
 * node:cluster's default on Linux (round-robin: the primary accepts every connection and
 * passes it to a gateway over IPC) is not used. The price, uneven spreading of connections
 * between gateways, is measured in docs/architecture.md "Gateways".
 *
 * A gateway that dies (kill -9, crash) is forked again (after a second if it died young, so
 * a gateway that cannot start does not spin); the others keep serving meanwhile.
 *
 * The processes are forked at once and boot in parallel with the node's own start; each is
 * told GO once it said BOOTED and `released` resolved (interface.ts). If `released`
 * rejects (the node failed to start) they are stopped and the set rejects with that error.
 */
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import {
  BOOTED,
  CLIENT_GONE,
  GO,
  GRPC_LISTENING,
  LISTEN_FAILED,
  type GatewayProcessConfig,
  type GrpcListening,
  type GatewaySet,
  type ListenFailed,
} from './interface.js';

const PROCESS_FILE = fileURLToPath(new URL('./process.js', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const YOUNG_MS = 5_000;
const STOP_GRACE_MS = 10_000;

export async function startGatewaySet(
  count: number,
  cfg: GatewayProcessConfig,
  released: Promise<void>,
  logger?: Logger,
  onClientGone?: () => void,
): Promise<GatewaySet> {
  if (!cluster.isPrimary) throw new Error('gateways are forked by the primary process only');
  // Read by node:cluster at its first setupPrimary (then frozen): set before it, every time.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ exec: PROCESS_FILE, args: [], silent: false });
  const workers = new Set<Worker>();
  let closing = false;
  let restarts = 0;
  let address = '';
  let grpcEntryAddress: string | undefined;

  const fork = (): Promise<void> => {
    const started = Date.now();
    const w = cluster.fork({ SVC_GATEWAY: JSON.stringify(cfg) });
    workers.add(w);
    let listenFailed: Error | undefined;
    let booted!: () => void;
    const bootedOnce = new Promise<void>((resolve) => (booted = resolve));
    let entryListening!: () => void;
    const entryOnce = new Promise<void>((resolve) => (entryListening = resolve));
    w.on('message', (m: unknown) => {
      if (m === CLIENT_GONE) onClientGone?.();
      else if (m === BOOTED) booted();
      else if ((m as GrpcListening | undefined)?.type === GRPC_LISTENING && cfg.grpcEntry) {
        grpcEntryAddress = hostPort(cfg.grpcEntry.host, (m as GrpcListening).port);
        entryListening();
      } else if ((m as ListenFailed | undefined)?.type === LISTEN_FAILED) {
        const f = m as ListenFailed;
        listenFailed = Object.assign(new Error(f.message), f.code ? { code: f.code } : {});
      }
    });
    let timer: NodeJS.Timeout | undefined;
    const listening = new Promise<void>((resolve, reject) => {
      // The start-up bound counts from the node's release: a gateway that has not booted and
      // listened by then plus START_TIMEOUT_MS fails the start.
      released.then(
        () =>
          (timer = setTimeout(
            () => reject(new Error(`gateway ${w.process.pid} did not listen in ${START_TIMEOUT_MS / 1000} s`)),
            START_TIMEOUT_MS,
          )),
        (err: unknown) => reject(err),
      );
      Promise.all([released, bootedOnce]).then(
        () => (w.isDead() ? undefined : w.send(GO, () => undefined)), // a send to a gateway that just died: its 'exit' handles it
        () => undefined,
      );
      w.once('listening', (a: { address: string | null; port: number; addressType: number | string }) => {
        address = hostPort(a.address ?? cfg.host, a.port);
        // With the gRPC order entry, listening means both ports (the entry starts second).
        const both = cfg.grpcEntry ? entryOnce : Promise.resolve();
        void both.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      w.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(listenFailed ?? new Error(`gateway ${w.process.pid} exited (${signal ?? code}) before listening`));
      });
    });
    w.once('exit', (code, signal) => {
      workers.delete(w);
      if (closing) return;
      logger?.warn({ pid: w.process.pid, code, signal }, 'gateway process died; forking another');
      restarts++;
      const delay = Date.now() - started < YOUNG_MS ? 1_000 : 0;
      setTimeout(() => {
        if (!closing) fork().catch((err: unknown) => logger?.error({ err }, 'gateway restart failed'));
      }, delay);
    });
    return listening;
  };

  const stopAll = async (): Promise<void> => {
    closing = true;
    const exits = [...workers].map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.isDead()) return resolve();
          const kill = setTimeout(() => w.process.kill('SIGKILL'), STOP_GRACE_MS);
          w.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          w.process.kill('SIGTERM');
        }),
    );
    await Promise.all(exits);
  };

  try {
    await Promise.all(Array.from({ length: count }, () => fork()));
  } catch (err) {
    await stopAll();
    throw err;
  }
  logger?.info({ address, gateways: count, grpcEntryAddress }, 'gateways: listening');
  return {
    address,
    ...(grpcEntryAddress !== undefined ? { grpcEntryAddress } : {}),
    pids: () => [...workers].map((w) => w.process.pid!).filter((p) => p !== undefined),
    get restarts() {
      return restarts;
    },
    stopAccepting() {
      closing = true;
      for (const w of workers) if (!w.isDead()) w.process.kill('SIGTERM');
    },
    close: stopAll,
  };
}

function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
