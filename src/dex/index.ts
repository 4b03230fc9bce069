/**
 * The order book face of the node (spec/2): `startDex` loads or creates the node key,
 * attaches to an applier of the stored ticks (the node's shared one, or its own that
 * rebuilds the state from every stored tick), and serves the HTTP API. The pure engine
 * (book, state, wire format, engine.ts) is exported for tests, benchmarks, the chain and
 * full nodes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPool } from '../pool/index.js';
import { createHandler } from './http.js';
import type { DexDeps, DexHandle } from './interface.js';
import { loadOrCreateNodeKey } from './node-key.js';
import { TickApplier } from './applier.js';
import { OrderBookEngine } from './engine/index.js';
import { DexService } from './service.js';
import { BatchVerifier } from './verifier.js';

export * from './interface.js';
export * from './engine/index.js';
export { DexService } from './service.js';
export { TickApplier, type TickSource, type SignatureVerifier, type AppliedListener } from './applier.js';
export { OrderBookGateway, digestNonce, type Submitted } from './gateway.js';
export { ApiError, type ApiErrorCode } from './errors.js';
export { BatchVerifier } from './verifier.js';
export { marketView, tradeView, bookView } from './views.js';
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

/** Receipts of one turn signed on the main thread when at most this many (env override). */
function signInlineMax(ownPool: boolean): number {
  const env = process.env.SVC_DEX_SIGN_INLINE_MAX;
  return env !== undefined ? Number(env) : ownPool ? 0 : 64;
}

export async function startDex(deps: DexDeps): Promise<DexHandle & { service: DexService; stopAccepting(): void }> {
  const key = await loadOrCreateNodeKey(deps.dbPath);
  const threads = deps.signatureThreads ?? Number(process.env.SVC_DEX_SIGNATURE_THREADS ?? 2);
  // A pool of its own for ed25519 checks and receipt signatures, so they do not wait in
  // line behind the sequencer's VDF proofs in the node's pool.
  const signaturePool = threads > 0 && deps.verifier === undefined ? createPool({ threads }) : undefined;
  const verifier = deps.verifier ?? new BatchVerifier(signaturePool ?? deps.pool);
  // The node's shared applier (the chain restores it from a snapshot), or one of our own.
  const ownApplier = deps.applier === undefined;
  const applier = deps.applier ?? new TickApplier(deps.sequencer.orderedTicks?.() ?? deps.sequencer, new OrderBookEngine(), verifier, deps.logger ? { logger: deps.logger } : {});
  const service = new DexService({
    sequencer: deps.sequencer,
    applier,
    verifier,
    key,
    signInlineMax: signInlineMax(signaturePool !== undefined || deps.verifier !== undefined),
    ...(deps.gateway ? { gateway: deps.gateway } : {}),
  });
  try {
    if (ownApplier) await applier.start();
  } catch (err) {
    service.stop();
    await signaturePool?.destroy();
    throw err;
  }
  const handler = createHandler(service, {
    ...(deps.bodyLimitBytes !== undefined ? { bodyLimit: deps.bodyLimitBytes } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.onClientGone ? { onClientGone: deps.onClientGone } : {}),
    ...(deps.follow ? { follow: deps.follow } : {}),
  });
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000;
  const { host, port } = parseAddr(deps.addr);
  const listenOn = (done: () => void): void => {
    if (deps.socketPath !== undefined) server.listen(deps.socketPath, done);
    else server.listen(port, host, done);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      listenOn(() => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    service.stop();
    if (ownApplier) await applier.stop();
    await signaturePool?.destroy();
    throw err;
  }
  const a = server.address() as AddressInfo | string;
  const address = typeof a === 'string' ? a : `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
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
      if (ownApplier) await applier.stop();
      else await applier.idle();
      service.stop();
      await signaturePool?.destroy();
    },
  };
}
