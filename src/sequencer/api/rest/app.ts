/**
 * REST /api/v1 (spec/1, GET only) and GET /metrics as a Koa app over a Sequencer.
 * Errors follow design.md: `{"error": "..."}` with 400/404/405/500/503; an unknown
 * transaction or tick answers 404 with `{"error": ..., "found": false}`.
 * When several transactions share an 8-hex hash, tx/{hash} answers the earliest
 * (lowest sequence number) and says how many matched in `matches`; tx/{hash}/proof
 * (docs/proofs.md) answers 409 with the candidates instead, and 404 with `pending: true`
 * and Retry-After while the transaction's tick waits for its proof.
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import { isClientDisconnect } from '../../../log/index.js';
import type { Registry } from 'prom-client';
import type { Sequencer } from '../../index.js';
import { encodeArchiveRecord } from '../../../store/index.js';
import { nowMicros } from '../../../core/index.js';
import { earliest, restRecentTicks, restStatus, restTransaction } from '../convert.js';
import { restTick } from '../../../vdf/index.js';
import { DEFAULT_RECENT_LIMIT, MAX_RECENT_LIMIT, MAX_RECENT_OFFSET } from '../limits.js';
import { parseProofHash, parseTickNumberText, parseTxHash } from '../params.js';
import { lookupTransactionProof } from '../tx-proof.js';
import { encodeJson, parseIntegerParam } from '../../../wire/index.js';
import { loadVerifierAssets } from './verifier-page.js';

export interface RestAppOptions {
  sequencer: Sequencer;
  logger: Logger;
  registry?: Registry; // serves GET /metrics when given
  /** True once the node is shutting down: health answers 503. */
  isStopping?: () => boolean;
}

function send(ctx: Koa.Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = encodeJson(body);
}

/** Status, health and one transaction by hash; its inclusion proof (docs/proofs.md "Endpoints"). */
function transactionRoutes(router: Router, options: RestAppOptions): void {
  const { sequencer } = options;
  router.get('/api/v1/status', (ctx) => send(ctx, 200, restStatus(sequencer.status())));

  router.get('/api/v1/health', (ctx) => {
    if (options.isStopping?.())
      send(ctx, 503, { error: 'node is shutting down', status: 'stopping', timestamp: nowMicros() });
    else send(ctx, 200, { status: 'healthy', timestamp: nowMicros() });
  });

  router.get('/api/v1/tx/:hash', async (ctx) => {
    const hash = parseTxHash(ctx.params.hash ?? '');
    if (!hash.ok) return send(ctx, 400, { error: hash.error });
    const matches = await sequencer.findTransactions(hash.value);
    const first = earliest(matches);
    if (!first) return send(ctx, 404, { error: `no transaction with hash ${hash.value}`, found: false });
    send(ctx, 200, restTransaction(first, matches.length));
  });

  router.get('/api/v1/tx/:hash/proof', async (ctx) => {
    const hash = parseProofHash(ctx.params.hash ?? '');
    if (!hash.ok) return send(ctx, 400, { error: hash.error });
    const r = await lookupTransactionProof(sequencer, hash.value);
    switch (r.kind) {
      case 'found':
        return send(ctx, 200, r.proof);
      case 'ambiguous':
        return send(ctx, 409, {
          error: `${r.candidates.length} proven transactions share the hash ${hash.value}: ask again with a full 64-hex hash`,
          candidates: r.candidates.map((c) => ({
            tx_hash: c.txHash,
            tick_number: c.tickNumber,
            sequence_number: c.sequenceNumber,
          })),
        });
      case 'pending':
        ctx.set('Retry-After', '1');
        return send(ctx, 404, {
          error: `transaction ${hash.value} is not yet in a proven tick; retry shortly`,
          found: false,
          pending: true,
        });
      case 'unknown':
        return send(ctx, 404, {
          error: `no transaction with hash ${hash.value} in a proven tick`,
          found: false,
          pending: false,
        });
    }
  });
}

