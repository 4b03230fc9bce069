/**
 * The order book service: joins the pure state machine (state.ts) to the tick sequencer.
 *
 * - Write path: the HTTP front-end hands in a validated, signature-checked order, cancel
 *   or market creation; the service wraps it in a sequencer Transaction (wire.ts),
 *   registers a waiter under its tx_id, submits it, and the waiter resolves once the
 *   transaction's tick is durable AND applied, with the outcome and a signed receipt.
 * - Apply path: every durable tick (sequencer.onTick, in tick order) is applied in
 *   continuum_sequence order. Order book transactions from anywhere (also ones submitted
 *   straight to the sequencer over gRPC) are applied only if their owner signature
 *   verifies; signatures this node already checked for its own waiters are not checked
 *   twice, the rest are verified in the pool, in batches.
 * - Start: rebuild by replaying the stored ticks 1..currentTick before serving (ticks
 *   that arrive meanwhile are buffered), so markets, books, used order ids and roots
 *   survive a restart or kill -9 (docs/dex-api.md "Persistence").
 */
import type { Logger } from 'pino';
import { sha256 } from '../crypto/sha256.js';
import { startProgress } from '../log/progress.js';
import { equalBytes } from '../sdk/bytes.js';
import { cancelMessage, orderMessage, receiptMessage, signingMessage, CANCEL_PREFIX, ORDER_PREFIX, type OrderIntent, type ReceiptData } from '../sdk/messages.js';
import { toBase58Key, toHex } from '../sdk/bytes.js';
import type { Receipt } from '../sdk/wire-json.js';
import type { OrderResult, CancelResult, MarketView } from '../sdk/client.js';
import { SubmitError, type Sequencer } from '../sequencer/interface.js';
import { MAX_BATCH_TRANSACTIONS } from '../sequencer/limits.js';
import type { Tick, Transaction } from '../sequencer/types.js';
import { ApiError, apiErrorOf } from './errors.js';
import type { MarketKind } from './interface.js';
import type { NodeKey } from './node-key.js';
import { DexState, ownerKeyOf, type Outcome } from './state.js';
import { BatchVerifier, signInline } from './verifier.js';
import { marketView, tradeView } from './views.js';
import { decodePayload, encodeCancelPayload, encodeCreateMarket, encodePlaceOrderIntent, toTransaction, type DexTx } from './wire.js';

const WAIT_TIMEOUT_MS = 30_000;
/** Receipts of one tick signed on the main thread when there are at most this many (else one pool task). */
const SIGN_INLINE_MAX_ENV = process.env.SVC_DEX_SIGN_INLINE_MAX;

/**
 * The nonce of an order's or cancel's Transaction: the first 8 bytes of its signing digest.
 * The sequencer refuses a second transaction with the same (public_key, nonce), so the
 * same signed order or cancel sent twice is refused there too; and since only the owner's
 * signed bytes determine it, nobody can burn an owner's order ids by submitting junk with
 * guessed (owner, nonce) pairs (as they could if the nonce were the order_id).
 */
export function digestNonce(message: Uint8Array): bigint {
  return BigInt('0x' + new TextDecoder().decode(message.subarray(0, 16)));
}

interface Applied {
  outcome: Outcome;
  tick: Tick;
  index: number;
  /** Root of the market right after this transaction (orders and cancels that succeeded). */
  root?: Uint8Array;
}

interface Prepared {
  tick: Tick;
  decoded: Array<DexTx | undefined>;
  verified: boolean[];
  toVerify: Array<{ publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array }>;
  verifyAt: number[];
}

interface QueuedSubmit {
  tx: Transaction;
  resolve(): void;
  reject(err: unknown): void;
}

