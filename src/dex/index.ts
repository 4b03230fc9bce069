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
import { parseHostPort, type HostPort } from '../wire/index.js';
import { createHandler } from './http.js';
import type { DexDeps, DexHandle } from './interface.js';
import { loadOrCreateNodeKey } from './node-key.js';
import { TickApplier } from './applier.js';
import { OrderBookEngine } from './engine.js';
import { DexService } from './service.js';
import { BatchVerifier } from './verifier.js';

export * from './interface.js';
export { OrderBook } from './book.js';
export { DexState, type Outcome, type Market } from './state.js';
export { SlotTree } from './slot-tree.js';
export { encodeLeaf, LEAF_SIZE } from './leaf.js';
export * from './wire.js';
export { DexService } from './service.js';
export { OrderBookEngine, prepareTick, setVerdicts, type AppliedTick, type AppliedTx, type MarketActivity, type PreparedTick, type SignatureCheck } from './engine.js';
export { TickApplier, type TickSource, type SignatureVerifier, type AppliedListener } from './applier.js';
export { OrderBookGateway, digestNonce, type Submitted } from './gateway.js';
export { ApiError, type ApiErrorCode } from './errors.js';
export { BatchVerifier } from './verifier.js';
export { encodeSnapshot, decodeSnapshot } from './snapshot.js';
export { AppendOnlyMerkle, combineStateRoot, encodeMarketLeaf, encodeUsedIdLeaf, STATE_ROOT_PREFIX } from './commitment.js';
export { marketView, tradeView, bookView } from './views.js';
export { createApp, createHandler } from './http.js';
export { loadOrCreateNodeKey, NODE_KEY_FILE, type NodeKey } from './node-key.js';
export { openApiDocument } from './openapi.js';

/** Where to listen: a host and port as they are, or `host:port` text parsed (src/wire host-port.ts). */
export function listenAddress(addr: HostPort | string): HostPort {
  if (typeof addr !== 'string') return addr;
  const hp = parseHostPort(addr);
  if (hp) return hp;
  if (parseHostPort(addr.replace(/:\d{1,5}$/, ':0'))) throw new Error(`bad port in '${addr}'`);
  throw new Error(`bad address '${addr}', expected host:port`);
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
  const { host, port } = listenAddress(deps.addr);
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
