/**
 * The order book face across all cores (issue 10, docs/architecture.md "Gateways"):
 * `startGatewayFace` starts, in the sequencer process, the order book's own HTTP server on a
 * private Unix socket (reads, markets), the channel hub (hub.ts) and N gateway processes
 * (cluster.ts, process.ts) sharing the public order book port. The gateways do the
 * per-order work that needs no global order; this process does the ordering, matching and
 * roots.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAddr, startDex } from '../dex/index.js';
import type { DexDeps } from '../dex/interface.js';
import type { LogLevel } from '../config/interface.js';
import { DEFAULT_BODY_LIMIT } from '../dex/http-json.js';
import { startGatewaySet } from './cluster.js';
import { startHub, type GatewayHub } from './hub.js';
import type { GatewaySet } from './interface.js';

export type { GatewayProcessConfig, GatewaySet } from './interface.js';
export { SequencerChannel } from './channel.js';
export { startHub, type GatewayHub } from './hub.js';
export * from './frames.js';

export interface GatewayFaceDeps extends DexDeps {
  gateways: number; // processes, >= 1
  /** Requests each gateway lets wait for the sequencer before answering 503 QUEUE_FULL. */
  maxInflight: number;
  logLevel: LogLevel;
}

export interface GatewayFace {
  address: string;
  gateways: GatewaySet;
  hub: GatewayHub;
  stopAccepting(): void;
  close(): Promise<void>;
}

export async function startGatewayFace(deps: GatewayFaceDeps): Promise<GatewayFace> {
  // Unix socket paths are limited to ~107 bytes: a short private directory, not --db-path.
  const dir = await mkdtemp(join(tmpdir(), 'svc-gw-'));
  const httpPath = join(dir, 'http.sock');
  const channelPath = join(dir, 'orders.sock');
  const dex = await startDex({ ...deps, socketPath: httpPath });
  let hub: GatewayHub | undefined;
  try {
    hub = await startHub(channelPath, dex.service.gateway, deps.logger);
    const at = parseAddr(deps.addr);
    const gateways = await startGatewaySet(
      deps.gateways,
      {
        host: at.host,
        port: at.port,
        channelPath,
        httpPath,
        dbPath: deps.dbPath,
        bodyLimit: deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
        maxInflight: deps.maxInflight,
        logLevel: deps.logLevel,
      },
      deps.logger,
      deps.onClientGone,
    );
    const running = hub;
    return {
      address: gateways.address,
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
    await hub?.close();
    await dex.close();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
