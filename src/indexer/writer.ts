/**
 * One database transaction per run of consecutive stream messages: lock the position
 * row, check that each message continues the chain exactly where the database stands
 * (stream sequence, block height, continuum_sequence, a block's transaction count),
 * replay its transactions on the books, write every row they produced and the new
 * position, commit. Nothing is written unless all of it is (docs/indexer.md "What it
 * guarantees"). It does not talk to NATS and does not retry: consumer.ts does both.
 */
import type { PoolClient } from 'pg';
import { Books, type OpenOrder } from './replay.js';
import type { StreamRecord } from './records.js';
import { BatchRows, orderKey } from './rows.js';

/** A message that does not continue the chain where the database stands: stop, never skip. */
export class ContinuityError extends Error {
  override readonly name = 'ContinuityError';
}

/** The next message in hand is not the stream sequence after the stored one (the consumer lost some). */
export class SequenceGap extends Error {
  override readonly name = 'SequenceGap';
}

/** Where the database stands (indexer_state). */
export interface Position {
  streamSeq: number;
  height: number;
  lastCs: bigint;
  openTxs: number;
  lastSha256: Buffer | null;
  totalEvents: number;
}

interface StateRow {
  stream: string;
  stream_seq: string;
  height: string;
  last_cs: string;
  open_txs: number;
  last_sha256: Buffer | null;
  total_events: string;
}

/** The position row, created empty for `stream` on a fresh database; refuses one of another stream. */
export async function readPosition(client: PoolClient, stream: string, forUpdate = false): Promise<Position> {
  await client.query(`INSERT INTO indexer_state VALUES (1, $1, 0, 0, 0, 0, NULL, 0) ON CONFLICT (id) DO NOTHING`, [
    stream,
  ]);
  const { rows } = await client.query<StateRow>(
    `SELECT * FROM indexer_state WHERE id = 1${forUpdate ? ' FOR UPDATE' : ''}`,
  );
  const r = rows[0]!;
  if (r.stream !== stream) throw new ContinuityError(`this database indexes the stream ${r.stream}, not ${stream}`);
  return {
    streamSeq: Number(r.stream_seq),
    height: Number(r.height),
    lastCs: BigInt(r.last_cs),
    openTxs: r.open_txs,
    lastSha256: r.last_sha256,
    totalEvents: Number(r.total_events),
  };
}

/** The books as the database holds them. */
export async function loadBooks(client: PoolClient): Promise<Books> {
  const open = await client.query<{
    owner: string;
    order_id: string;
    market_id: string;
    side: 'Buy' | 'Sell';
    price: string;
    quantity: string;
    filled: string;
    expiry: string;
    cs: string;
  }>(
    `SELECT owner, order_id, market_id, side, price, quantity, filled, expiry, cs FROM orders WHERE status = 'open' ORDER BY cs`,
  );
  const books = await client.query<{ market_id: string; next_trade: string }>(
    'SELECT market_id, next_trade FROM books',
  );
  const orders: OpenOrder[] = open.rows.map((r) => ({
    owner: r.owner,
    orderId: BigInt(r.order_id),
    marketId: r.market_id,
    side: r.side,
    price: BigInt(r.price),
    quantity: BigInt(r.quantity),
    filled: BigInt(r.filled),
    expiry: BigInt(r.expiry),
    cs: BigInt(r.cs),
  }));
  return Books.restore(orders, new Map(books.rows.map((b) => [b.market_id, BigInt(b.next_trade)])));
}

export interface Written {
  position: Position;
  rows: BatchRows;
  /** produced_at of the last block written, if any. */
  producedAt?: number;
}

/**
 * Write `records` (consecutive, the first right after `expected`) in one transaction.
 * `books` is changed in place: after a throw it is no longer the database's (reload it).
 */
