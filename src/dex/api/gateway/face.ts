/**
 * The order book face across all cores (issue 10, docs/architecture.md "Gateways"):
 * `prepareGatewayFace` forks N gateway processes (cluster.ts, process.ts) at once, so they
 * boot while the node opens its database and restores its state; its `start` then starts,
 * in the sequencer process, the order book's own HTTP server on a private Unix socket
 * (reads, markets) and the channel hub (hub.ts), and lets the gateways connect and listen
 * on the public order book port, which they share. The gateways do the per-order work that
 * needs no global order; this process does the ordering, matching and roots.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenAddress, startDex } from '../index.js';
import type { HostPort } from '../../../wire/index.js';
import type { DexDeps } from '../interface.js';
import type { LogLevel } from '../../../log/index.js';
import type { Logger } from 'pino';
import { DEFAULT_BODY_LIMIT } from '../index.js';
import { startGatewaySet } from './cluster.js';
import { startHub, type GatewayHub, type SubmitTxAnswer } from './hub.js';
import { ORDER_BOOK_BACKLOG, type GatewaySet } from './interface.js';

/** What the gateway processes need before the node has opened anything. */
export interface GatewayFaceOptions {
  gateways: number; // processes, >= 1
  /** Requests each gateway lets wait for the sequencer before answering 503 QUEUE_FULL. */
  maxInflight: number;
  logLevel: LogLevel;
  addr: HostPort | string; // the public order book address (--dex-addr), or host:port text
  dbPath: string; // the node key: <dbPath>/node-key.json
  bodyLimitBytes?: number;
  logger?: Logger;
  onClientGone?: () => void;
  /** The gRPC order entry's listen address (--grpc-entry-addr); none: off. */
  grpcEntryAddr?: HostPort | string;
}

export type GatewayFaceDeps = DexDeps & GatewayFaceOptions;

export interface GatewayFace {
  address: string;
  grpcEntryAddress?: string;
  gateways: GatewaySet;
  hub: GatewayHub;
  stopAccepting(): void;
  close(): Promise<void>;
}

/** Forked gateway processes waiting for the node: `start` once its state is ready, or `abort`. */
export interface PreparedGatewayFace {
  /** `submitTx`: the gRPC order entry's answers (required with `grpcEntryAddr`). */
  start(deps: DexDeps, submitTx?: SubmitTxAnswer): Promise<GatewayFace>;
  abort(): Promise<void>;
}

export function prepareGatewayFace(opts: GatewayFaceOptions): PreparedGatewayFace {
  // Unix socket paths are limited to ~107 bytes: a short private directory, not --db-path.
  const dir = mkdtempSync(join(tmpdir(), 'svc-gw-'));
  const httpPath = join(dir, 'http.sock');
  const channelPath = join(dir, 'orders.sock');
  let release!: () => void;
  let refuse!: (err: Error) => void;
  const released = new Promise<void>((resolve, reject) => {
    release = resolve;
    refuse = reject;
  });
  const at = listenAddress(opts.addr);
  const cfg = {
    host: at.host,
    port: at.port,
    channelPath,
    httpPath,
    dbPath: opts.dbPath,
    bodyLimit: opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
    maxInflight: opts.maxInflight,
    backlog: ORDER_BOOK_BACKLOG,
    logLevel: opts.logLevel,
    ...(opts.grpcEntryAddr !== undefined ? { grpcEntry: listenAddress(opts.grpcEntryAddr) } : {}),
  };
  const set = startGatewaySet(opts.gateways, cfg, released, opts.logger, opts.onClientGone);
  set.catch(() => undefined); // surfaces in start(); after abort() nobody waits for it
  let used = false;

  return {
    async start(deps, submitTx) {
      if (used) throw new Error('a prepared gateway face starts once');
      used = true;
      const dex = await startDex({ ...deps, socketPath: httpPath }).catch(async (err: unknown) => {
        refuse(err as Error);
        await set.catch(() => undefined);
        await rm(dir, { recursive: true, force: true });
        throw err;
      });
      let hub: GatewayHub | undefined;
      try {
        hub = await startHub(channelPath, dex.service.orderEntry, deps.logger, submitTx);
        release();
        const gateways = await set;
        const running = hub;
        return {
          address: gateways.address,
          ...(gateways.grpcEntryAddress !== undefined ? { grpcEntryAddress: gateways.grpcEntryAddress } : {}),
          gateways,
          hub: running,
          stopAccepting() {
            gateways.stopAccepting();
            dex.stopAccepting();
          },
          async close() {
            await gateways.close();
            await running.close();
            await dex.close();
            await rm(dir, { recursive: true, force: true });
          },
        };
      } catch (err) {
        refuse(err as Error);
        await set.then(
          (g) => g.close(),
          () => undefined,
        );
        await hub?.close();
        await dex.close();
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
    },
    async abort() {
      if (used) return;
      used = true;
      refuse(new Error('the node did not start'));
      await set.catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Fork the gateways and start the face in one step (when there is nothing to overlap with). */
export function startGatewayFace(deps: GatewayFaceDeps): Promise<GatewayFace> {
  return prepareGatewayFace(deps).start(deps);
}
