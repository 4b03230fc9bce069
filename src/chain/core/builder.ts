/**
 * The block builder: applied-tick records in, chain records out. Pure and deterministic
 * (no clock, no I/O): every node that applies the same ticks builds the same blocks.
 *
 * Rule (docs/chain.md "Blocks"): a batch is the order book entries of one tick that
 * changed the state: accepted orders, successful cancels and mass cancels (the batch's
 * ExplorerTransactions) and created markets (its MarketCreations). Entries are numbered
 * together in tick order; that index is the last group of their ids.
 * Time is cut into windows of `blockMs` on the ticks' own timestamps:
 * window = floor(timestamp_us / (blockMs x 1000)). The open block collects the batches
 * of one window; the first tick (with or without a batch) whose window is later closes
 * it, and the block is produced; its state root is the engine's root before that tick
 * (= after the block's last batch), asked for through `closes()`. No empty blocks: a block opens with its first batch,
 * and gets its height right then (heights from 1), so a transaction's id
 * `{height}-{batch}-{index}` is known as soon as its tick is applied.
 *
 * Events: one per (batch, market) touched by the batch, in order of first touch. Each
 * event also gets a global ordinal and a per-market ordinal (from 1) for paging.
 */
import type { AppliedTick, AppliedTx, CancelAllTx, CancelOrderTx, PlaceOrderTx } from '../../dex/engine/index.js';
import { bytesToHex, sha256 } from '../../crypto/index.js';
import { toBase58Key } from '../../crypto/index.js';
import { formatId } from './ids.js';
import type { BatchSummary, BlockRecord, ExplorerEvent, ExplorerTransaction, MarketCreation } from './interface.js';

/** A stored batch: its transactions, market creations and events, with the events' ordinals. */
export interface BuiltBatch {
  tickNumber: number;
  height: number;
  batchIndex: number;
  batchHash: string;
  transactions: ExplorerTransaction[];
  markets: MarketCreation[];
  events: ExplorerEvent[];
  eventOrdinals: number[]; // global, from 1
  marketOrdinals: number[]; // per market, from 1
}

/** What one applied tick produced: maybe a block closed by it, maybe its own batch. */
export interface BuildStep {
  tickNumber: number;
  /** The block this tick closed (its batches came from earlier ticks). */
  cut?: BlockRecord;
  batch?: BuiltBatch;
}

interface OpenBlock {
  height: number;
  window: number;
  batches: BatchSummary[];
  transactionIds: string[];
  marketIds: string[];
  eventIds: string[];
  eventMarkets: string[];
  totalOrders: number;
  totalCancels: number;
  totalMarkets: number;
  appliedOrders: number;
  tradeCount: number;
  stateRoot: number[];
  lastTimestampUs: number;
  firstTick: number;
  lastTick: number;
  /** SHA-256 of lastTick's VDF output (hex): the block's anchor in the tick chain. */
  lastTickOutputHash: string;
}

/** The builder's whole state, JSON-serializable (bigints as decimal strings) for snapshots. */
export interface BuilderState {
  lastTick: number;
  lastHeight: number; // highest height handed out (the open block's, if any)
  producedHeight: number; // latest produced block
  producedRoot: number[];
  appliedBatches: number; // all batches so far, the open block's included
  producedBatches: number;
  producedTransactions: number;
  producedEvents: number;
  events: number; // ordinals handed out
  marketEvents: Record<string, number>; // per-market ordinals handed out
  producedMarketEvents: Record<string, number>;
  /** `marketIds` is absent in a state saved before market creations had their own records. */
  open?: Omit<OpenBlock, 'batches' | 'marketIds'> & { marketIds?: string[] } & {
    batches: Array<Omit<BatchSummary, 'continuum_sequences'> & { continuum_sequences: string[] }>;
  };
}

const ZERO_ROOT: number[] = new Array<number>(32).fill(0);

export class BlockBuilder {
  private s: BuilderState;
  private open: OpenBlock | undefined;
  private readonly windowUs: number;

