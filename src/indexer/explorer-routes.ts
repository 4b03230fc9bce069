/**
 * The node's explorer REST for blocks and transactions, answered from PostgreSQL byte for
 * byte as the node answers it (docs/chain.md "Explorer REST"): the same parameters,
 * limits, bodies (the stored JSON texts, joined, never re-serialised) and error messages.
 * The node's limit/offset paging is read as ranges of heights and event ordinals, so no
 * SQL OFFSET is ever run. What needs the node's live state (status, ticks, proofs, open
 * orders) is not here.
 */
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Pool } from 'pg';
import { BLOCKS_LIMIT, ChainRefusal, EVENTS_LIMIT, parseHeight, sendJson } from '../chain/api/index.js';
import { formatId, parseId } from '../chain/core/index.js';
import { UUID_RE } from '../core/index.js';
import { clip, parseIntegerParam } from '../wire/index.js';
import { read } from './db-read.js';

const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

export function mountExplorerRoutes(router: Router, pool: Pool): void {
  const q = <R extends object>(sql: string, values: unknown[] = []) =>
    read(async () => (await pool.query<R>(sql, values)).rows);
  const head = async () => {
    const [r] = await q<{ height: string; total_events: string }>(
      'SELECT height, total_events FROM indexer_state WHERE id = 1',
    );
    return { height: Number(r?.height ?? 0), totalEvents: Number(r?.total_events ?? 0) };
  };
  const detail = async (h: number): Promise<string | undefined> => {
    const [blocks, txs, events, markets] = await Promise.all([
      q<{ json: string }>('SELECT json FROM blocks WHERE height = $1', [h]),
      q<{ json: string }>('SELECT json FROM transactions WHERE height = $1 ORDER BY batch, idx', [h]),
      q<{ json: string }>('SELECT json FROM events WHERE height = $1 ORDER BY ordinal', [h]),
      q<{ json: string }>('SELECT json FROM market_creations WHERE height = $1 ORDER BY batch, idx', [h]),
    ]);
    if (blocks.length === 0) return undefined;
    const join = (rows: Array<{ json: string }>) => rows.map((r) => r.json).join(',');
    return `{"block":${blocks[0]!.json},"transactions":[${join(txs)}],"events":[${join(events)}],"markets":[${join(markets)}]}`;
  };

  router.get('/blocks', async (ctx) => {
    const limit = param('limit', ctx, BLOCKS_LIMIT.default, 1, BLOCKS_LIMIT.max);
    const offset = param('offset', ctx, 0, 0, MAX_OFFSET);
    const top = (await head()).height - offset;
    const rows =
      top >= 1
        ? await q<{ json: string }>(
            'SELECT json FROM blocks WHERE height <= $1 AND height >= $2 ORDER BY height DESC',
            [top, Math.max(1, top - limit + 1)],
          )
        : [];
    sendJson(ctx, 200, `[${rows.map((r) => r.json).join(',')}]`);
  });

  router.get('/blocks/latest', async (ctx) => {
    const { height } = await head();
    const json = height >= 1 ? await detail(height) : undefined;
    if (json === undefined) throw new ChainRefusal('NOT_FOUND', 'no block has been produced yet');
    sendJson(ctx, 200, json);
  });

  router.get('/blocks/:height', async (ctx) => {
    const h = parseHeight(ctx.params.height ?? '');
    const { height } = await head();
    if (h > height) throw new ChainRefusal('NOT_FOUND', `block ${h} does not exist (latest is ${height})`);
    const json = await detail(h);
    if (json === undefined) throw new ChainRefusal('NOT_FOUND', `block ${h} does not exist`);
    sendJson(ctx, 200, json);
  });

  router.get('/transactions/:id', async (ctx) => {
    const id = parseId(ctx.params.id ?? '', 'transaction id');
    if (typeof id === 'string') throw new ChainRefusal('BAD_REQUEST', id);
    const key = [id.height, id.batch, id.index];
    const [tx] = await q<{ json: string }>(
      'SELECT json FROM transactions WHERE height = $1 AND batch = $2 AND idx = $3',
      key,
    );
    if (tx) return sendJson(ctx, 200, tx.json);
    const canonical = formatId(id.height, id.batch, id.index);
    const [market] = await q('SELECT 1 FROM market_creations WHERE height = $1 AND batch = $2 AND idx = $3', key);
    if (market)
      throw new ChainRefusal(
        'NOT_FOUND',
        `${canonical} is a market creation, not a transaction: it is in the \`markets\` of GET /blocks/${id.height}`,
      );
    throw new ChainRefusal('NOT_FOUND', `transaction ${canonical} does not exist`);
  });

  router.get('/events', async (ctx) => {
    const limit = param('limit', ctx, EVENTS_LIMIT.default, 1, EVENTS_LIMIT.max);
    const offset = param('offset', ctx, 0, 0, MAX_OFFSET);
    const market = ctx.query.market_id;
    if (market === undefined) {
      const top = (await head()).totalEvents - offset;
      const rows =
        top >= 1
          ? await q<{ json: string }>(
              'SELECT json FROM events WHERE ordinal <= $1 AND ordinal >= $2 ORDER BY ordinal DESC',
              [top, Math.max(1, top - limit + 1)],
            )
          : [];
      return sendJson(ctx, 200, `[${rows.map((r) => r.json).join(',')}]`);
    }
    if (Array.isArray(market)) throw new ChainRefusal('BAD_REQUEST', 'market_id is given more than once; give it once');
    if (!UUID_RE.test(market))
      throw new ChainRefusal('BAD_REQUEST', `market_id must be a lowercase UUID, got '${clip(market)}'`);
    const [book] = await q<{ produced_events: string }>('SELECT produced_events FROM books WHERE market_id = $1', [
      market,
    ]);
    if (!book && (await q('SELECT 1 FROM markets WHERE market_id = $1', [market])).length === 0)
      throw new ChainRefusal('NOT_FOUND', `market ${market} does not exist`);
    const top = Number(book?.produced_events ?? 0) - offset;
    const rows =
      top >= 1
        ? await q<{ json: string }>(
            'SELECT json FROM events WHERE market_id = $1 AND market_ordinal <= $2 AND market_ordinal >= $3 ORDER BY market_ordinal DESC',
            [market, top, Math.max(1, top - limit + 1)],
          )
        : [];
    sendJson(ctx, 200, `[${rows.map((r) => r.json).join(',')}]`);
  });
}

function param(name: string, ctx: RouterContext, def: number, min: number, max: number): number {
  const p = parseIntegerParam(name, ctx.query[name], def, min, max);
  if (!p.ok) throw new ChainRefusal('BAD_REQUEST', p.error);
  return p.value;
}
