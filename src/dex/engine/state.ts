/**
 * The order book's whole replicated state and its transition function: markets, one
 * OrderBook per market, and every (owner, order_id) ever used. `apply` takes a decoded
 * wire transaction, whether its signature verified, and the tick context, and returns
 * what happened. It reads no clock and does no I/O, so replaying the same ticks on any
 * node yields the same markets, books, trades and roots.
 *
 * It also keeps the state root over all of it incrementally (commitment.ts): a markets
 * tree whose leaves carry each book's root, and an append-only tree of used order ids;
 * `stateRoot()` rehashes only what changed since the last call.
 */
import { Buffer } from 'node:buffer';
import { sha256 } from '../../crypto/index.js';
import { marketIdOf } from '../../core/index.js';
import { OrderBook } from './book.js';
import { AppendOnlyMerkle, combineStateRoot, encodeMarketLeaf, encodeUsedIdLeaf } from './commitment.js';
import { encodeLeaf } from './leaf.js';
import { SlotTree } from './slot-tree.js';
import {
  BUY,
  SELL,
  type BookOrder,
  type MarketInfo,
  type PlaceResult,
  type TickContext,
  type Trade,
} from './interface.js';
import type { CancelAllTx, CancelOrderTx, CreateMarketTx, DexTx, PlaceOrderTx } from './codec.js';

export type DexErrorCode =
  | 'MALFORMED'
  | 'INVALID_MARKET'
  | 'DUPLICATE_MARKET'
  | 'UNKNOWN_MARKET'
  | 'INVALID_ORDER'
  | 'ORDER_EXPIRED'
  | 'ORDER_REPLAYED'
  | 'BAD_SIGNATURE'
  | 'UNKNOWN_ORDER'
  | 'ORDER_NOT_OPEN'
  | 'CANCEL_ALL_REPLAYED';

export interface Market {
  index: number; // creation order, from 0: the market's slot in the markets tree
  info: MarketInfo;
  cancelledTag: string; // `${marketId}:cancelled`, the closed entry of a cancelled order
  book: OrderBook;
  trades: Trade[]; // recent trades, oldest first, at most TRADE_HISTORY
}

export type Outcome =
  | { ok: true; kind: 'market'; market: Market }
  | { ok: true; kind: 'order'; market: Market; order: BookOrder; result: PlaceResult }
  | { ok: true; kind: 'cancel'; market: Market; order: BookOrder; cancelled: bigint }
  | { ok: true; kind: 'cancel_all'; market: Market; ended: CancelledOrder[] }
  | { ok: false; code: DexErrorCode; message: string };

/** An order a mass cancel ended, with the quantity that was still resting. */
export interface CancelledOrder {
  order: BookOrder;
  cancelled: bigint;
}

export const TRADE_HISTORY = 1000;

export interface OwnerState {
  owner: Uint8Array;
  /**
   * order_id -> the order while it may be open; once closed, its market's id, or the
   * market's `cancelledTag` when a cancel closed it (strings shared per market).
   */
  orders: Map<bigint, BookOrder | string>;
  /** The owner's resting orders (for /orders/user/:owner without scanning every used id). */
  open: Set<BookOrder>;
  /** The request ids of this owner's applied mass cancels: each usable once, ever (absent: none yet). */
  cancelAllIds?: Set<bigint>;
}

export function ownerKeyOf(owner: Uint8Array): string {
  return Buffer.from(owner.buffer, owner.byteOffset, owner.byteLength).toString('latin1');
}

function pairKey(a: Uint8Array, b: Uint8Array): string {
  const ka = ownerKeyOf(a);
  const kb = ownerKeyOf(b);
  return ka < kb ? ka + kb : kb + ka;
}

const CANCELLED_SUFFIX = ':cancelled';

export function cancelledTagOf(marketId: string): string {
  return marketId + CANCELLED_SUFFIX;
}

/** A closed entry of an owner's order map: its market and whether a cancel closed it. */
export function closedEntry(entry: string): { marketId: string; open: false; cancelled: boolean } {
  return entry.endsWith(CANCELLED_SUFFIX)
    ? { marketId: entry.slice(0, -CANCELLED_SUFFIX.length), open: false, cancelled: true }
    : { marketId: entry, open: false, cancelled: false };
}

function fail(code: DexErrorCode, message: string): Outcome {
  return { ok: false, code, message };
}

