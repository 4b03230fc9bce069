/**
 * The indexer's HTTP face (Koa + @koa/router, like the node's faces): the node's explorer
 * routes and the history routes from PostgreSQL, /health, /metrics and /openapi.json.
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { mountExplorerRoutes } from './explorer-routes.js';
import { mountHistoryRoutes } from './history-routes.js';
import { corsAndErrors, sendJson } from '../chain/api/index.js';
import { indexerOpenApi } from './openapi.js';
import type { Tracker } from './tracker.js';

export function createIndexerApp(pool: Pool, track: Tracker, registry: Registry, logger: Logger): Koa {
  const app = new Koa();
  const router = new Router();
  app.use(corsAndErrors(router, logger, 'indexer'));
  router.get('/health', async (ctx) => {
    // A reading-only indexer learns of its database here; a consuming one from its writes too.
    try {
      await pool.query('SELECT 1');
      if (!track.consuming) track.dbUp = true;
    } catch {
      track.dbUp = false;
    }
    const healthy = track.healthy();
    sendJson(ctx, healthy ? 200 : 503, JSON.stringify({ status: healthy ? 'ok' : 'degraded', ...track.status() }));
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  router.get('/openapi.json', (ctx) => sendJson(ctx, 200, JSON.stringify(indexerOpenApi)));
  mountExplorerRoutes(router, pool);
  mountHistoryRoutes(router, pool);
  app.use(router.routes());
  return app;
}
