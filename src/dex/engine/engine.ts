/**
 * The order book engine: a stored tick in, an applied-tick record out. Pure and
 * deterministic: the same ticks (and the same signature verdicts, which are a function
 * of the ticks' bytes) give the same records, books and state roots on every node.
 *
 *   prepareTick(tick)      decode the tick's order book transactions and list the owner
 *                          signatures still to check (those not already checked by this
 *                          node before it submitted them)
 *   (verification)         the caller's business: the ed25519 pool (applier.ts)
 *   engine.apply(prepared) apply in continuum_sequence order -> AppliedTick
 *
 * The record is everything consumers need (the HTTP face's receipts, the chain's blocks,
 * transactions and events): each transaction's outcome, the trades, per-market activity
 * and the state root after the tick. It holds live engine objects (markets, orders):
 * read them when the record is delivered, before the next tick is applied.
 */
import { sha256 } from '../../crypto/index.js';
import { CANCEL_ALL_PREFIX, CANCEL_PREFIX, ORDER_PREFIX, signingMessage } from '../../core/index.js';
import type { OrderedTransaction, Tick } from '../../core/index.js';
import { DexState, type Market, type Outcome } from './state.js';
import { decodePayload, type DexTx } from './codec.js';

/** One owner signature to check: ed25519 over `message` by `publicKey`. */
export interface SignatureCheck {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

/** A tick decoded for the engine; each item's `verified` is filled in before apply. */
export interface PreparedTick {
  tick: Tick;
  /** One entry per order book transaction of the tick (others are skipped). */
  items: PreparedTx[];
  /** Signatures still to check, and which item each belongs to. */
  toVerify: SignatureCheck[];
  verifyAt: number[];
}

export interface PreparedTx {
  index: number; // index of the transaction in its tick
  otx: OrderedTransaction;
  tx: DexTx;
  verified: boolean;
}

/** What applying one order book transaction did. */
export interface AppliedTx {
  index: number; // index in the tick
  otx: OrderedTransaction;
  tx: DexTx;
  verified: boolean;
  outcome: Outcome;
  continuumSequence: bigint; // (tick_number << 32) | index
  /** Root of the transaction's market right after it, when the caller asked (receipts). */
  marketRoot?: Uint8Array;
}

/** Per market touched by a tick: counts over its successful transactions. */
export interface MarketActivity {
  market: Market;
  created: boolean; // the market was created in this tick
  orders: number; // accepted orders
  cancels: number; // successful cancels and mass cancels
  matchedOrders: number; // accepted orders that traded on arrival
  trades: number;
}

export interface AppliedTick {
  tick: Tick;
  timestampMs: number;
  txs: AppliedTx[]; // every order book transaction of the tick, in order, with its outcome
  markets: MarketActivity[]; // in order of first touch within the tick
  /**
   * The state root after the tick (docs/chain.md). Computed on demand (it costs hashes the
   * chain needs only once per block), so call it while the record is delivered, before
   * the next tick is applied; later calls throw.
   */
  stateRoot(): Uint8Array;
  /** The state root before the tick, when asked for (ApplyOptions.rootBefore). */
  rootBefore?: Uint8Array;
  replayed: boolean; // applied while the node rebuilt its state at start
}

export interface ApplyOptions {
  /** Compute the market root right after this transaction (for a receipt). */
  needRoot?(otx: OrderedTransaction): boolean;
  /** Also give the state root before the tick (the chain's block that the tick closes). */
  rootBefore?: boolean;
  replayed?: boolean;
}

/** Decode a tick; `isVerified` says which signatures this node already checked. */
export function prepareTick(tick: Tick, isVerified: (otx: OrderedTransaction) => boolean = () => false): PreparedTick {
  const items: PreparedTx[] = [];
  const toVerify: SignatureCheck[] = [];
  const verifyAt: number[] = [];
  const txs = tick.transactions;
  for (let i = 0; i < txs.length; i++) {
    const otx = txs[i]!;
    const d = decodePayload(otx.transaction.payload);
    if (d === undefined || d.kind === 'malformed') continue;
    if (d.kind === 'market' || isVerified(otx)) {
      items.push({ index: i, otx, tx: d, verified: true }); // markets are unsigned
      continue;
    }
    const prefix = d.kind === 'order' ? ORDER_PREFIX : d.kind === 'cancel' ? CANCEL_PREFIX : CANCEL_ALL_PREFIX;
    const message = signingMessage(prefix, d.borsh, sha256);
    toVerify.push({ publicKey: d.kind === 'order' ? d.intent.owner : d.owner, message, signature: d.signature });
    verifyAt.push(items.length);
    items.push({ index: i, otx, tx: d, verified: false });
  }
  return { tick, items, toVerify, verifyAt };
}

/** Put the verdicts of `toVerify` (same order) into the prepared items. */
export function setVerdicts(p: PreparedTick, verdicts: readonly boolean[]): void {
  if (verdicts.length !== p.verifyAt.length)
    throw new Error(`expected ${p.verifyAt.length} verdicts, got ${verdicts.length}`);
  for (let k = 0; k < verdicts.length; k++) p.items[p.verifyAt[k]!]!.verified = verdicts[k]!;
}

export class OrderBookEngine {
  /** The root of the current state, once computed (cleared by any change). */
  private root: Uint8Array | undefined;
  private applied = 0;