export class DexState {
  readonly markets = new Map<string, Market>();
  private readonly byPair = new Map<string, Market>(); // unordered pair -> market
  private readonly byOrientedPair = new Map<string, Market>(); // base||quote -> market
  /**
   * owner -> its bytes (shared by all its orders) and order_id -> the order while it may
   * be open, or, once closed, just the id of its market (a string shared with the market):
   * every id ever used stays remembered for replay protection, at the cost of one Map entry.
   */
  private readonly owners = new Map<string, OwnerState>();
  /** Markets in creation order (index = slot in the markets tree). */
  private readonly byIndex: Market[] = [];
  private readonly marketsTree = new SlotTree((slot) => {
    const m = this.byIndex[slot];
    return m === undefined ? undefined : encodeMarketLeaf(m.info, m.book.root(), m.book.tree.size, m.book.nextTrade);
  });
  private readonly dirtyMarkets = new Set<Market>();
  private usedIds = new AppendOnlyMerkle();
  lastTick = 0;
  lastSeq = 0n;

  /**
   * The state root after everything applied so far (docs/chain.md "State root"): rehashes
   * the changed orders' leaves, the changed markets' leaves and their paths, nothing else.
   */
  stateRoot(): Uint8Array {
    for (const m of this.dirtyMarkets) this.marketsTree.touch(m.index);
    this.dirtyMarkets.clear();
    return combineStateRoot(
      this.marketsTree.root(),
      this.marketsTree.size,
      this.byIndex.length,
      this.usedIds.root(),
      this.usedIds.count,
    );
  }

  /** The markets tree's root and size alone (docs/chain.md). */
  marketsRoot(): { root: Uint8Array; size: number } {
    this.stateRoot();
    return { root: this.marketsTree.root(), size: this.marketsTree.size };
  }

  /** Number of (owner, order_id) pairs ever used. */
  get usedIdCount(): number {
    return this.usedIds.count;
  }

  /** Root of the used-id tree alone (docs/chain.md). */
  usedIdsRoot(): Uint8Array {
    return this.usedIds.root();
  }

  /** The markets in creation order. */
  marketList(): readonly Market[] {
    return this.byIndex;
  }

  /** An owner's resting orders, in continuum_sequence order. */
  openOrdersOf(owner: Uint8Array): BookOrder[] {
    const mine = this.owners.get(ownerKeyOf(owner));
    if (!mine) return [];
    return [...mine.open].sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  }

  /** Whether this owner ever used an order id (for a 404 that says "unknown owner"). */
  knowsOwner(owner: Uint8Array): boolean {
    return this.owners.has(ownerKeyOf(owner));
  }

  /** Apply one order book transaction. `verified`: its owner signature checked out. */
  apply(tx: DexTx, verified: boolean, ctx: TickContext): Outcome {
    const seq = (BigInt(ctx.tickNumber) << 32n) | BigInt(ctx.index);
    this.lastTick = ctx.tickNumber;
    this.lastSeq = seq;
    switch (tx.kind) {
      case 'market':
        return this.createMarket(tx, seq, ctx);
      case 'order':
        if (!verified) return fail('BAD_SIGNATURE', 'order signature does not verify for its owner');
        return this.placeOrder(tx, seq, ctx);
      case 'cancel':
        if (!verified) return fail('BAD_SIGNATURE', 'cancel signature does not verify for its owner');
        return this.cancelOrder(tx, seq, ctx);
      case 'cancel_all':
        if (!verified) return fail('BAD_SIGNATURE', 'mass cancel signature does not verify for its owner');
        return this.cancelAll(tx, seq, ctx);
    }
  }

  /** Checks of a market creation that need no state (shared with the HTTP front-end). */
  static checkMarket(tx: Omit<CreateMarketTx, 'kind'>): string | undefined {
    if (Buffer.compare(tx.baseMint, tx.quoteMint) === 0) return 'base_mint and quote_mint must differ';
    const nameBytes = Buffer.byteLength(tx.name, 'utf8');
    if (nameBytes < 1 || nameBytes > 64) return 'name must be 1..64 bytes of UTF-8';
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    if (/[\u0000-\u001f\u007f]/.test(tx.name)) return 'name must not contain control characters';
    return undefined;
  }

  findPair(base: Uint8Array, quote: Uint8Array): Market | undefined {
    return this.byPair.get(pairKey(base, quote));
  }

  findMarketFor(base: Uint8Array, quote: Uint8Array): Market | undefined {
    return this.byOrientedPair.get(ownerKeyOf(base) + ownerKeyOf(quote));
  }