/** One tick (REST form), its spec/1 archive record, and the recent ticks. */
function tickRoutes(router: Router, sequencer: Sequencer): void {
  router.get('/api/v1/tick/:number', async (ctx) => {
    const n = parseTickNumberText(ctx.params.number ?? '');
    if (!n.ok) return send(ctx, 400, { error: n.error });
    const withTxs = ctx.query.transactions;
    if (withTxs !== undefined && withTxs !== 'true' && withTxs !== 'false') {
      return send(ctx, 400, { error: 'transactions must be true or false' });
    }
    const tick = await sequencer.getTick(n.value);
    if (!tick) return send(ctx, 404, { error: `tick ${n.value} does not exist (yet)`, found: false });
    send(ctx, 200, restTick(tick, withTxs === 'true'));
  });

  // spec/1's archived tick record, exactly as the JSON archive writes it (the store keeps
  // ticks in binary, docs/storage.md; this is the record they stand for).
  router.get('/api/v1/archive/:number', async (ctx) => {
    const n = parseTickNumberText(ctx.params.number ?? '');
    if (!n.ok) return send(ctx, 400, { error: n.error });
    const tick = await sequencer.getTick(n.value);
    if (!tick) return send(ctx, 404, { error: `tick ${n.value} does not exist (yet)`, found: false });
    ctx.type = 'application/json';
    ctx.body = encodeArchiveRecord(tick);
  });

  router.get('/api/v1/ticks/recent', async (ctx) => {
    const limit = parseIntegerParam('limit', ctx.query.limit, DEFAULT_RECENT_LIMIT, 1, MAX_RECENT_LIMIT);
    if (!limit.ok) return send(ctx, 400, { error: limit.error });
    const offset = parseIntegerParam('offset', ctx.query.offset, 0, 0, MAX_RECENT_OFFSET);
    if (!offset.ok) return send(ctx, 400, { error: offset.error });
    send(ctx, 200, restRecentTicks(await sequencer.recentTicks(limit.value, offset.value)));
  });
}

/** The standalone verifier page's files at /verifier/. */
function verifierRoutes(router: Router): void {
  const verifier = loadVerifierAssets();
  const serveVerifier = (ctx: Koa.Context, file: string): void => {
    const asset = verifier.get(file);
    if (!asset) return send(ctx, 404, { error: `no such verifier file: ${file}` });
    ctx.type = asset.type;
    ctx.body = asset.body;
  };
  router.get('/verifier', (ctx) => ctx.redirect('/verifier/index.html')); // also matches /verifier/
  router.get('/verifier/:file', (ctx) => serveVerifier(ctx, ctx.params.file ?? ''));
}

export function createRestApp(options: RestAppOptions): Koa {
  const { sequencer, logger, registry } = options;
  const app = new Koa();
  const router = new Router();
  // A response the client did not wait for is its own doing: debug, not error (and not Koa's stderr print).
  app.on('error', (err: unknown) => {
    if (isClientDisconnect(err)) logger.debug({ err }, 'REST: client disconnected');
    else logger.error({ err }, 'REST: unhandled error');
  });

  app.use(async (ctx, next) => {
    // Read-only public data: any origin may fetch it (a browser verifying ticks, say).
    ctx.set('Access-Control-Allow-Origin', '*');
    try {
      await next();
    } catch (err) {
      logger.error({ err, path: ctx.path }, 'REST handler failed');
      send(ctx, 500, { error: 'internal server error' });
    }
  });

  transactionRoutes(router, options);
  tickRoutes(router, sequencer);
  verifierRoutes(router);
  if (registry) {
    router.get('/metrics', async (ctx) => {
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    });
  }

  app.use(router.routes());
  app.use(async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status === 404) {
      const matched = router.match(ctx.path, 'GET').path.length > 0;
      if (matched) send(ctx, 405, { error: `${ctx.method} is not allowed here; the API is GET only` });
      else send(ctx, 404, { error: `no such route: ${ctx.path}` });
    }
  });
  return app;
}
