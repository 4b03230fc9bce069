/**
 * The order entry: the write path into the order book, shared by the HTTP face (spec/2),
 * the gateway processes' channel and the chain's gRPC SubmitTx: check a market creation, a
 * signed order or a signed cancel against the current state, verify the owner signature
 * (ed25519 pool), wrap it in a sequencer Transaction (engine/codec.ts, the order's Borsh
 * encoded once for both its signing digest and its payload), submit it, and wait until
 * its tick is durable AND applied; the
 * answer is the engine's outcome for it. Refusals are ApiErrors with a stable code that
 * each face maps to its own status (HTTP status, gRPC code).
 *
 * Submissions of one turn of the event loop reach the sequencer as one submitBatch (at
 * most MAX_BATCH_TRANSACTIONS each); each keeps its own answer.
 *
 * Arrival order (docs/dex-api.md "Arrival order"): a request takes its place in one line
 * when it reaches this process's main thread, and is handed to the sequencer in that
 * order even when its signature check (the pool) finishes after a later one's. A cancel is
 * judged against everything handed on before it: an order still in flight (sequenced or
 * about to be, not yet applied) is not UNKNOWN_ORDER; the cancel is sequenced after it and
 * the engine judges it when applied. A mass cancel (cancelAll) needs no such wait: it ends
 * whatever of its owner is open where it is sequenced, so it is judged in sequence order.
 *
 * Shedding (fair-share.ts): at most `maxPending` requests pending, shared fairly between
 * client addresses, and a request that waited longer than `maxWaitMs` before its hand-off
 * is refused QUEUE_FULL and never submitted.
 */
import { sha256 } from '../crypto/index.js';
import { bytesEqual } from '../crypto/index.js';
import {
  CANCEL_PREFIX,
  encodeCancelOrderData,
  encodeOrderIntent,
  ORDER_PREFIX,
  signingMessage,
  type OrderIntent,
} from '../core/index.js';
import { CANCEL_ALL_PREFIX, encodeCancelAllData, type CancelAllData } from '../core/index.js';
// The sequencer's surface (interface.ts), not its door: a gateway process takes this file and needs no sequencer.
import { MAX_BATCH_TRANSACTIONS, SubmitError, type Sequencer } from '../sequencer/interface.js';
import { ArrivalQueue } from '../intake/index.js';
import type { OrderedTransaction, Tick, Transaction } from '../core/index.js';
import type { TickApplier } from './applier.js';
import type { CheckedSubmissions } from './checked.js';
import type { AppliedTick, AppliedTx } from './engine/index.js';
import { DexRefusal } from './errors.js';
import type { MarketKind } from './engine/index.js';
import { DexState, ownerKeyOf, type Market, type Outcome } from './engine/index.js';
import { encodeCancelOrder, encodeCreateMarket, encodePlaceOrder, toTransaction } from './engine/index.js';
import { encodeCancelAll } from './engine/index.js';
import { FairShare, UNNAMED_ADDRESS, type ShedLimits } from './fair-share.js';

export const WAIT_TIMEOUT_MS = 30_000;

/** One ed25519 check (the pool-backed BatchVerifier in the node). */
export interface SingleVerifier {
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean>;
}

/** A submission applied by the engine: its record and tick. */
export interface Submitted {
  applied: AppliedTx;
  tick: Tick;
}

/** A mass cancel applied by the engine. */
export type CancelAllApplied = Submitted & { outcome: OkOutcome<'cancel_all'> };

/** Success outcomes narrowed by kind. */
export type OkOutcome<K extends Kind> = Extract<Outcome, { ok: true; kind: K }>;

export interface SubmitOptions {
  /** Ask the engine for the market root right after this transaction (receipts). */
  root?: boolean;
  /** The client's address, for the fair share (none: the unnamed share). */
  from?: string;
  /** A cancel is judged at once, never held for its order to arrive (its order came earlier in the same batch). */
  judgeNow?: boolean;
}

/**
 * The nonce of an order's or cancel's Transaction: the first 8 bytes of its signing digest.
 * The sequencer refuses a second transaction with the same (public_key, nonce), so the
 * same signed order or cancel sent twice is refused there too; and since only the owner's
 * signed bytes determine it, nobody can burn an owner's order ids by submitting junk with
 * guessed (owner, nonce) pairs (as they could if the nonce were the order_id).
 */