  /** What became of this owner's order id: undefined if never used, else its market and whether it is open. */
  findOrder(
    owner: Uint8Array,
    orderId: bigint,
  ): { marketId: string; open: boolean; cancelled: boolean; order?: BookOrder } | undefined {
    const entry = this.owners.get(ownerKeyOf(owner))?.orders.get(orderId);
    if (entry === undefined) return undefined;
    if (typeof entry === 'string') return closedEntry(entry);
    return { marketId: entry.marketId, open: entry.open, cancelled: false, order: entry };
  }

  /** Forget the order object of a closed order, keeping its id as used. */
  private retire(o: BookOrder, cancelled = false): void {
    const mine = this.owners.get(o.ownerKey);
    if (!mine) return;
    mine.orders.set(o.orderId, cancelled ? this.markets.get(o.marketId)!.cancelledTag : o.marketId);
    mine.open.delete(o);
  }

  private createMarket(tx: CreateMarketTx, seq: bigint, ctx: TickContext): Outcome {
    const bad = DexState.checkMarket(tx);
    if (bad) return fail('INVALID_MARKET', bad);
    const key = pairKey(tx.baseMint, tx.quoteMint);
    if (this.byPair.has(key)) return fail('DUPLICATE_MARKET', 'a market for this pair already exists');
    const info: MarketInfo = {
      marketId: marketIdOf(tx.baseMint, tx.quoteMint, sha256),
      baseMint: tx.baseMint.slice(),
      quoteMint: tx.quoteMint.slice(),
      name: tx.name,
      kind: tx.marketKind,
      createdTick: ctx.tickNumber,
      createdSeq: seq,
    };
    const market: Market = {
      index: this.byIndex.length,
      info,
      cancelledTag: cancelledTagOf(info.marketId),
      book: new OrderBook(encodeLeaf),
      trades: [],
    };
    this.addMarket(market);
    return { ok: true, kind: 'market', market };
  }

  private addMarket(market: Market): void {
    const info = market.info;
    const key = pairKey(info.baseMint, info.quoteMint);
    this.byIndex.push(market);
    if (this.marketsTree.allocate() !== market.index) throw new Error('markets tree out of step with the market list');
    this.dirtyMarkets.add(market);
    this.markets.set(info.marketId, market);
    this.byPair.set(key, market);
    this.byOrientedPair.set(ownerKeyOf(info.baseMint) + ownerKeyOf(info.quoteMint), market);
  }

  private placeOrder(tx: PlaceOrderTx, seq: bigint, ctx: TickContext): Outcome {
    const it = tx.intent;
    const market = this.byOrientedPair.get(ownerKeyOf(it.baseMint) + ownerKeyOf(it.quoteMint));
    if (!market) return fail('UNKNOWN_MARKET', 'no market for this base_mint/quote_mint');
    if (it.price === 0n) return fail('INVALID_ORDER', 'price must be > 0');
    if (it.quantity === 0n) return fail('INVALID_ORDER', 'quantity must be > 0');
    if (it.expiry < 0n) return fail('INVALID_ORDER', 'expiry must be >= 0 (0 = none)');
    if (it.expiry !== 0n && it.expiry * 1000n <= BigInt(ctx.timestampMs))
      return fail('ORDER_EXPIRED', 'order expired before it was sequenced');
    const ownerKey = ownerKeyOf(it.owner);
    let mine = this.owners.get(ownerKey);
    if (mine === undefined) {
      mine = { owner: it.owner.slice(), orders: new Map(), open: new Set() };
      this.owners.set(ownerKey, mine);
    } else if (mine.orders.has(it.orderId)) {
      return fail('ORDER_REPLAYED', 'order_id already used by this owner');
    }
    const order: BookOrder = {
      seq,
      marketId: market.info.marketId,
      orderId: it.orderId,
      owner: mine.owner,
      ownerKey,
      side: it.side === 'Buy' ? BUY : SELL,
      price: it.price,
      quantity: it.quantity,
      remaining: it.quantity,
      expiry: it.expiry,
      slot: -1,
      open: false,
    };
    mine.orders.set(it.orderId, order);
    this.usedIds.append(encodeUsedIdLeaf(mine.owner, it.orderId));
    this.dirtyMarkets.add(market);
    const result = market.book.place(order, ctx.tickNumber, ctx.timestampMs);
    if (result.trades.length > 0) {
      const t = market.trades;
      for (const trade of result.trades) {
        t.push(trade);
        if (!trade.maker.open) this.retire(trade.maker);
      }
      if (t.length > TRADE_HISTORY * 2) t.splice(0, t.length - TRADE_HISTORY);
    }
    for (const r of result.removals) this.retire(r.order);
    if (!order.open) this.retire(order);
    else mine.open.add(order);
    return { ok: true, kind: 'order', market, order, result };
  }

