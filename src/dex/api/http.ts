/**
 * The order book's HTTP API (Koa + @koa/router), spec/2's endpoints in one envelope:
 *   success  {"ok": true, "data": ...}
 *   error    {"ok": false, "error": "<message>", "code": "<CODE>"}
 * Bodies are JSON only (415 otherwise), at most `bodyLimit` bytes (413), parsed by hand so
 * the limit holds before anything is buffered past it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from 'pino';
import { isClientDisconnect } from '../../log/index.js';
import { toBase58, bytesToHex } from '../../crypto/index.js';
import type { HealthView } from '../../core/index.js';
import type { DexFollowHooks } from './interface.js';
import { DexRefusal, ClientGoneError } from '../index.js';
import { DEFAULT_BODY_LIMIT, RETRY_AFTER_S, readJsonBody, sendError, sendJsonText } from './http-json.js';
import { openApiDocument } from './openapi.js';
import type { DexService } from '../index.js';
import { bookView, marketView, tradeView } from '../index.js';
import { MAX_BATCH_BYTES, placeBatch } from '../index.js';
import { parseCancel, parseCancelAll, parseCreateMarket, parsePlaceOrder, uuid } from '../index.js';

export { DEFAULT_BODY_LIMIT, RETRY_AFTER_S, readJsonBody, sendJsonText, sendError } from './http-json.js';

async function readJson(ctx: Koa.Context, limit: number): Promise<unknown> {
  return readJsonBody(ctx.req, limit);
}

function intParam(value: string | string[] | undefined, name: string, def: number, max: number): number {
  if (value === undefined) return def;
  const v = Array.isArray(value) ? value[0]! : value;
  if (!/^\d{1,6}$/.test(v) || Number(v) < 1 || Number(v) > max)
    throw new DexRefusal('INVALID_FIELD', `${name} must be an integer in [1, ${max}]`);
  return Number(v);
}

export interface HttpOptions {
  bodyLimit?: number; // default DEFAULT_BODY_LIMIT (16 KiB)
  logger?: Logger;
  /** Called once per request whose client went away mid-body (the node's aborted-requests counter). */
  onClientGone?: () => void;
  /** A full node's hooks: writes go to the leader; /health names it. */
  follow?: DexFollowHooks;
}

/** A client that went away mid-body: debug log and counter, never an error line. */
function clientGone(
  opts: HttpOptions,
  err: ClientGoneError,
  method: string | undefined,
  url: string | undefined,
): void {
  opts.onClientGone?.();
  opts.logger?.debug({ method, url, reason: err.message }, 'dex: client disconnected mid-request (aborted)');
}

/** CORS: the SDK runs in browsers on other origins. The API uses no cookies or ambient credentials (authority is the ed25519 signature in the body), so any origin may call it. */
const cors: Koa.Middleware = async (ctx, next) => {
  ctx.set('Access-Control-Allow-Origin', '*');
  if (ctx.method === 'OPTIONS') {
    ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    ctx.set('Access-Control-Allow-Headers', 'content-type');
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
    return;
  }
  await next();
};

/** Every failure as the API's error envelope: unknown routes 404, wrong methods 405, the rest 500; a client gone mid-body is only logged. */
function errorEnvelope(opts: HttpOptions): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        throw new DexRefusal('NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
      if (ctx.status === 405 && (ctx.body === undefined || typeof ctx.body === 'string'))
        throw new DexRefusal('METHOD_NOT_ALLOWED', `method ${ctx.method} not allowed on ${ctx.path}`);
    } catch (err) {
      if (err instanceof ClientGoneError) {
        clientGone(opts, err, ctx.method, ctx.url);
        ctx.respond = false; // nobody is listening
        return;
      }
      const e = err instanceof DexRefusal ? err : new DexRefusal('INTERNAL', 'internal error');
      if (!(err instanceof DexRefusal)) opts.logger?.error({ err }, 'dex: unhandled error');
      ctx.status = e.status;
      if (e.status === 503) ctx.set('Retry-After', String(RETRY_AFTER_S));
      ctx.body = { ok: false, error: e.message, code: e.code };
    }
  };
}

function ok(ctx: Koa.Context, data: unknown, status = 200): void {
  ctx.status = status;
  ctx.body = { ok: true, data };
}

/** GET /health: the node's identity and where its state stands (and its leader, on a full node). */
function healthRoute(service: DexService, opts: HttpOptions): (ctx: Koa.Context) => void {
  return (ctx) => {
    const health: HealthView = {
      status: 'ok',
      sequencer_id: service.key.sequencerId,
      public_key: toBase58(service.key.publicKey),
      public_key_hex: bytesToHex(service.key.publicKey),
      timestamp: Date.now() * 1000,
      tick_number: service.state.lastTick,
      markets: service.state.markets.size,
    };
    ok(ctx, opts.follow ? { ...health, leader: opts.follow.leader() } : health);
  };
}

