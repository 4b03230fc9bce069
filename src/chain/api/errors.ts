/**
 * The explorer API's refusal (the node's explorer and the indexer answer alike,
 * the error table of docs/chain.md): core's coded Refusal with the one table of the HTTP status each
 * code answers with, and the one middleware that turns a refusal, an unknown route or a
 * fault into the API's JSON body `{"error": "<message>", ...}`.
 *
 *   BAD_REQUEST         400  a path or query value that is not what the route takes
 *   NOT_FOUND           404  what the path names does not exist
 *   PENDING             404  it exists but is not proven yet: body `pending: true`, Retry-After
 *   METHOD_NOT_ALLOWED  405  another method on a known path (the API is GET only)
 *   UNAVAILABLE         503  the node or its database cannot answer now (Retry-After when retrying helps)
 *
 * A fault (any other error) is logged and answered 500 without its details.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { Refusal } from '../../core/index.js';
import { clip, encodeJson } from '../../wire/index.js';

export type ChainRefusalCode = 'BAD_REQUEST' | 'NOT_FOUND' | 'PENDING' | 'METHOD_NOT_ALLOWED' | 'UNAVAILABLE';

/** The HTTP status of each refusal code: stated once. */
export const HTTP_STATUS: Readonly<Record<ChainRefusalCode, number>> = {
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  PENDING: 404,
  METHOD_NOT_ALLOWED: 405,
  UNAVAILABLE: 503,
};

export interface ChainRefusalOptions {
  /** Seconds for Retry-After (PENDING answers 1 unless told otherwise). */
  retryAfter?: number;
  /** Fields the body carries after `error` (before `pending`). */
  fields?: Record<string, unknown>;
}

export class ChainRefusal extends Refusal<ChainRefusalCode> {
  readonly retryAfter: number | undefined;
  readonly fields: Record<string, unknown>;
  constructor(code: ChainRefusalCode, message: string, options: ChainRefusalOptions = {}) {
    super(code, message);
    this.name = 'ChainRefusal';
    this.retryAfter = options.retryAfter ?? (code === 'PENDING' ? 1 : undefined);
    this.fields = options.fields ?? {};
  }

  get status(): number {
    return HTTP_STATUS[this.code];
  }

  /** The answer's JSON body. */
  body(): Record<string, unknown> {
    return { error: this.message, ...this.fields, ...(this.code === 'PENDING' ? { pending: true } : {}) };
  }
}

/** Answer `ctx` with the refusal: its status, Retry-After if any, its JSON body. */
export function answerRefusal(ctx: Koa.Context, r: ChainRefusal): void {
  if (r.retryAfter !== undefined) ctx.set('Retry-After', String(r.retryAfter));
  sendJson(ctx, r.status, encodeJson(r.body()));
}

export function sendJson(ctx: Koa.Context, status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = text;
}

/**
 * Any origin may read (public read-only data: no cookies, no credentials), and every
 * failure is a JSON body: a ChainRefusal's, 405 for another method on a known path, 404 for
 * an unknown one, 500 (logged as `<who>: handler failed`) for anything else.
 */
export function corsAndErrors(router: Router, logger: Logger, who: string): Koa.Middleware {
  return async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, OPTIONS');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (
          ctx.status === 404 &&
          router.match(ctx.path, 'GET').path.length > 0 &&
          ctx.method !== 'GET' &&
          ctx.method !== 'HEAD'
        ) {
          const msg = `${ctx.method} is not allowed here; the explorer API is GET only`;
          answerRefusal(ctx, new ChainRefusal('METHOD_NOT_ALLOWED', msg));
        } else if (ctx.status === 404) {
          answerRefusal(ctx, new ChainRefusal('NOT_FOUND', `no such route: ${clip(ctx.path)}`));
        }
      }
    } catch (err) {
      if (err instanceof ChainRefusal) return answerRefusal(ctx, err);
      logger.error({ err, path: ctx.path }, `${who}: handler failed`);
      sendJson(ctx, 500, encodeJson({ error: 'internal server error' }));
    }
  };
}