  private cancelOrder(tx: CancelOrderTx, seq: bigint, ctx: TickContext): Outcome {
    const market = this.markets.get(tx.marketId);
    if (!market) return fail('UNKNOWN_MARKET', 'unknown market_id');
    const found = this.findOrder(tx.owner, tx.orderId);
    if (!found || found.marketId !== market.info.marketId) {
      return fail('UNKNOWN_ORDER', 'no such order of this owner in this market');
    }
    if (!found.open || !found.order)
      return fail('ORDER_NOT_OPEN', 'order is no longer open (filled, cancelled or expired)');
    const order = found.order;
    this.dirtyMarkets.add(market);
    const cancelled = market.book.cancel(order, seq, ctx.tickNumber);
    this.retire(order, true);
    return { ok: true, kind: 'cancel', market, order, cancelled };
  }

  /** Whether this owner's mass cancel `requestId` was already applied (each id is usable once, ever). */
  cancelAllUsed(owner: Uint8Array, requestId: bigint): boolean {
    return this.owners.get(ownerKeyOf(owner))?.cancelAllIds?.has(requestId) ?? false;
  }

  /**
   * A mass cancel: every order of the owner in the market (on one side, or both) that is
   * open at this point of the sequence, in continuum_sequence order. None open is a valid
   * outcome (an empty list); the request id is spent either way. Refusals change nothing.
   */
  private cancelAll(tx: CancelAllTx, seq: bigint, ctx: TickContext): Outcome {
    const market = this.markets.get(tx.marketId);
    if (!market) return fail('UNKNOWN_MARKET', 'unknown market_id');
    const ownerKey = ownerKeyOf(tx.owner);
    let mine = this.owners.get(ownerKey);
    if (mine?.cancelAllIds?.has(tx.requestId)) {
      return fail('CANCEL_ALL_REPLAYED', 'request_id already used by this owner');
    }
    if (mine === undefined) {
      mine = { owner: tx.owner.slice(), orders: new Map(), open: new Set() };
      this.owners.set(ownerKey, mine);
    }
    (mine.cancelAllIds ??= new Set()).add(tx.requestId);
    const side = tx.side === undefined ? -1 : tx.side === 'Buy' ? BUY : SELL;
    const hit: BookOrder[] = [];
    for (const o of mine.open) if (o.marketId === tx.marketId && (side < 0 || o.side === side)) hit.push(o);
    hit.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
    const ended: CancelledOrder[] = new Array(hit.length);
    for (let i = 0; i < hit.length; i++) {
      const order = hit[i]!;
      ended[i] = { order, cancelled: market.book.cancel(order, seq, ctx.tickNumber) };
      this.retire(order, true);
    }
    if (hit.length > 0) this.dirtyMarkets.add(market);
    return { ok: true, kind: 'cancel_all', market, ended };
  }

  /** For proofs (docs/proofs.md): market `index`'s leaf (a copy) and its path to the current markets root. */
  marketMember(index: number): { entry: Uint8Array | undefined; path: Uint8Array[] } {
    this.stateRoot();
    return this.marketsTree.member(index);
  }

  /** For snapshot.ts: the parts a snapshot is made of (read-only use). */
  snapshotParts(): {
    markets: readonly Market[];
    owners: ReadonlyMap<string, OwnerState>;
    usedCount: number;
    usedFrontier: Uint8Array[];
  } {
    return {
      markets: this.byIndex,
      owners: this.owners,
      usedCount: this.usedIds.count,
      usedFrontier: this.usedIds.exportFrontier(),
    };
  }

  /** For snapshot.ts: a state made of restored parts (books already restored). */
  static restore(parts: {
    markets: Market[];
    owners: Map<string, OwnerState>;
    usedCount: number;
    usedFrontier: Uint8Array[];
    lastTick: number;
    lastSeq: bigint;
  }): DexState {
    const s = new DexState();
    for (const m of parts.markets) s.addMarket(m);
    for (const [k, v] of parts.owners) s.owners.set(k, v);
    s.usedIds = AppendOnlyMerkle.restore(parts.usedCount, parts.usedFrontier);
    s.lastTick = parts.lastTick;
    s.lastSeq = parts.lastSeq;
    return s;
  }
}
