/**
 * The explorer REST of spec/3 (Koa + @koa/router) on --rpc-addr, GET only, JSON:
 *
 *   /status                       node status
 *   /blocks?limit&offset          BlockRecords, height descending (limit 1..100, default 20)
 *   /blocks/latest                block detail of the latest block
 *   /blocks/:height               block detail
 *   /blocks/:height/ticks         the sequencer ticks behind the block's batches, as
 *                                 /api/v1/tick/N gives them (for VDF checks in a browser)
 *   /transactions/:id             one ExplorerTransaction
 *   /transactions/:id/proof       its inclusion proof (proof-routes.ts, docs/proofs.md)
 *   /markets/:market_id/orders/:order_id/proof?owner=  an order's state proof (proof-routes.ts)
 *   /events?limit&offset&market_id ExplorerEvents, newest first (limit 1..200, default 50)
 *   /orders/user/:owner           the owner's open orders (docs/chain.md)
 *   /openapi.json                 the OpenAPI document of this face
 *
 * Errors (design.md): malformed height, id, owner, market id, limit or offset -> 400;
 * unknown block, transaction, market or owner -> 404; body {"error": "..."}. Bodies are
 * the stored JSON values, concatenated, not re-serialized.
 */
import Router, { type RouterContext } from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { DexState } from '../../dex/engine/index.js';
import { restTick } from '../../vdf/index.js';
import { fromBase58Key, toBase58Key } from '../../crypto/index.js';
import { UUID_RE } from '../../core/index.js';
import type { Sequencer } from '../../sequencer/index.js';
import type { Chain } from '../core/index.js';
import { formatId, MAX_HEIGHT, parseId, recordKey } from '../core/index.js';
import type { RpcRouteHook } from './interface.js';
import type { BlockRecord } from '../core/index.js';
import { clip, encodeJson, parseIntegerParam, parseRecordJson } from '../../wire/index.js';
import { explorerOpenApi } from './openapi.js';
import type { OrderRecords } from '../core/index.js';
import { mountProofRoutes } from './proof-routes.js';
import { ChainRefusal, corsAndErrors, sendJson } from './errors.js';

export const BLOCKS_LIMIT = { default: 20, max: 100 };
export const EVENTS_LIMIT = { default: 50, max: 200 };
export const TICKS_LIMIT = { default: 100, max: 500 };
export const ORDERS_LIMIT = { default: 100, max: 1000 };
const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

export interface ExplorerAppOptions {
  chain: Chain;
  state: () => DexState; // the order book engine's live state (open orders)
  sequencer: Pick<Sequencer, 'getTick' | 'status'>;
  logger: Logger;
  hooks?: readonly RpcRouteHook[];
  /** What the chain keeps per order (order state proofs; absent: they answer 503). */
  orders?: OrderRecords;
}

/**
 * A block height from a path: decimal digits whose VALUE is 1..2^53-1; leading zeros are
 * allowed and do not count (`0000000000000000001` is 1), so the bound is on the value,
 * never on the length of the text.
 */
export function parseHeight(text: string): number {
  if (!/^\d+$/.test(text))
    throw new ChainRefusal('BAD_REQUEST', `height must be a positive integer, got '${clip(text)}'`);
  const digits = text.replace(/^0+/, '');
  if (digits === '') throw new ChainRefusal('BAD_REQUEST', 'heights start at 1');
  if (digits.length > 16 || Number(digits) > MAX_HEIGHT)
    throw new ChainRefusal('BAD_REQUEST', `height ${clip(text)} is too large (at most ${MAX_HEIGHT})`);
  return Number(digits);
}

function param(name: string, raw: string | string[] | undefined, def: number, min: number, max: number): number {
  const p = parseIntegerParam(name, raw, def, min, max);
  if (!p.ok) throw new ChainRefusal('BAD_REQUEST', p.error);
  return p.value;
}

/** The id of a stored transaction from its chain-tx key (16 + 8 + 8 hex). */
function idOfKey(key: string): string {
  return formatId(parseInt(key.slice(0, 16), 16), parseInt(key.slice(16, 24), 16), parseInt(key.slice(24, 32), 16));
}

type Handler = (ctx: RouterContext) => void | Promise<void>;

