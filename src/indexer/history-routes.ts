/**
 * The history a node cannot answer from its disk (docs/indexer.md "History"): a market's
 * trades and candles, an owner's orders and fills. Lists are newest first with keyset
 * paging (WHERE key < cursor ORDER BY key DESC LIMIT n + 1: one index range per page,
 * never OFFSET); candles are a time range of one resolution, oldest first. u64 values are
 * decimal strings. Every bad parameter is a 400 that names it.
 */
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Pool } from 'pg';
import { UUID_RE } from '../core/index.js';
import { fromBase58Key, toBase58Key } from '../crypto/index.js';
import { clip, parseIntegerParam } from '../wire/index.js';
import { HISTORY_LIMIT, decodeCursor, encodeCursor } from './cursor.js';
import { ChainRefusal, sendJson } from '../chain/api/index.js';
import { read } from './db-read.js';
import { RESOLUTIONS, type Resolution } from './rows.js';

/** Most candles one request may span. */
export const MAX_CANDLES = 5000;

const MAX_BIGINT = (1n << 63n) - 1n;

export function mountHistoryRoutes(router: Router, pool: Pool): void {
  const q = <R extends object>(sql: string, values: unknown[] = []) =>
    read(async () => (await pool.query<R>(sql, values)).rows);
  const knownMarket = async (ctx: RouterContext): Promise<string> => {
    const id = ctx.params.market_id ?? '';
    if (!UUID_RE.test(id))
      throw new ChainRefusal('BAD_REQUEST', `market_id must be a lowercase UUID, got '${clip(id)}'`);
    const found = await q(
      'SELECT 1 FROM markets WHERE market_id = $1 UNION ALL SELECT 1 FROM books WHERE market_id = $1 LIMIT 1',
      [id],
    );
    if (found.length === 0) throw new ChainRefusal('NOT_FOUND', `market ${id} does not exist`);
    return id;
  };

  router.get('/markets/:market_id/trades', async (ctx) => {
    const market = await knownMarket(ctx);
    const limit = limitOf(ctx);
    const [after] = cursorOf(ctx, 1) ?? [MAX_BIGINT];
    if (after! > MAX_BIGINT)
      throw new ChainRefusal('BAD_REQUEST', 'cursor is not one this indexer gave (trade id out of range)');
    const rows = await q<TradeSql>(
      `SELECT trade_id, price, quantity, taker_side, maker_owner, maker_order_id, taker_owner, taker_order_id, cs, tx_id, height, ts_ms
       FROM trades WHERE market_id = $1 AND trade_id < $2 ORDER BY trade_id DESC LIMIT $3`,
      [market, after!.toString(), limit + 1],
    );
    const page = rows.slice(0, limit);
    const trades = page.map((r) => ({
      trade_id: Number(r.trade_id),
      price: r.price,
      quantity: r.quantity,
      taker_side: r.taker_side,
      maker_owner: r.maker_owner,
      maker_order_id: r.maker_order_id,
      taker_owner: r.taker_owner,
      taker_order_id: r.taker_order_id,
      continuum_sequence: r.cs,
      transaction_id: r.tx_id,
      block_height: Number(r.height),
      timestamp_ms: Number(r.ts_ms),
    }));
    const next = rows.length > limit ? encodeCursor([page[page.length - 1]!.trade_id]) : null;
    sendJson(ctx, 200, JSON.stringify({ market_id: market, trades, next_cursor: next }));
  });

  router.get('/markets/:market_id/candles', async (ctx) => {
    const market = await knownMarket(ctx);
    const resolution = single(ctx, 'resolution');
    if (resolution === undefined || !(resolution in RESOLUTIONS)) {
      throw new ChainRefusal(
        'BAD_REQUEST',
        `resolution must be one of ${Object.keys(RESOLUTIONS).join(', ')}, got '${clip(resolution ?? '')}'`,
      );
    }
    const seconds = RESOLUTIONS[resolution as Resolution];
    const from = unixSeconds(ctx, 'from');
    const to = unixSeconds(ctx, 'to');
    if (from >= to) throw new ChainRefusal('BAD_REQUEST', `from (${from}) must be before to (${to})`);
    if ((to - from) / seconds > MAX_CANDLES)
      throw new ChainRefusal(
        'BAD_REQUEST',
        `from..to spans ${Math.ceil((to - from) / seconds)} buckets of ${resolution}; at most ${MAX_CANDLES}`,
      );
    const rows = await q<{
      bucket: string;
      open: string;
      high: string;
      low: string;
      close: string;
      volume: string;
      trades: string;
    }>(
      `SELECT bucket, open, high, low, close, volume, trades FROM candles
       WHERE market_id = $1 AND resolution = $2 AND bucket >= $3 AND bucket < $4 ORDER BY bucket`,
      [market, seconds, from, to],
    );
    const candles = rows.map((r) => ({
      time: Number(r.bucket),
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: r.volume,
      trades: Number(r.trades),
    }));
    sendJson(ctx, 200, JSON.stringify({ market_id: market, resolution, candles }));
  });

  router.get('/owners/:owner/orders', async (ctx) => {
    const owner = ownerOf(ctx);
    const limit = limitOf(ctx);
    const [after] = cursorOf(ctx, 1) ?? [1n << 64n];
    const rows = await q<OrderSql>(
      `SELECT market_id, order_id, side, price, quantity, filled, expiry, status, cs, tx_id, height, ts_ms, ended_by
       FROM orders WHERE owner = $1 AND cs < $2 ORDER BY cs DESC LIMIT $3`,
      [owner, after!.toString(), limit + 1],
    );
    const page = rows.slice(0, limit);
    const orders = page.map((r) => ({
      market_id: r.market_id,
      order_id: r.order_id,
      side: r.side,
      price: r.price,
      quantity: r.quantity,
      filled_quantity: r.filled,
      remaining: r.status === 'open' ? (BigInt(r.quantity) - BigInt(r.filled)).toString() : '0',
      expiry: r.expiry,
      status: r.status,
      continuum_sequence: r.cs,
      transaction_id: r.tx_id,
      block_height: Number(r.height),
      timestamp_ms: Number(r.ts_ms),
      ended_by: r.ended_by,
    }));
    const next = rows.length > limit ? encodeCursor([page[page.length - 1]!.cs]) : null;
    sendJson(ctx, 200, JSON.stringify({ owner, orders, next_cursor: next }));
  });

  router.get('/owners/:owner/fills', async (ctx) => {
    const owner = ownerOf(ctx);
    const limit = limitOf(ctx);
    const [cs, trade] = cursorOf(ctx, 2) ?? [1n << 64n, 0n];
    if (trade! > MAX_BIGINT)
      throw new ChainRefusal('BAD_REQUEST', 'cursor is not one this indexer gave (trade id out of range)');
    const rows = await q<FillSql>(
      `SELECT market_id, trade_id, order_id, role, side, price, quantity, counterparty, cs, tx_id, height, ts_ms
       FROM fills WHERE owner = $1 AND (cs, trade_id) < ($2::numeric, $3::bigint) ORDER BY cs DESC, trade_id DESC LIMIT $4`,
      [owner, cs!.toString(), trade!.toString(), limit + 1],
    );
    const page = rows.slice(0, limit);
    const fills = page.map((r) => ({
      market_id: r.market_id,
      trade_id: Number(r.trade_id),
      order_id: r.order_id,
      role: r.role,
      side: r.side,
      price: r.price,
      quantity: r.quantity,
      counterparty: r.counterparty,
      continuum_sequence: r.cs,
      transaction_id: r.tx_id,
      block_height: Number(r.height),
      timestamp_ms: Number(r.ts_ms),
    }));
    const last = page[page.length - 1];
    const next = rows.length > limit && last ? encodeCursor([last.cs, last.trade_id]) : null;
    sendJson(ctx, 200, JSON.stringify({ owner, fills, next_cursor: next }));
  });
}

