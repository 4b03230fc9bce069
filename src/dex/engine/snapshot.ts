/**
 * A snapshot of the order book's whole state (DexState), so a node can start from it
 * instead of replaying every tick. Binary, little-endian (Borsh primitives):
 *
 *   "SVCDEX" u16 version (1) | u64 last_tick | u64 last_seq
 *   u32 owner_count, per owner: [u8;32] owner
 *   u32 market_count, per market (creation order):
 *     String market_id | [u8;32] base_mint | [u8;32] quote_mint | String name | u8 kind
 *     u64 created_tick | u64 created_seq | u64 next_trade_id | u64 book_last_seq | u64 book_last_tick
 *     u32 slots_next | u32 free_count | u32 free[free_count]        (the slot stack, bottom first)
 *     u32 resting_count, per resting order (continuum_sequence order):
 *       u64 seq | u64 order_id | u32 owner_index | u8 side | u64 price | u64 quantity
 *       u64 remaining | i64 expiry | u32 slot
 *     u32 trade_count, per trade (oldest first):
 *       u64 trade_id | u64 price | u64 quantity | u8 taker_side | u64 maker_order_id
 *       u32 maker_owner_index | u64 taker_order_id | u32 taker_owner_index | u64 tick_number
 *       u64 seq | u64 timestamp_ms
 *   per owner (same order as above): u32 closed_count, per closed id (ascending order_id):
 *     u64 order_id | u32 market_index | u8 cancelled (1: a cancel closed it)
 *   u64 used_count | u32 frontier_count | [u8;32] frontier[frontier_count]
 *   (version 2) per owner (same order): u32 cancel_all_count, u64 request_id (ascending)
 *     the request ids of the owner's applied mass cancels; a version 1 snapshot has none
 *
 * A state restored from its snapshot applies every later tick exactly as the original
 * (same outcomes, trades, slots and roots): test/dex/engine-state-root.test.ts checks it.
 */
import { BorshReader, BorshWriter } from '../../core/index.js';
import { OrderBook } from './book.js';
import { BUY, type BookOrder, type MarketInfo, type SideCode, type Trade } from './interface.js';
import { encodeLeaf } from './leaf.js';
import { DexState, cancelledTagOf, closedEntry, ownerKeyOf, type Market, type OwnerState } from './state.js';

const MAGIC = new TextEncoder().encode('SVCDEX');
const VERSION = 2;

