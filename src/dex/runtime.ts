/**
 * The order book runtime of a node, built once: the node key, the engine (a fresh one, or
 * the state a snapshot restored), the applier of stored and live ticks, the ed25519
 * verifier on a signature pool of its own, the receipt signer and the order entry. The node
 * (src/node) starts it right after the sequencer and hands it to every face that needs it:
 * the order book HTTP face, the gateway processes' channel, the chain (one consumer of its
 * applied-tick records) and gRPC SubmitTx. A lone order book face (tests, benchmarks)
 * starts one of its own.
 *
 * Consumers only listen to applied-tick records; what they need computed beyond applying
 * (a state root before the ticks that close a block, the pace of the replay) is given here,
 * once, at construction.
 */
import type { Logger } from 'pino';
import type { Piscina } from 'piscina';
import type { Tick } from '../core/types.js';
import { createPool } from '../pool/index.js';
import type { Sequencer } from '../sequencer/interface.js';
import { TickApplier, type AppliedListener, type TickSource } from './applier.js';
import { CheckedSubmissions } from './checked.js';
import { OrderBookEngine, type DexState } from './engine/index.js';
import { DEFAULT_SIGNATURE_THREADS } from './interface.js';
import { loadOrCreateNodeKey, type NodeKey } from './node-key.js';
import { OrderEntry } from './order-entry.js';
import { ReceiptSigner } from './receipts.js';
import { BatchVerifier } from './verifier.js';

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
  /**
   * Receipts of one turn signed on the main thread when at most this many, else as one pool
   * task (default: env SVC_DEX_SIGN_INLINE_MAX, else 0 with a pool of its own, 64 without).
   */
  signInlineMax?: number;
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

function signInlineMaxOf(options: OrderBookOptions, ownPool: boolean): number {
  if (options.signInlineMax !== undefined) return options.signInlineMax;
  const env = process.env.SVC_DEX_SIGN_INLINE_MAX;
  return env !== undefined ? Number(env) : ownPool ? 0 : 64;
}

/** Build the order book runtime and replay the stored ticks into it; then it follows live ticks. */
export async function startOrderBook(options: OrderBookOptions): Promise<OrderBookRuntime> {
  const key = await loadOrCreateNodeKey(options.dbPath);
  const threads = options.signatureThreads ?? DEFAULT_SIGNATURE_THREADS;
  const signaturePool = threads > 0 ? createPool({ threads }) : undefined;
  const verifier = new BatchVerifier(signaturePool ?? options.pool);
  const checked = new CheckedSubmissions();
  let orderEntry: OrderEntry | undefined;
  const applier = new TickApplier(options.sequencer.orderedTicks?.() ?? options.sequencer, options.engine ?? new OrderBookEngine(), verifier, {
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.throttle ? { throttle: options.throttle } : {}),
    ...(options.rootBefore ? { rootBefore: options.rootBefore } : {}),
    rootAfter: (otx) => orderEntry?.wantsRoot(otx) ?? false,
    checked,
  });
  for (const consumer of options.consumers ?? []) applier.onApplied(consumer);
  const entry = new OrderEntry(options.sequencer, applier, verifier, checked);
  orderEntry = entry;
  const receipts = new ReceiptSigner(key, verifier, signInlineMaxOf(options, signaturePool !== undefined));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await applier.stop();
      entry.close();
      await signaturePool?.destroy();
    })());
  try {
    await applier.start();
  } catch (err) {
    await close();
    throw err;
  }
  return {
    key,
    applier,
    verifier,
    receipts,
    orderEntry: entry,
    get state() {
      return applier.engine.state;
    },
    idle: () => applier.idle(),
    close,
  };
}