/** The reads of one market: its book and its recent trades. */
function marketRoutes(router: Router, service: DexService): void {
  const marketOf = (id: string) => {
    const m = service.state.markets.get(uuid(id));
    if (!m) throw new DexRefusal('UNKNOWN_MARKET', 'unknown market_id');
    return m;
  };
  router.get('/markets/:market_id/orderbook', (ctx) => {
    const m = marketOf(ctx.params.market_id!);
    const orders = ctx.query.orders;
    if (orders !== undefined && orders !== 'true' && orders !== 'false')
      throw new DexRefusal('INVALID_FIELD', 'orders must be true or false');
    ok(ctx, bookView(m, intParam(ctx.query.depth, 'depth', 50, 1000), Date.now(), orders === 'true'));
  });
  router.get('/markets/:market_id/trades', (ctx) => {
    const m = marketOf(ctx.params.market_id!);
    const n = intParam(ctx.query.limit, 'limit', 100, 1000);
    const t = m.trades;
    const out = [];
    for (let i = t.length - 1; i >= 0 && out.length < n; i--) out.push(tradeView(m.info.marketId, t[i]!));
    ok(ctx, out);
  });
}

/** The order book API as a Koa app: CORS, the error envelope, then the route table. */
export function createApp(service: DexService, opts: HttpOptions = {}): Koa {
  const limit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const app = new Koa();
  const router = new Router();
  // Koa reports a response that could not be finished (the client went away) here; without a
  // listener it prints the error to stderr.
  app.on('error', (err: unknown) => {
    if (isClientDisconnect(err)) opts.logger?.debug({ err }, 'dex: client disconnected');
    else opts.logger?.error({ err }, 'dex: unhandled error');
  });
  app.use(cors);
  app.use(errorEnvelope(opts));

  router.get('/health', healthRoute(service, opts));
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument;
  });
  router.get('/markets', (ctx) => ok(ctx, [...service.state.markets.values()].map(marketView)));
  router.post('/markets', async (ctx) => {
    const m = parseCreateMarket(await readJson(ctx, limit));
    ok(ctx, await service.createMarket(m.baseMint, m.quoteMint, m.name, m.kind), 201);
  });
  marketRoutes(router, service);
  router.post('/orders', async (ctx) => {
    const { intent, signature } = parsePlaceOrder(await readJson(ctx, limit));
    ok(ctx, await service.placeOrder(intent, signature, ctx.req.socket.remoteAddress));
  });
  router.post('/orders/cancel', async (ctx) => {
    const c = parseCancel(await readJson(ctx, limit));
    ok(ctx, await service.cancelOrder(c.orderId, c.owner, c.marketId, c.signature, ctx.req.socket.remoteAddress));
  });
  router.post('/orders/batch', async (ctx) => {
    ok(ctx, await placeBatch(service, await readJson(ctx, MAX_BATCH_BYTES), ctx.req.socket.remoteAddress));
  });
  router.post('/orders/cancel-all', async (ctx) => {
    const c = parseCancelAll(await readJson(ctx, limit));
    ok(ctx, await service.cancelAll(c.data, c.signature, ctx.req.socket.remoteAddress));
  });

  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/**
 * The node's request handler: `POST /orders` (the hot path, exactly that URL) is answered
 * here without Koa's context, middleware chain and router, with the same behaviour as the
 * Koa route (CORS header, body checks, envelope, status codes, JSON content type); every
 * other request goes to `createApp`.
 */
export function createHandler(
  service: DexService,
  opts: HttpOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const limit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const koa = createApp(service, opts).callback();
  const send = (res: ServerResponse, status: number, body: unknown): void =>
    sendJsonText(res, status, JSON.stringify(body));
  const placeOrder = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const { intent, signature } = parsePlaceOrder(await readJsonBody(req, limit));
      const data = await service.placeOrder(intent, signature, req.socket.remoteAddress);
      send(res, 200, { ok: true, data });
    } catch (err) {
      if (err instanceof ClientGoneError) return clientGone(opts, err, req.method, req.url);
      const e = err instanceof DexRefusal ? err : new DexRefusal('INTERNAL', 'internal error');
      if (!(err instanceof DexRefusal)) opts.logger?.error({ err }, 'dex: unhandled error');
      if (!res.headersSent) sendError(res, e);
    }
  };
  return (req, res) => {
    if (opts.follow?.intercept(req, res)) return;
    if (req.method === 'POST' && req.url === '/orders') void placeOrder(req, res);
    else void koa(req, res);
  };
}