export function encodeSnapshot(state: DexState): Uint8Array {
  const parts = state.snapshotParts();
  const w = new BorshWriter(1 << 16);
  w.fixed(MAGIC, MAGIC.length);
  w.u8(VERSION & 0xff).u8(VERSION >> 8);
  w.u64(BigInt(state.lastTick)).u64(state.lastSeq);
  const ownerIndex = new Map<string, number>();
  w.u32(parts.owners.size);
  for (const [key, o] of parts.owners) {
    ownerIndex.set(key, ownerIndex.size);
    w.fixed(o.owner, 32);
  }
  const indexOf = (ownerKey: string): number => {
    const i = ownerIndex.get(ownerKey);
    if (i === undefined) throw new Error('snapshot: an order of an unknown owner');
    return i;
  };
  w.u32(parts.markets.length);
  for (const m of parts.markets) {
    const info = m.info;
    w.string(info.marketId)
      .fixed(info.baseMint, 32)
      .fixed(info.quoteMint, 32)
      .string(info.name)
      .u8(info.kind === 'Perp' ? 1 : 0);
    w.u64(BigInt(info.createdTick)).u64(info.createdSeq);
    w.u64(m.book.nextTrade).u64(m.book.lastSeq).u64(BigInt(m.book.lastTick));
    const slots = m.book.tree.allocationState();
    w.u32(slots.next).u32(slots.free.length);
    for (const f of slots.free) w.u32(f);
    const resting = m.book.restingOrders().sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
    w.u32(resting.length);
    for (const o of resting) {
      w.u64(o.seq)
        .u64(o.orderId)
        .u32(indexOf(o.ownerKey))
        .u8(o.side)
        .u64(o.price)
        .u64(o.quantity)
        .u64(o.remaining)
        .i64(o.expiry)
        .u32(o.slot);
    }
    w.u32(m.trades.length);
    for (const t of m.trades) {
      w.u64(t.tradeId).u64(t.price).u64(t.quantity).u8(t.takerSide);
      w.u64(t.maker.orderId).u32(indexOf(t.maker.ownerKey)).u64(t.taker.orderId).u32(indexOf(t.taker.ownerKey));
      w.u64(BigInt(t.tickNumber)).u64(t.seq).u64(BigInt(t.timestampMs));
    }
  }
  const marketIndex = new Map<string, number>(parts.markets.map((m) => [m.info.marketId, m.index]));
  for (const o of parts.owners.values()) {
    // Ascending order id: canonical bytes, whatever order the ids were used and closed in.
    const closed: Array<[bigint, string]> = [];
    for (const [id, v] of o.orders) if (typeof v === 'string') closed.push([id, v]);
    closed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    w.u32(closed.length);
    for (const [id, v] of closed) {
      const c = closedEntry(v);
      w.u64(id)
        .u32(marketIndex.get(c.marketId)!)
        .u8(c.cancelled ? 1 : 0);
    }
  }
  w.u64(BigInt(parts.usedCount)).u32(parts.usedFrontier.length);
  for (const f of parts.usedFrontier) w.fixed(f, 32);
  for (const o of parts.owners.values()) {
    const ids = [...(o.cancelAllIds ?? [])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    w.u32(ids.length);
    for (const id of ids) w.u64(id);
  }
  return w.toBytes();
}

export function decodeSnapshot(bytes: Uint8Array): DexState {
  const r = new BorshReader(bytes);
  const magic = r.fixed(MAGIC.length);
  if (!magic.every((b, i) => b === MAGIC[i])) throw new Error('not an order book snapshot');
  const version = r.u8() | (r.u8() << 8);
  if (version !== VERSION && version !== 1) {
    throw new Error(`order book snapshot version ${version} is not supported (expected 1 or ${VERSION})`);
  }
  const lastTick = Number(r.u64());
  const lastSeq = r.u64();
  const ownerCount = r.u32();
  const owners: OwnerState[] = new Array(ownerCount);
  const ownerKeys: string[] = new Array(ownerCount);
  for (let i = 0; i < ownerCount; i++) {
    const owner = r.fixed(32).slice();
    owners[i] = { owner, orders: new Map(), open: new Set() };
    ownerKeys[i] = ownerKeyOf(owner);
  }
  const ownerAt = (i: number): OwnerState => {
    const o = owners[i];
    if (o === undefined) throw new Error(`snapshot: owner index ${i} out of range`);
    return o;
  };
  const stub = (orderId: bigint, ownerIdx: number, marketId: string): BookOrder => {
    const o = ownerAt(ownerIdx);
    return {
      seq: 0n,
      marketId,
      orderId,
      owner: o.owner,
      ownerKey: ownerKeys[ownerIdx]!,
      side: BUY,
      price: 0n,
      quantity: 0n,
      remaining: 0n,
      expiry: 0n,
      slot: -1,
      open: false,
    };
  };
  const marketCount = r.u32();
  const markets: Market[] = [];
  for (let mi = 0; mi < marketCount; mi++) {
    const info: MarketInfo = {
      marketId: r.string(64),
      baseMint: r.fixed(32).slice(),
      quoteMint: r.fixed(32).slice(),
      name: r.string(64),
      kind: r.u8() === 1 ? 'Perp' : 'Spot',
      createdTick: Number(r.u64()),
      createdSeq: r.u64(),
    };
    const nextTradeId = r.u64();
    const bookLastSeq = r.u64();
    const bookLastTick = Number(r.u64());
    const next = r.u32();
    const free: number[] = new Array(r.u32());
    for (let i = 0; i < free.length; i++) free[i] = r.u32();
    const resting: BookOrder[] = new Array(r.u32());
    for (let i = 0; i < resting.length; i++) {
      const seq = r.u64();
      const orderId = r.u64();
      const ownerIdx = r.u32();
      const side = r.u8() as SideCode;
      const o: BookOrder = {
        seq,
        marketId: info.marketId,
        orderId,
        owner: ownerAt(ownerIdx).owner,
        ownerKey: ownerKeys[ownerIdx]!,
        side,
        price: r.u64(),
        quantity: r.u64(),
        remaining: r.u64(),
        expiry: r.i64(),
        slot: r.u32(),
        open: true,
      };
      resting[i] = o;
      const mine = ownerAt(ownerIdx);
      mine.orders.set(orderId, o);
      mine.open.add(o);
    }
    const book = new OrderBook(encodeLeaf);
    book.restore(resting, { next, free }, nextTradeId, bookLastSeq, bookLastTick);
    const trades: Trade[] = new Array(r.u32());
    for (let i = 0; i < trades.length; i++) {
      const tradeId = r.u64();
      const price = r.u64();
      const quantity = r.u64();
      const takerSide = r.u8() as SideCode;
      const maker = stub(r.u64(), r.u32(), info.marketId);
      const taker = stub(r.u64(), r.u32(), info.marketId);
      trades[i] = {
        tradeId,
        price,
        quantity,
        takerSide,
        maker,
        taker,
        tickNumber: Number(r.u64()),
        seq: r.u64(),
        timestampMs: Number(r.u64()),
      };
    }
    markets.push({ index: mi, info, cancelledTag: cancelledTagOf(info.marketId), book, trades });
  }
  for (let i = 0; i < ownerCount; i++) {
    const mine = owners[i]!;
    const closed = r.u32();
    for (let k = 0; k < closed; k++) {
      const id = r.u64();
      const market = markets[r.u32()];
      if (market === undefined) throw new Error('snapshot: closed order of an unknown market');
      mine.orders.set(id, r.u8() === 1 ? market.cancelledTag : market.info.marketId);
    }
  }
  const usedCount = Number(r.u64());
  const frontier: Uint8Array[] = new Array(r.u32());
  for (let i = 0; i < frontier.length; i++) frontier[i] = r.fixed(32).slice();
  if (version >= 2) {
    for (const mine of owners) {
      const n = r.u32();
      if (n === 0) continue;
      const ids = new Set<bigint>();
      for (let k = 0; k < n; k++) ids.add(r.u64());
      mine.cancelAllIds = ids;
    }
  }
  if (r.remaining !== 0) throw new Error('snapshot: trailing bytes');
  const ownerMap = new Map<string, OwnerState>();
  owners.forEach((o, i) => ownerMap.set(ownerKeys[i]!, o));
  return DexState.restore({ markets, owners: ownerMap, usedCount, usedFrontier: frontier, lastTick, lastSeq });
}