export function digestNonce(message: Uint8Array): bigint {
  return BigInt(`0x${new TextDecoder().decode(message.subarray(0, 16))}`);
}

interface QueuedSubmit {
  tx: Transaction;
  from: string;
  arrived: number; // performance.now() when the request was ready: taken, its signature checked
  resolve(): void;
  reject(err: unknown): void;
}

interface Waiter {
  payload: Uint8Array;
  root: boolean;
  resolve(s: Submitted): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export class OrderEntry {
  private readonly waiters = new Map<string, Waiter>();
  /** ownerKey + order id -> market id, of orders handed to the sequencer and not applied yet. */
  private readonly inflight = new Map<string, string>();
  /** ownerKey + ':' + request id of mass cancels handed to the sequencer and not applied yet. */
  private readonly inflightCancelAll = new Set<string>();
  /** Requests in arrival order, whatever order their signature checks finish in. */
  private readonly line = new ArrivalQueue<() => Promise<unknown>, Promise<unknown>>((admit) => admit());
  private readonly share: FairShare;
  private readonly maxWaitMs: number;
  /** ownerKey + order id -> cancels waiting for that order to arrive (see submitCancel). */
  private readonly parked = new Map<string, Array<() => void>>();
  private submitQueue: QueuedSubmit[] = [];
  private submitScheduled = false;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly sequencer: Pick<Sequencer, 'submit' | 'submitBatch'>,
    private readonly applier: Pick<TickApplier, 'engine' | 'onApplied'>,
    private readonly verifier: SingleVerifier,
    /** Where a checked submission is noted, so the applier does not check it again. */
    private readonly checked: Pick<CheckedSubmissions, 'add' | 'forget'>,
    /** The shedding bounds (the node's: DEFAULT_MAX_PENDING / --max-pending, DEFAULT_MAX_WAIT_MS). */
    limits: ShedLimits,
  ) {
    this.unsubscribe = applier.onApplied((record) => this.onApplied(record));
    this.share = new FairShare(limits.maxPending);
    this.maxWaitMs = limits.maxWaitMs;
  }

  /** Requests pending now (taken, not yet answered), all addresses. */
  get pending(): number {
    return this.share.pending;
  }

  /** Places the fair share of `from` still has now (a batch needs one per item: src/dex/batch.ts). */
  roomFor(from?: string): number {
    return this.share.room(from ?? UNNAMED_ADDRESS);
  }

  /** Whether a receipt waits for this transaction: the applier's `rootAfter`. */
  readonly wantsRoot = (otx: OrderedTransaction): boolean => {
    const w = this.waiters.get(otx.transaction.txId);
    return w?.root === true && bytesEqual(w.payload, otx.transaction.payload);
  };

  get state(): DexState {
    return this.applier.engine.state;
  }