export function createExplorerApp(options: ExplorerAppOptions): Koa {
  const { chain, state } = options;
  const app = new Koa();
  const router = new Router();
  app.use(corsAndErrors(router, options.logger, 'explorer'));
  for (const hook of options.hooks ?? []) hook(router, chain);
  router.get('/status', (ctx) => sendJson(ctx, 200, encodeJson(chain.status())));
  router.get('/openapi.json', (ctx) => sendJson(ctx, 200, JSON.stringify(explorerOpenApi)));
  router.get('/blocks', blocksPage(chain));
  router.get('/blocks/latest', latestBlock(chain));
  router.get('/blocks/:height', blockDetail(chain));
  router.get('/blocks/:height/ticks', blockTicks(chain, options.sequencer));
  mountProofRoutes(router, {
    chain,
    state,
    sequencer: options.sequencer,
    ...(options.orders ? { orders: options.orders } : {}),
  });
  router.get('/transactions/:id', transactionById(chain));
  router.get('/events', eventsPage(chain, state));
  router.get('/orders/user/:owner', openOrdersOf(chain, state));
  app.use(router.routes());
  return app;
}

/** GET /blocks: BlockRecords, height descending. */
function blocksPage(chain: Chain): Handler {
  return async (ctx) => {
    const limit = param('limit', ctx.query.limit, BLOCKS_LIMIT.default, 1, BLOCKS_LIMIT.max);
    const offset = param('offset', ctx.query.offset, 0, 0, MAX_OFFSET);
    const top = chain.latestHeight() - offset;
    const list = top >= 1 ? await chain.store.blockJsonsDescending(top, Math.max(1, top - limit + 1)) : [];
    sendJson(ctx, 200, `[${list.join(',')}]`);
  };
}

/** GET /blocks/latest: the latest block detail, as encoded once per block. */
function latestBlock(chain: Chain): Handler {
  return (ctx) => {
    const latest = chain.latestDetailJson();
    if (!latest) throw new ChainRefusal('NOT_FOUND', 'no block has been produced yet');
    ctx.status = 200;
    ctx.type = 'application/json';
    ctx.body = latest.bytes;
  };
}

/** The height in a path, of a block already produced (404 otherwise). */
function producedHeight(chain: Chain, text: string): number {
  const h = parseHeight(text);
  if (h > chain.latestHeight())
    throw new ChainRefusal('NOT_FOUND', `block ${h} does not exist (latest is ${chain.latestHeight()})`);
  return h;
}

/** GET /blocks/:height: one block detail. */
function blockDetail(chain: Chain): Handler {
  return async (ctx) => {
    const h = producedHeight(chain, ctx.params.height ?? '');
    const json = await chain.store.blockDetailJson(h);
    if (json === undefined) throw new ChainRefusal('NOT_FOUND', `block ${h} does not exist`);
    sendJson(ctx, 200, json);
  };
}

/** GET /blocks/:height/ticks: the sequencer ticks behind the block's batches, as REST serves ticks. */
function blockTicks(chain: Chain, sequencer: Pick<Sequencer, 'getTick' | 'status'>): Handler {
  return async (ctx) => {
    const h = producedHeight(chain, ctx.params.height ?? '');
    const limit = param('limit', ctx.query.limit, TICKS_LIMIT.default, 1, TICKS_LIMIT.max);
    const offset = param('offset', ctx.query.offset, 0, 0, MAX_OFFSET);
    const text = await chain.store.blockJson(h);
    if (text === undefined) throw new ChainRefusal('NOT_FOUND', `block ${h} does not exist`);
    const block = parseRecordJson<BlockRecord>(text);
    const numbers = block.batch_summaries.map((b) => b.tick_number).slice(offset, offset + limit);
    const ticks = [];
    for (const n of numbers) {
      const tick = await sequencer.getTick(n);
      if (!tick && n > sequencer.status().currentTick) {
        // Blocks are cut from ordered ticks; ticks are served once proven (a cut heartbeat's
        // proof comes from the pool a moment later): answer as a pending proof is answered.
        throw new ChainRefusal('PENDING', `tick ${n} of block ${h} has no stored proof yet; retry shortly`);
      }
      if (!tick) throw new Error(`tick ${n} of block ${h} is missing from the tick store`);
      ticks.push(restTick(tick));
    }
    sendJson(ctx, 200, encodeJson({ block_height: h, total: block.batch_summaries.length, offset, ticks }));
  };
}