  constructor(
    readonly blockMs: number,
    state?: BuilderState,
  ) {
    if (!Number.isInteger(blockMs) || blockMs < 1) throw new RangeError('blockMs must be a positive integer');
    this.windowUs = blockMs * 1000;
    this.s = state ? structuredClone(state) : emptyState();
    const o = this.s.open;
    if (o && typeof o.lastTickOutputHash !== 'string')
      throw new Error(
        'block builder: a snapshot made before blocks anchored their ticks (no lastTickOutputHash); the chain records must be rebuilt from the ticks',
      );
    this.open = o
      ? {
          ...o,
          marketIds: o.marketIds ?? [],
          batches: o.batches.map((b) => ({ ...b, continuum_sequences: b.continuum_sequences.map((x) => BigInt(x)) })),
        }
      : undefined;
    delete this.s.open;
  }

  /** A copy of the state for a snapshot. */
  exportState(): BuilderState {
    const out: BuilderState = structuredClone(this.s);
    if (this.open) {
      const o = this.open;
      out.open = {
        ...structuredClone({ ...o, batches: [] }),
        batches: o.batches.map((b) => ({ ...b, continuum_sequences: b.continuum_sequences.map((x) => x.toString()) })),
      };
    }
    return out;
  }

  get lastTick(): number {
    return this.s.lastTick;
  }
  get producedHeight(): number {
    return this.s.producedHeight;
  }
  get producedRoot(): number[] {
    return this.s.producedRoot;
  }
  get producedBatches(): number {
    return this.s.producedBatches;
  }
  get producedTransactions(): number {
    return this.s.producedTransactions;
  }
  get producedEvents(): number {
    return this.s.producedEvents;
  }
  /** Whether a block is open (then the engine's state is not a produced block's). */
  get blockOpen(): boolean {
    return this.open !== undefined;
  }
  /** Height of the open block, or the one the next batch will open. */
  get openHeight(): number {
    return this.open?.height ?? this.s.lastHeight + 1;
  }
  /** Events of produced blocks in this market (the paging bound of /events?market_id). */
  producedEventsOf(marketId: string): number | undefined {
    return this.s.producedMarketEvents[marketId];
  }

  /**
   * Whether applying `tick` closes the open block. The engine is asked for the state root
   * before such a tick (ApplyOptions.rootBefore): the root after the block's last batch,
   * computed once per block rather than once per tick.
   */
  closes(tick: { timestamp: number }): boolean {
    return this.open !== undefined && Math.floor(tick.timestamp / this.windowUs) > this.open.window;
  }

  /** Build from one applied tick (ticks in order, each once). */
  apply(record: AppliedTick): BuildStep {
    const tick = record.tick;
    if (tick.tickNumber <= this.s.lastTick)
      throw new Error(`block builder: tick ${tick.tickNumber} already built (last ${this.s.lastTick})`);
    const step: BuildStep = { tickNumber: tick.tickNumber };
    const window = Math.floor(tick.timestamp / this.windowUs);
    if (this.open && window > this.open.window) {
      if (!record.rootBefore)
        throw new Error(
          `block builder: tick ${tick.tickNumber} closes block ${this.open.height} but came without the state root before it`,
        );
      step.cut = this.cut(Array.from(record.rootBefore));
    }
    this.s.lastTick = tick.tickNumber;
    const ok = record.txs.filter((a) => a.outcome.ok);
    if (ok.length === 0) return step;

    const open = (this.open ??= this.openBlock(window, tick));
    const height = open.height;
    const batchIndex = open.batches.length;
    const batchHash = bytesToHex(tick.batchHash);

    const transactions: ExplorerTransaction[] = [];
    const created: MarketCreation[] = [];
    const sequences: bigint[] = [];
    ok.forEach((a, i) => {
      const entry = batchEntry(a, formatId(height, batchIndex, i), height, batchIndex, tick.tickNumber);
      if ('kind' in entry) transactions.push(entry);
      else created.push(entry);
      sequences.push(a.continuumSequence);
    });
    let orders = 0;
    for (const t of transactions) if (t.kind === 'order') orders++;
    const cancels = transactions.length - orders;
    const markets = created.length;
    const { events, eventOrdinals, marketOrdinals } = this.batchEvents(record, open, batchIndex, batchHash);

    const summary: BatchSummary = {
      index: batchIndex,
      tick_number: tick.tickNumber,
      order_count: orders,
      cancel_count: cancels,
      continuum_sequences: sequences, // every entry's: transactions and market creations
      batch_hash: batchHash,
      market_count: markets,
    };
    open.batches.push(summary);
    for (const t of transactions) open.transactionIds.push(t.id);
    for (const m of created) open.marketIds.push(m.id);
    for (const e of events) open.eventIds.push(e.id);
    open.totalOrders += orders;
    open.totalCancels += cancels;
    open.totalMarkets += markets;
    for (const m of record.markets) {
      open.appliedOrders += m.matchedOrders;
      open.tradeCount += m.trades;
    }
    open.lastTimestampUs = tick.timestamp;
    open.lastTick = tick.tickNumber;
    open.lastTickOutputHash = outputHash(tick);
    this.s.appliedBatches++;
    step.batch = {
      tickNumber: tick.tickNumber,
      height,
      batchIndex,
      batchHash,
      transactions,
      markets: created,
      events,
      eventOrdinals,
      marketOrdinals,
    };
    return step;
  }