interface Waiter {
  payload: Uint8Array;
  resolve(a: Applied, signature: Uint8Array | undefined): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export class DexService {
  readonly state = new DexState();
  private readonly waiters = new Map<string, Waiter>();
  private readonly inflight = new Set<string>(); // ownerKey + order id of orders not applied yet
  private chain: Promise<void> = Promise.resolve();
  private buffered: Tick[] | undefined = [];
  private unsubscribe: (() => void) | undefined;
  private closed = false;
  private submitQueue: QueuedSubmit[] = [];
  private submitScheduled = false;
  private readonly signInlineMax: number;
  readonly verifier: BatchVerifier;

  /**
   * `signaturePool`: a pool of its own for ed25519 checks and receipt signatures, so they do
   * not wait in line behind the sequencer's VDF proofs in the shared `pool` (startDex gives
   * it 2 threads); without it they run in `pool`.
   */
  constructor(
    private readonly sequencer: Sequencer,
    pool: ConstructorParameters<typeof BatchVerifier>[0],
    readonly key: NodeKey,
    private readonly logger?: Logger,
    signaturePool?: ConstructorParameters<typeof BatchVerifier>[0],
  ) {
    this.verifier = new BatchVerifier(signaturePool ?? pool);
    // With a pool of its own, receipts are signed there (off the main thread, no queue of
    // proofs in front); on the shared pool, a tick's few receipts are signed here instead.
    this.signInlineMax = SIGN_INLINE_MAX_ENV !== undefined ? Number(SIGN_INLINE_MAX_ENV) : signaturePool ? 0 : 64;
  }

  /** Subscribe, replay the stored ticks, then apply what arrived meanwhile. */
  async start(): Promise<void> {
    this.unsubscribe = this.sequencer.onTick((tick) => {
      if (this.buffered) this.buffered.push(tick);
      else this.enqueue(tick);
    });
    const upTo = this.sequencer.status().currentTick;
    const progress = startProgress({ logger: this.logger, what: 'order book replay', total: upTo });
    let batch: Tick[] = [];
    for await (const tick of this.sequencer.readTicks(1, upTo)) {
      batch.push(tick);
      if (batch.length >= 256) {
        await this.applyBatch(batch);
        batch = [];
        progress.update(tick.tickNumber);
      }
    }
    await this.applyBatch(batch);
    progress.update(upTo);
    progress.end();
    const early = this.buffered ?? [];
    this.buffered = undefined;
    for (const t of early) this.enqueue(t);
    await this.chain;
    this.logger?.info({ tick: this.state.lastTick, markets: this.state.markets.size }, 'dex: state rebuilt from ticks');
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    await this.chain.catch(() => undefined);
    for (const [id, w] of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new ApiError(503, 'UNAVAILABLE', 'order book is shutting down'));
      this.waiters.delete(id);
    }
  }

  private enqueue(tick: Tick): void {
    this.chain = this.chain
      .then(() => this.applyTick(tick))
      .catch((err: unknown) => this.logger?.error({ err, tick: tick.tickNumber }, 'dex: applying a tick failed'));
  }

  private async applyTick(tick: Tick): Promise<void> {
    if (tick.tickNumber <= this.state.lastTick) return;
    if (tick.tickNumber > this.state.lastTick + 1 && this.state.lastTick >= 0) {
      // A gap (e.g. a listener that started late): fetch the missing ticks first.
      for await (const t of this.sequencer.readTicks(this.state.lastTick + 1, tick.tickNumber - 1)) await this.applyTick(t);
    }
    const prepared = this.prepare(tick);
    await this.verifyPrepared([prepared]);
    this.applyPrepared(prepared);
  }

  /** Replay stored ticks: one round of pool verification for the whole batch, then apply. */
  private async applyBatch(ticks: Tick[]): Promise<void> {
    const prepared = ticks.filter((t) => t.tickNumber > this.state.lastTick).map((t) => this.prepare(t));
    await this.verifyPrepared(prepared);
    for (const p of prepared) {
      if (p.tick.tickNumber !== this.state.lastTick + 1 && this.state.lastTick > 0) {
        this.logger?.warn({ expected: this.state.lastTick + 1, got: p.tick.tickNumber }, 'dex: stored ticks have a gap; replaying what exists');
      }
      this.applyPrepared(p);
    }
  }