/** GET /transactions/:id: one stored transaction (a market creation's id is a 404 that says so). */
function transactionById(chain: Chain): Handler {
  return async (ctx) => {
    const id = parseId(ctx.params.id ?? '', 'transaction id');
    if (typeof id === 'string') throw new ChainRefusal('BAD_REQUEST', id);
    const json = await chain.transactionJson(id);
    if (json === undefined) {
      const canonical = formatId(id.height, id.batch, id.index);
      if ((await chain.store.markets.get(recordKey(id.height, id.batch, id.index))) !== undefined) {
        throw new ChainRefusal(
          'NOT_FOUND',
          `${canonical} is a market creation, not a transaction: it is in the \`markets\` of GET /blocks/${id.height}`,
        );
      }
      throw new ChainRefusal('NOT_FOUND', `transaction ${canonical} does not exist`);
    }
    sendJson(ctx, 200, json);
  };
}

/** GET /events: events newest first, of every market or of one (market_id). */
function eventsPage(chain: Chain, state: () => DexState): Handler {
  return async (ctx) => {
    const limit = param('limit', ctx.query.limit, EVENTS_LIMIT.default, 1, EVENTS_LIMIT.max);
    const offset = param('offset', ctx.query.offset, 0, 0, MAX_OFFSET);
    const market = ctx.query.market_id;
    if (market === undefined) {
      const top = chain.status().total_events - offset;
      const list = top >= 1 ? await chain.store.eventJsonsDescending(top, Math.max(1, top - limit + 1)) : [];
      return sendJson(ctx, 200, `[${list.join(',')}]`);
    }
    if (Array.isArray(market)) throw new ChainRefusal('BAD_REQUEST', 'market_id is given more than once; give it once');
    if (!UUID_RE.test(market))
      throw new ChainRefusal('BAD_REQUEST', `market_id must be a lowercase UUID, got '${clip(market)}'`);
    const produced = chain.builder.producedEventsOf(market);
    if (produced === undefined && !state().markets.has(market))
      throw new ChainRefusal('NOT_FOUND', `market ${market} does not exist`);
    const top = (produced ?? 0) - offset;
    const list =
      top >= 1 ? await chain.store.marketEventJsonsDescending(market, top, Math.max(1, top - limit + 1)) : [];
    sendJson(ctx, 200, `[${list.join(',')}]`);
  };
}

/** The owner in a path: a Base58 public key of 32 bytes (400 otherwise). */
function parseOwner(text: string): Uint8Array {
  try {
    if (text.length > 64) throw new TypeError('too long');
    return fromBase58Key(text, 'owner');
  } catch (err) {
    throw new ChainRefusal('BAD_REQUEST', `owner must be a Base58 public key (32 bytes): ${(err as Error).message}`);
  }
}

/** GET /orders/user/:owner: the owner's open orders in the live order book, with their transactions' ids. */
function openOrdersOf(chain: Chain, live: () => DexState): Handler {
  return async (ctx) => {
    const owner = parseOwner(ctx.params.owner ?? '');
    const limit = param('limit', ctx.query.limit, ORDERS_LIMIT.default, 1, ORDERS_LIMIT.max);
    const offset = param('offset', ctx.query.offset, 0, 0, MAX_OFFSET);
    const state = live();
    if (!state.knowsOwner(owner))
      throw new ChainRefusal('NOT_FOUND', `owner ${toBase58Key(owner)} has never placed an order`);
    const open = state.openOrdersOf(owner);
    const page = open.slice(offset, offset + limit);
    // The ids of the orders' transactions: their ticks may still be being stored.
    await chain.whenStored(state.lastTick);
    const keys = await chain.store.keysOfSequences(page.map((o) => o.seq));
    const orders = page.map((o, i) => {
      const market = state.markets.get(o.marketId)!;
      return {
        market_id: o.marketId,
        market_name: market.info.name,
        order_id: o.orderId,
        side: o.side === 0 ? 'Buy' : 'Sell',
        price: o.price,
        quantity: o.quantity,
        remaining: o.remaining,
        expiry: o.expiry,
        continuum_sequence: o.seq,
        tick_number: Number(o.seq >> 32n),
        transaction_id: keys[i] === undefined ? null : idOfKey(keys[i]!),
        slot: o.slot,
      };
    });
    sendJson(ctx, 200, encodeJson({ owner: toBase58Key(owner), total: open.length, offset, orders }));
  };
}