export async function writeRun(
  client: PoolClient,
  stream: string,
  expected: number,
  records: readonly StreamRecord[],
  books: Books,
): Promise<Written> {
  await client.query('BEGIN');
  try {
    const pos = await readPosition(client, stream, true);
    if (pos.streamSeq !== expected)
      throw new SequenceGap(
        `the database moved to stream sequence ${pos.streamSeq} (another writer?), expected ${expected}`,
      );
    const rows = new BatchRows();
    let producedAt: number | undefined;
    for (const rec of records) {
      if (rec.seq !== pos.streamSeq + 1) throw new SequenceGap(`stream message ${rec.seq} came after ${pos.streamSeq}`);
      advance(pos, rec);
      if (rec.kind === 'tx') {
        books.apply(rec, rows);
        const t = rec.tx;
        rows.txs.push({
          height: t.block_height,
          batch: rec.batch,
          index: rec.index,
          cs: t.continuum_sequence,
          kind: t.kind,
          marketId: t.market_id,
          owner: t.owner,
          orderId: t.order_id,
          json: rec.json,
        });
        rows.txCount++;
      } else {
        rows.blocks.push({ block: rec.block, json: rec.blockJson });
        for (const e of rec.events)
          rows.events.push({ marketId: e.event.market_id, height: rec.block.height, json: e.json });
        for (const m of rec.markets) {
          const c = m.market;
          rows.markets.push({
            height: c.block_height,
            batch: m.batch,
            index: m.index,
            marketId: c.market_id,
            name: c.market_name,
            kind: c.market_kind,
            baseMint: c.base_mint,
            quoteMint: c.quote_mint,
            cs: c.continuum_sequence,
            json: m.json,
          });
        }
        rows.blockCount++;
        producedAt = rec.block.produced_at;
      }
      pos.streamSeq = rec.seq;
      pos.lastSha256 = rec.sha256;
    }
    await writeRows(client, rows, pos);
    await client.query(
      'UPDATE indexer_state SET stream_seq = $1, height = $2, last_cs = $3, open_txs = $4, last_sha256 = $5, total_events = $6 WHERE id = 1',
      [pos.streamSeq, pos.height, pos.lastCs.toString(), pos.openTxs, pos.lastSha256, pos.totalEvents],
    );
    await client.query('COMMIT');
    return { position: pos, rows, ...(producedAt !== undefined ? { producedAt } : {}) };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Check that `rec` continues the chain at `pos` and move `pos` past it (not the stream sequence). */
function advance(pos: Position, rec: StreamRecord): void {
  const next = pos.height + 1;
  if (rec.kind === 'tx') {
    const t = rec.tx;
    if (t.block_height !== next) {
      if (pos.streamSeq === 0)
        throw new ContinuityError(
          `the stream does not start at the chain's start: its message ${rec.seq} is transaction ${t.id} of block ${t.block_height}; an empty database takes only a stream from block 1`,
        );
      throw new ContinuityError(
        `stream message ${rec.seq} is transaction ${t.id} of block ${t.block_height}, but block ${next} comes next`,
      );
    }
    if (t.continuum_sequence <= pos.lastCs)
      throw new ContinuityError(
        `stream message ${rec.seq}: transaction ${t.id} has continuum_sequence ${t.continuum_sequence}, not above the last one ${pos.lastCs}`,
      );
    pos.lastCs = t.continuum_sequence;
    pos.openTxs++;
    return;
  }
  const b = rec.block;
  if (b.height !== next) {
    if (pos.streamSeq === 0)
      throw new ContinuityError(
        `the stream does not start at the chain's start: its message ${rec.seq} is block ${b.height}; an empty database takes only a stream from block 1`,
      );
    throw new ContinuityError(`stream message ${rec.seq} is block ${b.height}, but block ${next} comes next`);
  }
  const want = b.total_orders + b.total_cancels;
  if (pos.openTxs !== want)
    throw new ContinuityError(
      `block ${b.height} has ${want} transactions but the stream carried ${pos.openTxs} before it`,
    );
  pos.height = b.height;
  pos.openTxs = 0;
  pos.totalEvents += rec.events.length;
}

const str = (v: bigint | number) => v.toString();

async function writeRows(client: PoolClient, rows: BatchRows, pos: Position): Promise<void> {
  const q = (sql: string, values: unknown[]) => client.query(sql, values);
  if (rows.txs.length > 0) {
    const t = rows.txs;
    await q(
      `INSERT INTO transactions (height, batch, idx, cs, kind, market_id, owner, order_id, json)
       SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::numeric[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::text[])`,
      [
        t.map((r) => r.height),
        t.map((r) => r.batch),
        t.map((r) => r.index),
        t.map((r) => str(r.cs)),
        t.map((r) => r.kind),
        t.map((r) => r.marketId),
        t.map((r) => r.owner),
        t.map((r) => str(r.orderId)),
        t.map((r) => r.json),
      ],
    );
  }
  if (rows.newOrders.size > 0) {
    const o = [...rows.newOrders.values()];
    await q(
      `INSERT INTO orders (owner, order_id, market_id, side, price, quantity, filled, expiry, status, cs, tx_id, height, ts_ms, ended_by)
       SELECT * FROM unnest($1::text[], $2::numeric[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[],
                            $9::text[], $10::numeric[], $11::text[], $12::bigint[], $13::bigint[], $14::text[])`,
      [
        o.map((r) => r.owner),
        o.map((r) => str(r.orderId)),
        o.map((r) => r.marketId),
        o.map((r) => r.side),
        o.map((r) => str(r.price)),
        o.map((r) => str(r.quantity)),
        o.map((r) => str(r.filled)),
        o.map((r) => str(r.expiry)),
        o.map((r) => r.status),
        o.map((r) => str(r.cs)),
        o.map((r) => r.txId),
        o.map((r) => r.height),
        o.map((r) => r.tsMs),
        o.map((r) => r.endedBy),
      ],
    );
  }
  if (rows.changedOrders.size > 0) {
    const c = [...rows.changedOrders.values()];
    const res = await q(
      `UPDATE orders o SET filled = u.filled, status = u.status, ended_by = u.ended_by
       FROM unnest($1::text[], $2::numeric[], $3::numeric[], $4::text[], $5::text[]) AS u(owner, order_id, filled, status, ended_by)
       WHERE o.owner = u.owner AND o.order_id = u.order_id`,
      [
        c.map((r) => r.owner),
        c.map((r) => str(r.orderId)),
        c.map((r) => str(r.filled)),
        c.map((r) => r.status),
        c.map((r) => r.endedBy),
      ],
    );
    if (res.rowCount !== c.length) {
      const missing = c
        .map((r) => orderKey(r.owner, r.orderId))
        .slice(0, 3)
        .join(', ');
      throw new Error(
        `orders changed by the replay are missing from the database (${res.rowCount} of ${c.length} found; e.g. ${missing})`,
      );
    }
  }
  if (rows.trades.length > 0) {
    const t = rows.trades;
    const cols = [
      t.map((r) => r.marketId),
      t.map((r) => str(r.tradeId)),
      t.map((r) => str(r.price)),
      t.map((r) => str(r.quantity)),
      t.map((r) => r.takerSide),
      t.map((r) => str(r.cs)),
      t.map((r) => r.txId),
      t.map((r) => r.height),
      t.map((r) => r.tsMs),
    ];
    await q(
      `INSERT INTO trades (market_id, trade_id, price, quantity, taker_side, maker_owner, maker_order_id, taker_owner, taker_order_id, cs, tx_id, height, ts_ms)
       SELECT m, id, p, qty, side, mo, moid, tko, tkoid, cs, tx, h, ts FROM unnest($1::text[], $2::bigint[], $3::numeric[], $4::numeric[], $5::text[], $6::numeric[], $7::text[], $8::bigint[], $9::bigint[],
              $10::text[], $11::numeric[], $12::text[], $13::numeric[]) AS u(m, id, p, qty, side, cs, tx, h, ts, mo, moid, tko, tkoid)`,
      [
        ...cols,
        t.map((r) => r.makerOwner),
        t.map((r) => str(r.makerOrderId)),
        t.map((r) => r.takerOwner),
        t.map((r) => str(r.takerOrderId)),
      ],
    );
    // Each trade is a fill of its maker and one of its taker (never the same owner: self-trades are prevented).
    await q(
      `INSERT INTO fills (owner, cs, trade_id, market_id, order_id, role, side, price, quantity, counterparty, tx_id, height, ts_ms)
       SELECT f.owner, u.cs, u.id, u.m, f.order_id, f.role, f.side, u.p, u.qty, f.counterparty, u.tx, u.h, u.ts
       FROM unnest($1::text[], $2::bigint[], $3::numeric[], $4::numeric[], $5::text[], $6::numeric[], $7::text[], $8::bigint[], $9::bigint[],
                   $10::text[], $11::numeric[], $12::text[], $13::numeric[]) AS u(m, id, p, qty, side, cs, tx, h, ts, mo, moid, tko, tkoid)
       CROSS JOIN LATERAL (VALUES
         (u.mo, u.moid, 'maker', CASE WHEN u.side = 'Buy' THEN 'Sell' ELSE 'Buy' END, u.tko),
         (u.tko, u.tkoid, 'taker', u.side, u.mo)) AS f(owner, order_id, role, side, counterparty)`,
      [
        ...cols,
        t.map((r) => r.makerOwner),
        t.map((r) => str(r.makerOrderId)),
        t.map((r) => r.takerOwner),
        t.map((r) => str(r.takerOrderId)),
      ],
    );
  }
  if (rows.candles.size > 0) {
    const c = [...rows.candles.values()];
    await q(
      `INSERT INTO candles (market_id, resolution, bucket, open, high, low, close, volume, trades)
       SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[], $9::bigint[])
       ON CONFLICT (market_id, resolution, bucket) DO UPDATE SET
         high = GREATEST(candles.high, EXCLUDED.high), low = LEAST(candles.low, EXCLUDED.low), close = EXCLUDED.close,
         volume = candles.volume + EXCLUDED.volume, trades = candles.trades + EXCLUDED.trades`,
      [
        c.map((r) => r.marketId),
        c.map((r) => r.resolution),
        c.map((r) => r.bucket),
        c.map((r) => str(r.open)),
        c.map((r) => str(r.high)),
        c.map((r) => str(r.low)),
        c.map((r) => str(r.close)),
        c.map((r) => str(r.volume)),
        c.map((r) => r.trades),
      ],
    );
  }
  const bookMarkets = new Map(rows.nextTrade);
  for (const e of rows.events) if (!bookMarkets.has(e.marketId)) bookMarkets.set(e.marketId, 1n);
  if (bookMarkets.size > 0) {
    await q(
      `INSERT INTO books (market_id, next_trade, produced_events) SELECT m, n, 0 FROM unnest($1::text[], $2::bigint[]) AS u(m, n)
       ON CONFLICT (market_id) DO UPDATE SET next_trade = GREATEST(books.next_trade, EXCLUDED.next_trade)`,
      [[...bookMarkets.keys()], [...bookMarkets.values()].map(str)],
    );
  }
  if (rows.events.length > 0) await writeEvents(client, rows, pos);
  if (rows.markets.length > 0) {
    const m = rows.markets;
    await q(
      `INSERT INTO market_creations (height, batch, idx, market_id, json) SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[])`,
      [
        m.map((r) => r.height),
        m.map((r) => r.batch),
        m.map((r) => r.index),
        m.map((r) => r.marketId),
        m.map((r) => r.json),
      ],
    );
    await q(
      `INSERT INTO markets (market_id, name, kind, base_mint, quote_mint, created_cs, json) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::numeric[], $7::text[])`,
      [
        m.map((r) => r.marketId),
        m.map((r) => r.name),
        m.map((r) => r.kind),
        m.map((r) => r.baseMint),
        m.map((r) => r.quoteMint),
        m.map((r) => str(r.cs)),
        m.map((r) => r.json),
      ],
    );
  }
  if (rows.blocks.length > 0) {
    const b = rows.blocks;
    await q(
      `INSERT INTO blocks (height, produced_at, json) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[])`,
      [b.map((r) => r.block.height), b.map((r) => r.block.produced_at), b.map((r) => r.json)],
    );
  }
}

/** Events get the chain's ordinals (after pos.totalEvents - this run's) and each market's own. */
async function writeEvents(client: PoolClient, rows: BatchRows, pos: Position): Promise<void> {
  const ev = rows.events;
  const markets = [...new Set(ev.map((e) => e.marketId))];
  const { rows: counts } = await client.query<{ market_id: string; produced_events: string }>(
    'SELECT market_id, produced_events FROM books WHERE market_id = ANY($1)',
    [markets],
  );
  const perMarket = new Map(counts.map((r) => [r.market_id, Number(r.produced_events)]));
  let ordinal = pos.totalEvents - ev.length;
  const ordinals: number[] = [];
  const marketOrdinals: number[] = [];
  for (const e of ev) {
    ordinals.push(++ordinal);
    const n = (perMarket.get(e.marketId) ?? 0) + 1;
    perMarket.set(e.marketId, n);
    marketOrdinals.push(n);
  }
  await client.query(
    `INSERT INTO events (ordinal, market_id, market_ordinal, height, json) SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::text[])`,
    [ordinals, ev.map((e) => e.marketId), marketOrdinals, ev.map((e) => e.height), ev.map((e) => e.json)],
  );
  await client.query(
    `UPDATE books b SET produced_events = u.n FROM unnest($1::text[], $2::bigint[]) AS u(m, n) WHERE b.market_id = u.m`,
    [[...perMarket.keys()], [...perMarket.values()]],
  );
}
