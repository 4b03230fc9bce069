/**
 * The order book face of the node (spec/2): `startDex` loads or creates the node key,
 * rebuilds the state from the stored ticks, and serves the HTTP API. The pure engine
 * (book, state, wire format) is exported for tests, benchmarks and other nodes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPool } from '../pool/index.js';
import { createHandler } from './http.js';
import type { DexDeps, DexHandle } from './interface.js';
import { loadOrCreateNodeKey } from './node-key.js';
import { DexService } from './service.js';

export * from './interface.js';
export { OrderBook } from './book.js';
export { DexState, type Outcome, type Market } from './state.js';
export { SlotTree } from './slot-tree.js';
export { encodeLeaf, LEAF_SIZE } from './leaf.js';
export * from './wire.js';
export { DexService } from './service.js';
export { createApp, createHandler } from './http.js';
export { loadOrCreateNodeKey, NODE_KEY_FILE, type NodeKey } from './node-key.js';
export { openApiDocument } from './openapi.js';

/** Split "host:port" (or "[v6]:port"). */
export function parseAddr(addr: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(addr);
  if (!m) throw new Error(`bad address '${addr}', expected host:port`);
  const port = Number(m[3]);
  if (port > 65535) throw new Error(`bad port in '${addr}'`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

export async function startDex(deps: DexDeps): Promise<DexHandle & { service: DexService; stopAccepting(): void }> {
  const key = await loadOrCreateNodeKey(deps.dbPath);
  const threads = deps.signatureThreads ?? Number(process.env.SVC_DEX_SIGNATURE_THREADS ?? 2);
  const signaturePool = threads > 0 ? createPool({ threads }) : undefined;
  const service = new DexService(deps.sequencer, deps.pool, key, deps.logger, signaturePool);
  try {
    await service.start();
  } catch (err) {
    await signaturePool?.destroy();
    throw err;
  }
  const handler = createHandler(service, {
    ...(deps.bodyLimitBytes !== undefined ? { bodyLimit: deps.bodyLimitBytes } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.onClientGone ? { onClientGone: deps.onClientGone } : {}),
  });
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000;
  const { host, port } = parseAddr(deps.addr);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await service.stop();
    await signaturePool?.destroy();
    throw err;
  }
  const a = server.address() as AddressInfo;
  const address = `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  deps.logger?.info({ address, sequencer_id: key.sequencerId }, 'dex: listening');
  return {
    address,
    service,
    stopAccepting() {
      server.close();
    },
    async close() {
      await new Promise<void>((resolve) => {
        if (!server.listening) resolve();
        else server.close(() => resolve());
        server.closeAllConnections();
      });
      await service.stop();
      await signaturePool?.destroy();
    },
  };
}
