/**
 * Types of the order book's HTTP face (src/dex/api): the options of `startDex` and its
 * handle, and a full node's hooks. The runtime's own types are in ../interface.ts.
 */
import type { Logger } from 'pino';
import type { Piscina } from 'piscina';
import type { Database } from '../../db/index.js';
import type { Sequencer } from '../../sequencer/index.js';
import type { HostPort } from '../../wire/index.js';
import type { OrderBookRuntime } from '../index.js';

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
  addr: HostPort | string; // where to listen: the node's --dex-addr, or host:port text such as "127.0.0.1:0"
  /** Listen on this Unix socket instead of `addr` (behind gateway processes, src/gateway). */
  socketPath?: string;
  bodyLimitBytes?: number; // default 16 KiB
  /** Counts requests whose client went away mid-body (the node's metrics; optional). */
  onClientGone?: () => void;
  /**
   * Without `book`: threads of the order book's own pool for ed25519 checks and receipt
   * signatures (default DEFAULT_SIGNATURE_THREADS); 0 runs them in `pool`.
   */
  signatureThreads?: number;
  /** Without `book`: the order entry's --max-pending (default DEFAULT_MAX_PENDING). */
  maxPending?: number;
  /** A full node's hooks (src/follow): writes relayed to the leader, the leader's identity on /health. */
  follow?: DexFollowHooks;
  /**
   * The node's order book runtime (src/dex/runtime.ts, started by the node), which the face
   * uses and leaves running; without it the face starts one of its own, which replays every
   * stored tick on start, and closes it with the face.
   */
  book?: OrderBookRuntime;
}

export interface DexHandle {
  address: string; // host:port actually bound
  close(): Promise<void>;
}
