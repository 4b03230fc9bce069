/**
 * How every indexer route answers a failure, as the node's explorer does: `{"error": ...}`
 * with 400 for a bad request, 404 for what does not exist or an unknown route, 405 for
 * another method on a known path; plus 503 while PostgreSQL does not answer. Errors of the
 * node's own parsers (parseHeight) carry their status and are answered the same way.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { encodeJson } from '../wire/index.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function sendJson(ctx: Koa.Context, status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = text;
}

export function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/** A database read: its failure is a 503 that says the database is unreachable. */
export async function read<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw new HttpError(503, `the indexer's database is unavailable: ${(err as Error).message}`);
  }
}

export function corsAndErrors(router: Router, logger: Logger): Koa.Middleware {
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
          sendJson(ctx, 405, encodeJson({ error: `${ctx.method} is not allowed here; the explorer API is GET only` }));
        } else if (ctx.status === 404) {
          sendJson(ctx, 404, encodeJson({ error: `no such route: ${clip(ctx.path)}` }));
        }
      }
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      if (err instanceof Error && typeof status === 'number' && status >= 400 && status < 600 && status !== 500) {
        if (status === 503) ctx.set('Retry-After', '1');
        return sendJson(ctx, status, encodeJson({ error: err.message }));
      }
      logger.error({ err, path: ctx.path }, 'indexer: handler failed');
      sendJson(ctx, 500, encodeJson({ error: 'internal server error' }));
    }
  };
}