  /** A new block opened by the first tick with entries in `window`; its height is the next. */
  private openBlock(
    window: number,
    tick: { tickNumber: number; timestamp: number; vdfProof: { output: Uint8Array } },
  ): OpenBlock {
    this.s.lastHeight++;
    return {
      height: this.s.lastHeight,
      window,
      batches: [],
      transactionIds: [],
      marketIds: [],
      eventIds: [],
      eventMarkets: [],
      totalOrders: 0,
      totalCancels: 0,
      totalMarkets: 0,
      appliedOrders: 0,
      tradeCount: 0,
      stateRoot: ZERO_ROOT,
      lastTimestampUs: tick.timestamp,
      firstTick: tick.tickNumber,
      lastTick: tick.tickNumber,
      lastTickOutputHash: outputHash(tick),
    };
  }

  /** The batch's events, one per market it touched, with their global and per-market ordinals (handed out here, in order). */
  private batchEvents(
    record: AppliedTick,
    open: OpenBlock,
    batchIndex: number,
    batchHash: string,
  ): { events: ExplorerEvent[]; eventOrdinals: number[]; marketOrdinals: number[] } {
    const height = open.height;
    const events: ExplorerEvent[] = [];
    const eventOrdinals: number[] = [];
    const marketOrdinals: number[] = [];
    record.markets.forEach((m, k) => {
      const marketId = m.market.info.marketId;
      events.push({
        id: formatId(height, batchIndex, k),
        block_height: height,
        batch_index: batchIndex,
        market_id: marketId,
        market_name: m.market.info.name,
        applied_orders: m.matchedOrders,
        batch_hash: batchHash,
        tick_number: record.tick.tickNumber,
        order_count: m.orders,
        cancel_count: m.cancels,
        trade_count: m.trades,
      });
      eventOrdinals.push(++this.s.events);
      const n = (this.s.marketEvents[marketId] ?? 0) + 1;
      this.s.marketEvents[marketId] = n;
      marketOrdinals.push(n);
      open.eventMarkets.push(marketId);
    });
    return { events, eventOrdinals, marketOrdinals };
  }

  private cut(stateRoot: number[]): BlockRecord {
    const o = this.open!;
    o.stateRoot = stateRoot;
    this.open = undefined;
    this.s.producedBatches += o.batches.length;
    const record: BlockRecord = {
      height: o.height,
      state_root: o.stateRoot,
      applied_batches: this.s.producedBatches,
      applied_orders: o.appliedOrders,
      produced_at: Math.floor(o.lastTimestampUs / 1_000_000),
      total_orders: o.totalOrders,
      total_cancels: o.totalCancels,
      batch_summaries: o.batches,
      transaction_ids: o.transactionIds,
      event_ids: o.eventIds,
      total_markets: o.totalMarkets,
      first_tick: o.firstTick,
      last_tick: o.lastTick,
      trade_count: o.tradeCount,
      last_tick_output_hash: o.lastTickOutputHash,
    };
    this.s.producedHeight = o.height;
    this.s.producedRoot = o.stateRoot;
    this.s.producedTransactions += o.transactionIds.length;
    this.s.producedEvents += o.eventIds.length;
    for (const m of o.eventMarkets) this.s.producedMarketEvents[m] = (this.s.producedMarketEvents[m] ?? 0) + 1;
    return record;
  }
}

function emptyState(): BuilderState {
  return {
    lastTick: 0,
    lastHeight: 0,
    producedHeight: 0,
    producedRoot: ZERO_ROOT,
    appliedBatches: 0,
    producedBatches: 0,
    producedTransactions: 0,
    producedEvents: 0,
    events: 0,
    marketEvents: {},
    producedMarketEvents: {},
  };
}