  /** Decode a tick's transactions and list the signatures still to check. */
  private prepare(tick: Tick): Prepared {
    const decoded: Array<DexTx | undefined> = [];
    const verified: boolean[] = [];
    const toVerify: Array<{ publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array }> = [];
    const verifyAt: number[] = [];
    tick.transactions.forEach((otx, i) => {
      const d = decodePayload(otx.transaction.payload);
      if (d === undefined || d.kind === 'malformed') {
        decoded.push(undefined);
        verified.push(false);
        return;
      }
      decoded.push(d);
      const w = this.waiters.get(otx.transaction.txId);
      if (d.kind === 'market' || (w !== undefined && equalBytes(w.payload, otx.transaction.payload))) {
        verified.push(true); // markets are unsigned; our own waiters were checked before submit
        return;
      }
      verified.push(false);
      const message = d.kind === 'order' ? signingMessage(ORDER_PREFIX, d.borsh, sha256) : signingMessage(CANCEL_PREFIX, d.borsh, sha256);
      toVerify.push({ publicKey: d.kind === 'order' ? d.intent.owner : d.owner, message, signature: d.signature });
      verifyAt.push(i);
    });
    return { tick, decoded, verified, toVerify, verifyAt };
  }

  private async verifyPrepared(list: Prepared[]): Promise<void> {
    const all = list.flatMap((p) => p.toVerify);
    if (all.length === 0) return;
    const res = await this.verifier.verifyMany(all);
    let k = 0;
    for (const p of list) for (const i of p.verifyAt) p.verified[i] = res[k++]!;
  }

  /** Apply a prepared tick in continuum_sequence order and answer its waiters. */
  private applyPrepared(p: Prepared): void {
    const { tick, decoded, verified } = p;
    const ctxBase = { tickNumber: tick.tickNumber, timestampMs: Math.floor(tick.timestamp / 1000) };
    const done: Array<{ waiter: Waiter; applied: Applied }> = [];
    for (let i = 0; i < decoded.length; i++) {
      const d = decoded[i];
      if (d === undefined) continue;
      const outcome = this.state.apply(d, verified[i]!, { ...ctxBase, index: i });
      const otx = tick.transactions[i]!;
      if (d.kind === 'order') this.inflight.delete(ownerKeyOf(d.intent.owner) + d.intent.orderId.toString());
      const waiter = this.waiters.get(otx.transaction.txId);
      if (waiter === undefined || !equalBytes(waiter.payload, otx.transaction.payload)) continue;
      this.waiters.delete(otx.transaction.txId);
      clearTimeout(waiter.timer);
      const applied: Applied = { outcome, tick, index: i };
      if (outcome.ok && outcome.kind !== 'market') applied.root = outcome.market.book.root();
      done.push({ waiter, applied });
    }
    this.state.lastTick = tick.tickNumber;
    if (done.length > 0) void this.finish(done);
  }

  /** Sign the receipts of a tick's waiters in one pool task, then answer them. */
  private async finish(done: Array<{ waiter: Waiter; applied: Applied }>): Promise<void> {
    const needs = done.filter((d) => d.applied.root !== undefined);
    let sigs: Uint8Array[] = [];
    try {
      if (needs.length > 0) {
        const messages = needs.map((d) => receiptMessage(this.receiptData(d.applied), sha256));
        // Few receipts: sign here (node:crypto, tens of µs each) rather than queue behind the
        // pool's VDF proofs; many: one pool task.
        sigs = messages.length <= this.signInlineMax ? messages.map((m) => signInline(this.key.secretKey, m)) : await this.verifier.signMany(this.key.secretKey, messages);
      }
    } catch (err) {
      for (const d of done) d.waiter.reject(new ApiError(500, 'INTERNAL', `signing receipts failed: ${(err as Error).message}`));
      return;
    }
    let j = 0;
    for (const d of done) d.waiter.resolve(d.applied, d.applied.root !== undefined ? sigs[j++] : undefined);
  }

  private receiptData(a: Applied): ReceiptData {
    const o = a.outcome;
    if (!o.ok || o.kind === 'market') throw new Error('no receipt for this outcome');
    const otx = a.tick.transactions[a.index]!;
    return {
      orderId: o.order.orderId,
      owner: o.order.owner,
      timestampMs: BigInt(Math.floor(a.tick.timestamp / 1000)),
      sequencerId: this.key.sequencerId,
      merkleRoot: a.root!,
      tickNumber: BigInt(a.tick.tickNumber),
      continuumSequence: (BigInt(a.tick.tickNumber) << 32n) | BigInt(a.index),
      txHash: otx.txHash,
    };
  }

