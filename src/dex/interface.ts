/**
 * Types of the order book runtime (src/dex): its options, defaults and surface (runtime.ts).
 * The engine's own types (orders, trades, markets) are in engine/interface.ts; those of the
 * HTTP face (the options of `startDex` and its handle, a full node's hooks) in api/interface.ts.
 */
import type { Logger } from 'pino';
import type { Piscina } from 'piscina';
import type { Tick } from '../core/index.js';
import type { Sequencer } from '../sequencer/index.js';
import type { AppliedListener, TickApplier, TickSource } from './applier.js';
import type { DexState, OrderBookEngine } from './engine/index.js';
import type { NodeKey } from './node-key.js';
import type { OrderEntry } from './order-entry.js';
import type { ReceiptSigner } from './receipts.js';
import type { BatchVerifier } from './verifier.js';

/** Threads of the order book's own pool for ed25519 checks and receipt signatures (--dex-signature-threads). */
export const DEFAULT_SIGNATURE_THREADS = 2;

/**
 * Orders, cancels and market creations pending at once (taken, not yet answered), shared
 * fairly between client addresses (docs/dex-api.md "Overload"): about 50 ms of orders at
 * the 2-core sustainable rate. Flag --max-pending.
 */
export const DEFAULT_MAX_PENDING = 128;

/**
 * Longest a request may wait between being ready (taken, signature checked) and its
 * hand-off to the sequencer before it is refused unsequenced; also how long a cancel waits
 * for an order the node has not received yet (docs/dex-api.md "Arrival order").
 */
export const DEFAULT_MAX_WAIT_MS = 1000;

export interface OrderBookOptions {
  /** The tick source and the write side of the node's sequencer (or a full node's follower). */
  sequencer: TickSource & Pick<Sequencer, 'submit' | 'submitBatch' | 'orderedTicks'>;
  /** The node's pool: signatures run there when `signatureThreads` is 0. */
  pool: Piscina;
  /** --db-path: the node key lives in <dbPath>/node-key.json. */
  dbPath: string;
  /**
   * Threads of the order book's own pool for ed25519 checks and receipt signatures, so they
   * do not wait behind the sequencer's VDF proofs (default DEFAULT_SIGNATURE_THREADS, flag
   * --dex-signature-threads); 0 runs them in `pool`.
   */
  signatureThreads?: number;
  /** Requests pending at once, shared per client address (default DEFAULT_MAX_PENDING). */
  maxPending?: number;
  /**
   * Receipts of one turn signed on the main thread when at most this many, else as one pool
   * task (default: env SVC_DEX_SIGN_INLINE_MAX, else 0 with a pool of its own, 64 without).
   */
  signInlineMax?: number;
  /**
   * ed25519 checks of one turn made on this thread when at most this many, else one pool
   * task (default 0: always the pool). For a thread that does not order (the node thread).
   */
  checkInlineMax?: number;
  logger?: Logger;
  /** The state to start from (the chain's latest snapshot); default an empty order book. */
  engine?: OrderBookEngine;
  /** Consumers of the applied-tick records, subscribed before the stored ticks are replayed. */
  consumers?: AppliedListener[];
  /** The state root before the ticks this selects (the chain: a tick that closes a block). */
  rootBefore?: (tick: Tick) => boolean;
  /** Awaited between replay chunks, so a slow consumer (the chain's writer) is not flooded. */
  throttle?: () => Promise<void>;
}

export interface OrderBookRuntime {
  readonly key: NodeKey;
  readonly applier: TickApplier;
  readonly verifier: BatchVerifier;
  readonly receipts: ReceiptSigner;
  readonly orderEntry: OrderEntry;
  /** The engine's current state. */
  readonly state: DexState;
  /** Resolves once every tick received so far is applied. */
  idle(): Promise<void>;
  /** Stop following ticks, refuse new submissions (failing the waiting ones), free the pool. */
  close(): Promise<void>;
}