interface TradeSql {
  trade_id: string;
  price: string;
  quantity: string;
  taker_side: string;
  maker_owner: string;
  maker_order_id: string;
  taker_owner: string;
  taker_order_id: string;
  cs: string;
  tx_id: string;
  height: string;
  ts_ms: string;
}

interface OrderSql {
  market_id: string;
  order_id: string;
  side: string;
  price: string;
  quantity: string;
  filled: string;
  expiry: string;
  status: string;
  cs: string;
  tx_id: string;
  height: string;
  ts_ms: string;
  ended_by: string | null;
}

interface FillSql {
  market_id: string;
  trade_id: string;
  order_id: string;
  role: string;
  side: string;
  price: string;
  quantity: string;
  counterparty: string;
  cs: string;
  tx_id: string;
  height: string;
  ts_ms: string;
}

function single(ctx: RouterContext, name: string): string | undefined {
  const v = ctx.query[name];
  if (Array.isArray(v)) throw new ChainRefusal('BAD_REQUEST', `${name} is given ${v.length} times; give it once`);
  return v;
}

function limitOf(ctx: RouterContext): number {
  const p = parseIntegerParam('limit', ctx.query.limit, HISTORY_LIMIT.default, 1, HISTORY_LIMIT.max);
  if (!p.ok) throw new ChainRefusal('BAD_REQUEST', p.error);
  return p.value;
}

function cursorOf(ctx: RouterContext, parts: number): bigint[] | undefined {
  const text = single(ctx, 'cursor');
  if (text === undefined) return undefined;
  const values = decodeCursor(text, parts);
  if (typeof values === 'string') throw new ChainRefusal('BAD_REQUEST', values);
  return values;
}

/** A required time in unix seconds, 0..2^53-1. */
function unixSeconds(ctx: RouterContext, name: string): number {
  const text = single(ctx, name);
  if (text === undefined) throw new ChainRefusal('BAD_REQUEST', `${name} is required (unix seconds)`);
  const p = parseIntegerParam(name, text, 0, 0, Number.MAX_SAFE_INTEGER);
  if (!p.ok) throw new ChainRefusal('BAD_REQUEST', `${p.error} (unix seconds)`);
  return p.value;
}

/** The owner in a path: Base58 of a 32-byte public key, as given (400 otherwise). */
function ownerOf(ctx: RouterContext): string {
  const text = ctx.params.owner ?? '';
  try {
    if (text.length > 64) throw new TypeError('too long');
    return toBase58Key(fromBase58Key(text, 'owner'));
  } catch (err) {
    throw new ChainRefusal('BAD_REQUEST', `owner must be a Base58 public key (32 bytes): ${(err as Error).message}`);
  }
}
