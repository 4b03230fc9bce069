/**
 * Types of the order book runtime and its HTTP face (src/dex): the options of `startDex`
 * and its handle, and a full node's hooks. The engine's own types (orders, trades,
 * markets) are in engine/interface.ts.
 */
import type { Logger } from 'pino';
import type { Piscina } from 'piscina';
import type { Database } from '../db/index.js';
import type { Sequencer } from '../sequencer/interface.js';
import type { TickApplier } from './applier.js';
import type { OrderBookGateway } from './gateway.js';
import type { BatchVerifier } from './verifier.js';

/** What a full node adds to the order book face (src/follow/forward-http.ts). */
export interface DexFollowHooks {
  /** Handle the request (a write sent to the leader) and return true, or false to serve it here. */
  intercept(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): boolean;
  /** Shown as `leader` on GET /health. */
  leader(): object;
}

export interface DexDeps {
  db: Database;
  pool: Piscina;
  sequencer: Sequencer;
  logger?: Logger;
  dbPath: string; // --db-path: the node key lives in <dbPath>/node-key.json
  addr: string; // host:port to listen on, e.g. "0.0.0.0:8081" or "127.0.0.1:0"
  /** Listen on this Unix socket instead of `addr` (behind gateway processes, src/gateway). */
  socketPath?: string;
  bodyLimitBytes?: number; // default 16 KiB
  /** Counts requests whose client went away mid-body (the node's metrics; optional). */
  onClientGone?: () => void;
  /**
   * Threads of the order book's own pool for ed25519 checks and receipt signatures (default
   * 2, env SVC_DEX_SIGNATURE_THREADS); 0 runs them in `pool`, behind its VDF proofs.
   */
  signatureThreads?: number;
  /** A full node's hooks (src/follow): writes relayed to the leader, the leader's identity on /health. */
  follow?: DexFollowHooks;
  /**
   * The node's shared applier of stored ticks (started by its owner, e.g. the chain, which
   * restores the engine from a snapshot). Without it the face makes its own and replays
   * every stored tick on start.
   */
  applier?: TickApplier;
  /** With `applier`: the node's shared write path and signature verifier (no pool of its own then). */
  gateway?: OrderBookGateway;
  verifier?: BatchVerifier;
}

export interface DexHandle {
  address: string; // host:port actually bound
  close(): Promise<void>;
}