  constructor(readonly state: DexState = new DexState()) {}

  get lastTick(): number {
    return this.state.lastTick;
  }

  /** The state root after the last applied tick (incremental: rehashes what changed). */
  stateRoot(): Uint8Array {
    this.root ??= this.state.stateRoot();
    return this.root;
  }

  /** Apply a prepared (and verified) tick. Ticks must come in order, each once. */
  apply(p: PreparedTick, options: ApplyOptions = {}): AppliedTick {
    const tick = p.tick;
    if (tick.tickNumber <= this.state.lastTick)
      throw new Error(`tick ${tick.tickNumber} was already applied (last ${this.state.lastTick})`);
    const timestampMs = Math.floor(tick.timestamp / 1000);
    const rootBefore = options.rootBefore ? this.stateRoot() : undefined;
    const txs: AppliedTx[] = new Array(p.items.length);
    const activity = new Map<Market, MarketActivity>();
    const needRoot = options.needRoot;
    for (let k = 0; k < p.items.length; k++) {
      const it = p.items[k]!;
      const outcome = this.state.apply(it.tx, it.verified, {
        tickNumber: tick.tickNumber,
        timestampMs,
        index: it.index,
      });
      const applied: AppliedTx = {
        index: it.index,
        otx: it.otx,
        tx: it.tx,
        verified: it.verified,
        outcome,
        continuumSequence: (BigInt(tick.tickNumber) << 32n) | BigInt(it.index),
      };
      if (outcome.ok) {
        let a = activity.get(outcome.market);
        if (a === undefined) {
          a = { market: outcome.market, created: false, orders: 0, cancels: 0, matchedOrders: 0, trades: 0 };
          activity.set(outcome.market, a);
        }
        if (outcome.kind === 'market') a.created = true;
        else if (outcome.kind === 'cancel') a.cancels++;
        else if (outcome.kind === 'cancel_all') a.cancels++;
        else {
          a.orders++;
          const n = outcome.result.trades.length;
          if (n > 0) {
            a.matchedOrders++;
            a.trades += n;
          }
        }
        if (outcome.kind !== 'market' && needRoot?.(it.otx)) applied.marketRoot = outcome.market.book.root();
      }
      txs[k] = applied;
    }
    this.state.lastTick = tick.tickNumber;
    if (p.items.length > 0) this.root = undefined;
    const generation = ++this.applied;
    const stateRoot = (): Uint8Array => {
      if (generation !== this.applied)
        throw new Error(`the state root of tick ${tick.tickNumber} is gone: a later tick was applied`);
      return this.stateRoot();
    };
    const record: AppliedTick = {
      tick,
      timestampMs,
      txs,
      markets: [...activity.values()],
      stateRoot,
      replayed: options.replayed ?? false,
    };
    if (rootBefore) record.rootBefore = rootBefore;
    return record;
  }
}