  private receipt(a: Applied, signature: Uint8Array): Receipt {
    const r = this.receiptData(a);
    return {
      order_id: r.orderId.toString(),
      owner: toBase58Key(r.owner),
      timestamp_ms: Number(r.timestampMs),
      sequencer_id: r.sequencerId,
      merkle_root: toHex(r.merkleRoot),
      sequencer_signature: toHex(signature),
      tick_number: a.tick.tickNumber,
      continuum_sequence: r.continuumSequence.toString(),
      tx_hash: toHex(r.txHash),
    };
  }

  /** Submit and wait until the transaction's tick is durable and applied. */
  private async submitAndWait(tx: Transaction, onConflict?: () => ApiError): Promise<{ applied: Applied; signature?: Uint8Array }> {
    if (this.closed) throw new ApiError(503, 'UNAVAILABLE', 'order book is shutting down');
    const result = new Promise<{ applied: Applied; signature?: Uint8Array }>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(tx.txId);
        reject(new ApiError(504, 'TIMEOUT', 'the transaction was accepted but its tick did not arrive in time'));
      }, WAIT_TIMEOUT_MS);
      this.waiters.set(tx.txId, {
        payload: tx.payload,
        timer,
        resolve: (applied, signature) => resolve(signature ? { applied, signature } : { applied }),
        reject,
      });
    });
    try {
      await this.submitCoalesced(tx);
    } catch (err) {
      const w = this.waiters.get(tx.txId);
      if (w) clearTimeout(w.timer);
      this.waiters.delete(tx.txId);
      result.catch(() => undefined);
      if (err instanceof SubmitError) {
        if (err.code === 'RESOURCE_EXHAUSTED') throw new ApiError(503, 'QUEUE_FULL', `sequencer queue is full: ${err.message}`);
        if (err.code === 'UNAVAILABLE') throw new ApiError(503, 'UNAVAILABLE', err.message);
        if (err.code === 'ALREADY_EXISTS' && onConflict) throw onConflict();
        throw new ApiError(400, 'BAD_REQUEST', `sequencer refused the transaction: ${err.message}`);
      }
      throw err;
    }
    return result;
  }

  /**
   * Hand `tx` to the sequencer together with the others submitted in the same turn of the
   * event loop: one submitBatch per turn (at most MAX_BATCH_TRANSACTIONS each) instead of
   * one submit per request. Resolves once this transaction is durable; rejects with its own
   * SubmitError (a refused item does not affect the others of its batch).
   */
  private submitCoalesced(tx: Transaction): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.submitQueue.push({ tx, resolve, reject });
      if (!this.submitScheduled) {
        this.submitScheduled = true;
        setImmediate(() => this.flushSubmits());
      }
    });
  }

  private flushSubmits(): void {
    this.submitScheduled = false;
    const queue = this.submitQueue;
    this.submitQueue = [];
    for (let i = 0; i < queue.length; i += MAX_BATCH_TRANSACTIONS) {
      const part = queue.slice(i, i + MAX_BATCH_TRANSACTIONS);
      if (part.length === 1) {
        const q = part[0]!;
        this.sequencer.submit(q.tx).then(() => q.resolve(), q.reject);
        continue;
      }
      let batch: Promise<Array<unknown>>;
      try {
        batch = this.sequencer.submitBatch(part.map((q) => q.tx));
      } catch (err) {
        batch = Promise.reject(err);
      }
      batch.then(
        (results) =>
          part.forEach((q, j) => {
            const r = results[j];
            if (r instanceof Error) q.reject(r);
            else q.resolve();
          }),
        (err: unknown) => part.forEach((q) => q.reject(err)),
      );
    }
  }

  async createMarket(baseMint: Uint8Array, quoteMint: Uint8Array, name: string, kind: MarketKind): Promise<MarketView> {
    const bad = DexState.checkMarket({ baseMint, quoteMint, name, marketKind: kind });
    if (bad) throw new ApiError(400, 'INVALID_MARKET', bad);
    if (this.state.findPair(baseMint, quoteMint)) throw new ApiError(409, 'DUPLICATE_MARKET', 'a market for this pair already exists');
    const tx = toTransaction('market', encodeCreateMarket({ baseMint, quoteMint, name, marketKind: kind }));
    const { applied } = await this.submitAndWait(tx);
    const o = applied.outcome;
    if (!o.ok) throw apiErrorOf(o.code, o.message);
    if (o.kind !== 'market') throw new ApiError(500, 'INTERNAL', 'unexpected outcome');
    return marketView(o.market);
  }

  async placeOrder(intent: OrderIntent, signature: Uint8Array): Promise<OrderResult> {
    if (!this.state.findMarketFor(intent.baseMint, intent.quoteMint)) throw new ApiError(404, 'UNKNOWN_MARKET', 'no market for this base_mint/quote_mint');
    if (intent.expiry !== 0n && intent.expiry * 1000n <= BigInt(Date.now())) throw new ApiError(400, 'ORDER_EXPIRED', 'order has expired');
    const key = ownerKeyOf(intent.owner) + intent.orderId.toString();
    if (this.inflight.has(key) || this.state.findOrder(intent.owner, intent.orderId)) {
      throw new ApiError(409, 'ORDER_REPLAYED', 'order_id already used by this owner');
    }
    const message = orderMessage(intent, sha256);
    if (!(await this.verifier.verify(intent.owner, message, signature))) {
      throw new ApiError(401, 'BAD_SIGNATURE', 'signature does not verify for owner over the order intent');
    }
    if (this.inflight.has(key)) throw new ApiError(409, 'ORDER_REPLAYED', 'order_id already used by this owner');
    this.inflight.add(key);
    const tx = toTransaction('order', encodePlaceOrderIntent(intent, signature), intent.owner, signature, digestNonce(message));
    let res: { applied: Applied; signature?: Uint8Array };
    try {
      res = await this.submitAndWait(tx, () => new ApiError(409, 'ORDER_REPLAYED', 'order_id already used by this owner (refused by the sequencer)'));
    } catch (err) {
      this.inflight.delete(key);
      throw err;
    }
    const o = res.applied.outcome;
    if (!o.ok) throw apiErrorOf(o.code, o.message);
    if (o.kind !== 'order') throw new ApiError(500, 'INTERNAL', 'unexpected outcome');
    return {
      receipt: this.receipt(res.applied, res.signature!),
      status: o.result.status,
      filled_quantity: o.result.filled.toString(),
      remaining_quantity: (o.order.quantity - o.result.filled).toString(),
      trades: o.result.trades.map((t) => tradeView(o.market.info.marketId, t)),
    };
  }

  async cancelOrder(orderId: bigint, owner: Uint8Array, marketId: string, signature: Uint8Array): Promise<CancelResult> {
    const market = this.state.markets.get(marketId);
    if (!market) throw new ApiError(404, 'UNKNOWN_MARKET', 'unknown market_id');
    const message = cancelMessage({ orderId, owner, marketId }, sha256);
    if (!(await this.verifier.verify(owner, message, signature))) {
      throw new ApiError(401, 'BAD_SIGNATURE', 'signature does not verify for owner over the cancel data');
    }
    const order = this.state.findOrder(owner, orderId);
    if (!order || order.marketId !== marketId) throw new ApiError(404, 'UNKNOWN_ORDER', 'no such order of this owner in this market');
    if (!order.open) throw new ApiError(409, 'ORDER_NOT_OPEN', 'order is no longer open (filled, cancelled or expired)');
    const tx = toTransaction('cancel', encodeCancelPayload(orderId, owner, marketId, signature), owner, signature, digestNonce(message));
    const res = await this.submitAndWait(tx, () => new ApiError(409, 'ORDER_NOT_OPEN', 'this cancel was already submitted'));
    const o = res.applied.outcome;
    if (!o.ok) throw apiErrorOf(o.code, o.message);
    if (o.kind !== 'cancel') throw new ApiError(500, 'INTERNAL', 'unexpected outcome');
    return { receipt: this.receipt(res.applied, res.signature!), order_id: orderId.toString(), cancelled_quantity: o.cancelled.toString() };
  }
}
