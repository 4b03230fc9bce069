/**
 * Types of the order book (src/dex): the engine's orders, trades and outcomes, the
 * decoded wire transactions, and the options of `startDex`.
 */
import type { Logger } from 'pino';
import type { Piscina } from 'piscina';
import type { Database } from '../db/index.js';
import type { HostPort } from '../wire/index.js';
import type { Sequencer } from '../sequencer/interface.js';
import type { TickApplier } from './applier.js';
import type { OrderBookGateway } from './gateway.js';
import type { BatchVerifier } from './verifier.js';

export const BUY = 0;
export const SELL = 1;
export type SideCode = 0 | 1;
export type MarketKind = 'Spot' | 'Perp';

/** An order resting in (or passing through) a book. Prices and quantities are u64 bigints. */
export interface BookOrder {
  seq: bigint; // continuum_sequence = (tick_number << 32) | index_in_tick
  marketId: string;
  orderId: bigint;
  owner: Uint8Array; // 32 bytes
  ownerKey: string; // the owner's 32 bytes as a latin1 string: a cheap Map key, never shown
  side: SideCode;
  price: bigint;
  quantity: bigint;
  remaining: bigint;
  expiry: bigint; // unix seconds, 0 = good until cancelled
  slot: number; // commitment slot while resting, -1 otherwise
  open: boolean;
}

export interface Trade {
  tradeId: bigint; // per market, from 1
  price: bigint; // the maker's price
  quantity: bigint;
  takerSide: SideCode;
  maker: BookOrder;
  taker: BookOrder;
  tickNumber: number;
  seq: bigint; // the taker's continuum_sequence
  timestampMs: number;
}

/** Why a resting order left the book without trading. */
export interface Removal {
  order: BookOrder;
  reason: 'expired' | 'self_trade';
}

export type PlaceStatus = 'resting' | 'partially_filled' | 'filled';

export interface PlaceResult {
  status: PlaceStatus;
  filled: bigint;
  trades: Trade[]; // do not mutate (may be a shared empty array)
  removals: Removal[]; // resting orders that left untraded (expired, self-trade); do not mutate
  selfTraded: boolean;
}

/** The context every state transition is judged in: the tick, never the wall clock. */
export interface TickContext {
  tickNumber: number;
  index: number; // index of the transaction in its tick
  timestampMs: number; // the tick's timestamp, milliseconds
}

export interface MarketInfo {
  marketId: string;
  baseMint: Uint8Array;
  quoteMint: Uint8Array;
  name: string;
  kind: MarketKind;
  createdTick: number;
  createdSeq: bigint;
}

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