  /** Refuse new submissions (UNAVAILABLE) and fail the waiting ones. */
  close(): void {
    this.closed = true;
    this.unsubscribe();
    for (const [id, w] of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new DexRefusal('UNAVAILABLE', 'order book is shutting down'));
      this.waiters.delete(id);
    }
  }

  private onApplied(record: AppliedTick): void {
    for (const a of record.txs) {
      if (a.tx.kind === 'order') this.inflight.delete(ownerKeyOf(a.tx.intent.owner) + a.tx.intent.orderId.toString());
      else if (a.tx.kind === 'cancel_all') this.inflightCancelAll.delete(cancelAllKey(a.tx.owner, a.tx.requestId));
      const w = this.waiters.get(a.otx.transaction.txId);
      if (w === undefined || !bytesEqual(w.payload, a.otx.transaction.payload)) continue;
      this.waiters.delete(a.otx.transaction.txId);
      clearTimeout(w.timer);
      w.resolve({ applied: a, tick: record.tick });
    }
  }

  async createMarket(
    baseMint: Uint8Array,
    quoteMint: Uint8Array,
    name: string,
    kind: MarketKind,
  ): Promise<Submitted & { outcome: OkOutcome<'market'> }> {
    const bad = DexState.checkMarket({ baseMint, quoteMint, name, marketKind: kind });
    if (bad) throw new DexRefusal('INVALID_MARKET', bad);
    if (this.state.findPair(baseMint, quoteMint))
      throw new DexRefusal('DUPLICATE_MARKET', 'a market for this pair already exists');
    const tx = toTransaction('market', encodeCreateMarket({ baseMint, quoteMint, name, marketKind: kind }));
    return this.shed({}, async (arrived) => {
      const s = await this.inLine(() => this.submitAndWait(tx, {}, arrived));
      return { ...s, outcome: expectOk(s.applied.outcome, 'market') };
    });
  }

  async placeOrder(
    intent: OrderIntent,
    signature: Uint8Array,
    options: SubmitOptions = {},
  ): Promise<Submitted & { outcome: OkOutcome<'order'> }> {
    const key = this.checkOrder(intent);
    return this.shed(options, () => {
      const intentBorsh = encodeOrderIntent(intent);
      const message = signingMessage(ORDER_PREFIX, intentBorsh, sha256);
      const tx = () =>
        toTransaction('order', encodePlaceOrder(intentBorsh, signature), intent.owner, signature, digestNonce(message));
      const verified = this.verifier.verify(intent.owner, message, signature);
      return this.inLine(verified.then((valid) => readyNow((at) => this.submitOrder(key, valid, tx, options, at))));
    });
  }

  /**
   * An order a gateway process already parsed, encoded and checked the signature of
   * (src/dex/api/gateway): the same state checks and answers as placeOrder, in the same order, with
   * `signatureValid` standing for the ed25519 check and `payload`/`nonce` built there.
   */
  async placeChecked(
    intent: OrderIntent,
    payload: Uint8Array,
    nonce: bigint,
    signatureValid: boolean,
    options: SubmitOptions = {},
  ): Promise<Submitted & { outcome: OkOutcome<'order'> }> {
    const key = this.checkOrder(intent);
    const signature = payload.subarray(payload.length - 64);
    const tx = () => toTransaction('order', payload, intent.owner, signature, nonce);
    return this.shed(options, (arrived) =>
      this.inLine(() => this.submitOrder(key, signatureValid, tx, options, arrived)),
    );
  }

  /** The state checks of an order before its signature (404, 400, 409); the in-flight key and its market. */
  private checkOrder(intent: OrderIntent): InflightKey {
    const market = this.state.findMarketFor(intent.baseMint, intent.quoteMint);
    if (!market) throw new DexRefusal('UNKNOWN_MARKET', 'no market for this base_mint/quote_mint');
    if (intent.price === 0n || intent.quantity === 0n)
      throw new DexRefusal('INVALID_ORDER', 'price and quantity must be > 0');
    if (intent.expiry < 0n) throw new DexRefusal('INVALID_ORDER', 'expiry must be >= 0 (0 = none)');
    if (intent.expiry !== 0n && intent.expiry * 1000n <= BigInt(Date.now()))
      throw new DexRefusal('ORDER_EXPIRED', 'order has expired');
    const key = ownerKeyOf(intent.owner) + intent.orderId.toString();
    if (this.inflight.has(key) || this.state.findOrder(intent.owner, intent.orderId)) {
      throw new DexRefusal('ORDER_REPLAYED', 'order_id already used by this owner');
    }
    return { key, marketId: market.info.marketId };
  }

  /** In its turn of the line: handed to the sequencer (synchronously, up to the wait for its tick). */
  private async submitOrder(
    at: InflightKey,
    signatureValid: boolean,
    tx: () => Transaction,
    options: SubmitOptions,
    arrived: number,
  ): Promise<Submitted & { outcome: OkOutcome<'order'> }> {
    if (!signatureValid)
      throw new DexRefusal('BAD_SIGNATURE', 'signature does not verify for owner over the order intent');
    if (this.inflight.has(at.key)) throw new DexRefusal('ORDER_REPLAYED', 'order_id already used by this owner');
    this.inflight.set(at.key, at.marketId);
    try {
      const submitted = this.submitAndWait(
        tx(),
        options,
        arrived,
        () => new DexRefusal('ORDER_REPLAYED', 'order_id already used by this owner (refused by the sequencer)', true),
      );
      this.unpark(at.key); // after the order took its place in the hand-off: its cancels follow it
      const s = await submitted;
      return { ...s, outcome: expectOk(s.applied.outcome, 'order') };
    } catch (err) {
      this.inflight.delete(at.key);
      throw err;
    }
  }

  async cancelOrder(
    orderId: bigint,
    owner: Uint8Array,
    marketId: string,
    signature: Uint8Array,
    options: SubmitOptions = {},
  ): Promise<Submitted & { outcome: OkOutcome<'cancel'> }> {
    this.checkCancelMarket(marketId);
    return this.shed(options, () => {
      const cancelBorsh = encodeCancelOrderData({ orderId, owner, marketId });
      const message = signingMessage(CANCEL_PREFIX, cancelBorsh, sha256);
      const tx = () =>
        toTransaction('cancel', encodeCancelOrder(cancelBorsh, signature), owner, signature, digestNonce(message));
      const verified = this.verifier.verify(owner, message, signature);
      return this.inLine(
        verified.then((valid) => readyNow((at) => this.submitCancel(orderId, owner, marketId, valid, tx, options, at))),
      );
    });
  }

  /** A cancel a gateway process already parsed, encoded and checked (see placeChecked). */
  async cancelChecked(
    orderId: bigint,
    owner: Uint8Array,
    marketId: string,
    payload: Uint8Array,
    nonce: bigint,
    signatureValid: boolean,
    options: SubmitOptions = {},
  ): Promise<Submitted & { outcome: OkOutcome<'cancel'> }> {
    this.checkCancelMarket(marketId);
    const signature = payload.subarray(payload.length - 64);
    const tx = () => toTransaction('cancel', payload, owner, signature, nonce);
    return this.shed(options, (arrived) =>
      this.inLine(() => this.submitCancel(orderId, owner, marketId, signatureValid, tx, options, arrived)),
    );
  }

  private checkCancelMarket(marketId: string): void {
    const market: Market | undefined = this.state.markets.get(marketId);
    if (!market) throw new DexRefusal('UNKNOWN_MARKET', 'unknown market_id');
  }

  /**
   * In its turn of the line. Judged against the applied book and the orders handed on
   * before it: an order in flight is neither known nor unknown yet, so its cancel is
   * sequenced after it and the engine's verdict at apply time is the answer. A cancel of
   * an order this node has not received at all waits up to `maxWaitMs` for it (sent on
   * another connection it may be read later), then is judged again: UNKNOWN_ORDER if the
   * order still has not come.
   */
  private async submitCancel(
    orderId: bigint,
    owner: Uint8Array,
    marketId: string,
    signatureValid: boolean,
    tx: () => Transaction,
    options: SubmitOptions,
    arrived: number,
    parked = false,
  ): Promise<Submitted & { outcome: OkOutcome<'cancel'> }> {
    if (!signatureValid)
      throw new DexRefusal('BAD_SIGNATURE', 'signature does not verify for owner over the cancel data');
    const pendingIn = this.inflight.get(ownerKeyOf(owner) + orderId.toString());
    if (pendingIn === undefined) {
      const order = this.state.findOrder(owner, orderId);
      if (!order && !parked && options.judgeNow !== true)
        return this.park(ownerKeyOf(owner) + orderId.toString(), () =>
          this.submitCancel(orderId, owner, marketId, signatureValid, tx, options, performance.now(), true),
        );
      if (!order || order.marketId !== marketId)
        throw new DexRefusal('UNKNOWN_ORDER', 'no such order of this owner in this market');
      if (!order.open && order.cancelled) throw new DexRefusal('ORDER_NOT_OPEN', 'order was already cancelled', true);
      if (!order.open) throw new DexRefusal('ORDER_NOT_OPEN', 'order is no longer open (filled or expired)');
    } else if (pendingIn !== marketId) {
      throw new DexRefusal('UNKNOWN_ORDER', 'no such order of this owner in this market');
    }
    const s = await this.submitAndWait(
      tx(),
      options,
      arrived,
      () => new DexRefusal('ORDER_NOT_OPEN', 'this cancel was already submitted', true),
    );
    return { ...s, outcome: expectOk(s.applied.outcome, 'cancel') };
  }

  /** A mass cancel (docs/dex-api.md): its signature checked on the pool, then judged in its turn of the line. */
  async cancelAll(data: CancelAllData, signature: Uint8Array, options: SubmitOptions = {}): Promise<CancelAllApplied> {
    this.checkCancelMarket(data.marketId);
    return this.shed(options, () => {
      const borsh = encodeCancelAllData(data);
      const message = signingMessage(CANCEL_ALL_PREFIX, borsh, sha256);
      const nonce = digestNonce(message);
      const tx = () => toTransaction('cancel-all', encodeCancelAll(borsh, signature), data.owner, signature, nonce);
      const verified = this.verifier.verify(data.owner, message, signature);
      const admit = (valid: boolean) => readyNow((at) => this.submitCancelAll(data, valid, tx, options, at));
      return this.inLine(verified.then(admit));
    });
  }

  /** A mass cancel a gateway process or an intake thread already parsed, encoded and checked (see placeChecked). */
  async cancelAllChecked(
    data: CancelAllData,
    payload: Uint8Array,
    nonce: bigint,
    signatureValid: boolean,
    options: SubmitOptions = {},
  ): Promise<CancelAllApplied> {
    this.checkCancelMarket(data.marketId);
    const signature = payload.subarray(payload.length - 64);
    const tx = () => toTransaction('cancel-all', payload, data.owner, signature, nonce);
    const admit = (arrived: number) =>
      this.inLine(() => this.submitCancelAll(data, signatureValid, tx, options, arrived));
    return this.shed(options, admit);
  }

  /**
   * In its turn of the line: refused if its request id was applied or is in flight, else
   * sequenced; the engine cancels what of the owner is open at that point of the sequence.
   */
  private async submitCancelAll(
    data: CancelAllData,
    signatureValid: boolean,
    tx: () => Transaction,
    options: SubmitOptions,
    arrived: number,
  ): Promise<CancelAllApplied> {
    if (!signatureValid) {
      throw new DexRefusal('BAD_SIGNATURE', 'signature does not verify for owner over the mass cancel data');
    }
    const key = cancelAllKey(data.owner, data.requestId);
    const replayed = (): DexRefusal =>
      new DexRefusal('CANCEL_ALL_REPLAYED', 'request_id already used by this owner for a mass cancel', true);
    if (this.inflightCancelAll.has(key) || this.state.cancelAllUsed(data.owner, data.requestId)) throw replayed();
    this.inflightCancelAll.add(key);
    try {
      const s = await this.submitAndWait(tx(), options, arrived, replayed);
      return { ...s, outcome: expectOk(s.applied.outcome, 'cancel_all') };
    } finally {
      this.inflightCancelAll.delete(key);
    }
  }

  /**
   * Run `work` with a place in the fair share of `options.from`, or refuse at once
   * (QUEUE_FULL, nothing submitted). `work` gets the time it was taken (the wait bound
   * counts from there, or from its signature verdict where the check runs on the pool).
   */
  private async shed<T>(options: SubmitOptions, work: (arrived: number) => Promise<T>): Promise<T> {
    if (this.closed) throw new DexRefusal('UNAVAILABLE', 'order book is shutting down');
    const from = options.from ?? UNNAMED_ADDRESS;
    if (!this.share.enter(from)) {
      const n = this.share.shareFor(from);
      throw new DexRefusal(
        'QUEUE_FULL',
        `this client address already has ${n} requests pending (its fair share of ${this.share.maxPending}); retry later`,
      );
    }
    try {
      return await work(performance.now());
    } finally {
      this.share.leave(from);
    }
  }

  /** Take the next place in the arrival line; `admit` runs once every earlier request was handed on. */
  private inLine<T>(admit: (() => Promise<T>) | Promise<() => Promise<T>>): Promise<T> {
    return this.line.submit(admit) as Promise<T>;
  }

  /** Hold `judge` until the order `key` is handed on, or maxWaitMs passed; then run it. */
  private park<T>(key: string, judge: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const list = this.parked.get(key) ?? [];
      const release = (): void => {
        clearTimeout(timer);
        judge().then(resolve, reject);
      };
      const timer = setTimeout(() => {
        const now = this.parked.get(key);
        const i = now?.indexOf(release) ?? -1;
        if (now && i >= 0) now.splice(i, 1);
        if (now?.length === 0) this.parked.delete(key);
        release();
      }, this.maxWaitMs);
      list.push(release);
      this.parked.set(key, list);
    });
  }

  /** The order `key` was just handed on: the cancels waiting for it are judged now, after it. */
  private unpark(key: string): void {
    const list = this.parked.get(key);
    if (list === undefined) return;
    this.parked.delete(key);
    for (const release of list) release();
  }

  /**
   * Refuse (never submit) the requests that waited longer than maxWaitMs since they were
   * ready, from addresses with a backlog of their own (more than 2 and more than half of
   * their fair share pending): a client with a few requests pending is not refused for the node's
   * stall, which refusing it would not shorten. The rest go on.
   */
  private refuseLate(queue: QueuedSubmit[]): QueuedSubmit[] {
    const now = performance.now();
    const late = queue.filter(
      (q) => now - q.arrived > this.maxWaitMs && this.share.held(q.from) > Math.max(2, this.share.shareFor(q.from) / 2),
    );
    if (late.length === 0) return queue;
    for (const q of late) {
      const waited = Math.round(now - q.arrived);
      q.reject(
        new SubmitError(
          'RESOURCE_EXHAUSTED',
          `the node is overloaded: this request waited ${waited} ms (at most ${this.maxWaitMs}) before it could be sequenced; it was not; retry later`,
        ),
      );
    }
    const refused = new Set(late);
    return queue.filter((q) => !refused.has(q));
  }

  /** Submit and wait until the transaction's tick is durable and applied. */
  private async submitAndWait(
    tx: Transaction,
    options: SubmitOptions,
    arrived: number,
    onConflict?: () => DexRefusal,
  ): Promise<Submitted> {
    if (this.closed) throw new DexRefusal('UNAVAILABLE', 'order book is shutting down');
    // Orders and cancels were verified above; markets are unsigned.
    if (tx.signature.length > 0) this.checked.add(tx.txId, tx.payload);
    const result = new Promise<Submitted>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(tx.txId);
        this.checked.forget(tx.txId);
        reject(new DexRefusal('TIMEOUT', 'the transaction was accepted but its tick did not arrive in time'));
      }, WAIT_TIMEOUT_MS);
      this.waiters.set(tx.txId, { payload: tx.payload, root: options.root ?? false, timer, resolve, reject });
    });
    try {
      await this.submitCoalesced(tx, arrived, options.from ?? UNNAMED_ADDRESS);
    } catch (err) {
      const w = this.waiters.get(tx.txId);
      if (w) clearTimeout(w.timer);
      this.waiters.delete(tx.txId);
      this.checked.forget(tx.txId);
      result.catch(() => undefined);
      if (err instanceof SubmitError) {
        if (err.code === 'RESOURCE_EXHAUSTED') throw new DexRefusal('QUEUE_FULL', err.message);
        if (err.code === 'UNAVAILABLE') throw new DexRefusal('UNAVAILABLE', err.message);
        if (err.code === 'ALREADY_EXISTS' && onConflict) throw onConflict();
        throw new DexRefusal('BAD_REQUEST', `sequencer refused the transaction: ${err.message}`);
      }
      throw err;
    }
    return result;
  }

  /**
   * Hand `tx` to the sequencer together with the others submitted in the same turn of the
   * event loop. Resolves once this transaction is durable; rejects with its own SubmitError.
   */
  private submitCoalesced(tx: Transaction, arrived: number, from: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.submitQueue.push({ tx, arrived, from, resolve, reject });
      if (!this.submitScheduled) {
        this.submitScheduled = true;
        setImmediate(() => this.flushSubmits());
      }
    });
  }

  private flushSubmits(): void {
    this.submitScheduled = false;
    const queue = this.refuseLate(this.submitQueue);
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
}

/** The admit step of a request whose signature was just checked: its wait is bounded from now. */
function readyNow<T>(admit: (readyAt: number) => Promise<T>): () => Promise<T> {
  const at = performance.now();
  return () => admit(at);
}

function cancelAllKey(owner: Uint8Array, requestId: bigint): string {
  return `${ownerKeyOf(owner)}:${requestId}`;
}

/** An order's place among the orders in flight. */
interface InflightKey {
  key: string; // ownerKey + order id
  marketId: string;
}

type Kind = 'market' | 'order' | 'cancel' | 'cancel_all';

function expectOk<K extends Kind>(o: Outcome, kind: K): OkOutcome<K> {
  if (!o.ok) throw new DexRefusal(o.code, o.message);
  if (o.kind !== kind) throw new DexRefusal('INTERNAL', 'unexpected outcome');
  return o as OkOutcome<K>;
}
