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
import { createPool, workerFile } from '../pool/index.js';
import { TickApplier } from './applier.js';
import { CheckedSubmissions } from './checked.js';
import { OrderBookEngine } from './engine/index.js';
import {
  DEFAULT_MAX_PENDING,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_SIGNATURE_THREADS,
  type OrderBookOptions,
  type OrderBookRuntime,
} from './interface.js';
import { loadOrCreateNodeKey } from './node-key.js';
import { OrderEntry } from './order-entry.js';
import { ReceiptSigner } from './receipts.js';
import { BatchVerifier } from './verifier.js';

export type { OrderBookOptions, OrderBookRuntime } from './interface.js';

function signInlineMaxOf(options: OrderBookOptions, ownPool: boolean): number {
  if (options.signInlineMax !== undefined) return options.signInlineMax;
  const env = process.env.SVC_DEX_SIGN_INLINE_MAX;
  return env !== undefined ? Number(env) : ownPool ? 0 : 64;
}

/** Build the order book runtime and replay the stored ticks into it; then it follows live ticks. */
export async function startOrderBook(options: OrderBookOptions): Promise<OrderBookRuntime> {
  const key = await loadOrCreateNodeKey(options.dbPath);
  const threads = options.signatureThreads ?? DEFAULT_SIGNATURE_THREADS;
  const signaturePool = threads > 0 ? createPool({ threads, preload: workerFile('ed25519') }) : undefined;
  const verifier = new BatchVerifier(signaturePool ?? options.pool, options.checkInlineMax ?? 0);
  const checked = new CheckedSubmissions();
  let orderEntry: OrderEntry | undefined;
  const applier = new TickApplier(
    options.sequencer.orderedTicks?.() ?? options.sequencer,
    options.engine ?? new OrderBookEngine(),
    verifier,
    {
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.throttle ? { throttle: options.throttle } : {}),
      ...(options.rootBefore ? { rootBefore: options.rootBefore } : {}),
      rootAfter: (otx) => orderEntry?.wantsRoot(otx) ?? false,
      checked,
    },
  );
  for (const consumer of options.consumers ?? []) applier.onApplied(consumer);
  const entry = new OrderEntry(options.sequencer, applier, verifier, checked, {
    maxPending: options.maxPending ?? DEFAULT_MAX_PENDING,
    maxWaitMs: DEFAULT_MAX_WAIT_MS,
  });
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