/**
 * Base58 of keys the engine shares between objects (a market's mints, an owner's key: one
 * Uint8Array per owner), computed once per object rather than once per transaction.
 */
const base58Of = new WeakMap<Uint8Array, string>();
function b58(key: Uint8Array): string {
  let text = base58Of.get(key);
  if (text === undefined) {
    text = toBase58Key(key);
    base58Of.set(key, text);
  }
  return text;
}

/**
 * The record of one successful applied transaction: an ExplorerTransaction (fields in
 * spec/3's order) for an order or a cancel, a MarketCreation for a created market.
 */
export function batchEntry(
  a: AppliedTx,
  id: string,
  height: number,
  batchIndex: number,
  tickNumber: number,
): ExplorerTransaction | MarketCreation {
  const o = a.outcome;
  if (!o.ok) throw new Error('only successful transactions go into blocks');
  const info = o.market.info;
  const timestampMs = Number(a.otx.transaction.timestamp / 1000n);
  const txHash = bytesToHex(a.otx.txHash);
  if (o.kind === 'order') {
    const ord = o.order;
    return {
      id,
      block_height: height,
      batch_index: batchIndex,
      kind: 'order',
      market_id: info.marketId,
      market_name: info.name,
      market_kind: info.kind,
      owner: b58(ord.owner),
      side: ord.side === 0 ? 'Buy' : 'Sell',
      price: ord.price,
      quantity: ord.quantity,
      base_mint: b58(info.baseMint),
      quote_mint: b58(info.quoteMint),
      order_id: ord.orderId,
      timestamp_ms: timestampMs,
      continuum_sequence: a.continuumSequence,
      // The owner's signature as carried in the payload (authoritative; the envelope's is not).
      signature: bytesToHex((a.tx as PlaceOrderTx).signature),
      tick_number: tickNumber,
      sequence_number: a.otx.sequenceNumber,
      tx_hash: txHash,
      expiry: ord.expiry,
      status: o.result.status,
      filled_quantity: o.result.filled,
    };
  }
  if (o.kind === 'cancel') {
    return {
      id,
      block_height: height,
      batch_index: batchIndex,
      kind: 'cancel',
      market_id: info.marketId,
      market_name: info.name,
      market_kind: info.kind,
      owner: b58(o.order.owner),
      order_id: o.order.orderId,
      timestamp_ms: timestampMs,
      continuum_sequence: a.continuumSequence,
      signature: bytesToHex((a.tx as CancelOrderTx).signature),
      tick_number: tickNumber,
      sequence_number: a.otx.sequenceNumber,
      tx_hash: txHash,
      cancelled_quantity: o.cancelled,
    };
  }
  if (o.kind === 'cancel_all') {
    const tx = a.tx as CancelAllTx;
    const t: ExplorerTransaction = {
      id,
      block_height: height,
      batch_index: batchIndex,
      kind: 'cancel_all',
      market_id: info.marketId,
      market_name: info.name,
      market_kind: info.kind,
      owner: b58(tx.owner),
      order_id: tx.requestId,
      timestamp_ms: timestampMs,
      continuum_sequence: a.continuumSequence,
      signature: bytesToHex(tx.signature),
      tick_number: tickNumber,
      sequence_number: a.otx.sequenceNumber,
      tx_hash: txHash,
      cancelled_quantity: o.ended.reduce((sum, e) => sum + e.cancelled, 0n),
      cancelled_order_ids: o.ended.map((e) => e.order.orderId),
    };
    if (tx.side !== undefined) t.side = tx.side;
    return t;
  }
  return {
    id,
    block_height: height,
    batch_index: batchIndex,
    market_id: info.marketId,
    market_name: info.name,
    market_kind: info.kind,
    base_mint: b58(info.baseMint),
    quote_mint: b58(info.quoteMint),
    timestamp_ms: timestampMs,
    continuum_sequence: a.continuumSequence,
    tick_number: tickNumber,
    sequence_number: a.otx.sequenceNumber,
    tx_hash: txHash,
  };
}

/** The block anchor (docs/chain.md "Blocks"): SHA-256 of the tick's 256-byte VDF output, hex. */
function outputHash(tick: { vdfProof: { output: Uint8Array } }): string {
  return bytesToHex(sha256(tick.vdfProof.output));
}
