/**
 * startIndexer: open the database pool (migrating the schema, retrying with backoff while
 * PostgreSQL is unreachable), start consuming when a NATS URL is given, and listen. close()
 * stops consuming after the database transaction in flight, then stops listening.
 */
import { createServer, type Server } from 'node:http';
import pg from 'pg';
import { formatHostPort } from '../wire/index.js';
import { startConsumer, type Consumer } from './consumer.js';
import { createIndexerApp } from './app.js';
import { RETRY_MAX_MS, RETRY_MIN_MS, type Indexer, type IndexerOptions } from './interface.js';
import { indexerRegistry } from './metrics.js';
import { migrate } from './migrate.js';
import { Tracker } from './tracker.js';

export async function startIndexer(o: IndexerOptions): Promise<Indexer> {
  const log = o.logger;
  const pool = new pg.Pool({
    connectionString: o.pgUrl,
    max: 10,
    connectionTimeoutMillis: 3000,
    application_name: 'svc-indexer',
  });
  // An idle client whose server went away: the next query says so; nothing to do here.
  pool.on('error', (err) => log.debug({ err: err.message }, 'indexer: idle database connection lost'));
  const track = new Tracker(o.mqUrl !== undefined);
  let closed = false;
  let consumer: Consumer | undefined;

  const app = createIndexerApp(pool, track, indexerRegistry(track), log);
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.indexerAddr.port, o.indexerAddr.host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const address = { host: o.indexerAddr.host, port };

  // Schema first (it may wait for PostgreSQL), then consume; reads answer 503 meanwhile.
  const ready = (async () => {
    let delay = o.retryMinMs ?? RETRY_MIN_MS;
    while (!closed) {
      try {
        const applied = await migrate(pool);
        if (applied.length > 0) log.info({ versions: applied }, 'indexer: schema migrated');
        track.dbUp = true;
        break;
      } catch (err) {
        track.dbUp = false;
        track.error = (err as Error).message;
        track.retries.database++;
        if (/does not know/.test(track.error)) throw err;
        log.warn({ err: track.error }, 'indexer: database unavailable; retrying');
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(o.retryMaxMs ?? RETRY_MAX_MS, delay * 2);
      }
    }
    if (closed || o.mqUrl === undefined) return;
    consumer = startConsumer({
      pool,
      url: o.mqUrl,
      stream: o.mqStream,
      durable: o.indexerConsumer,
      batch: o.indexerBatch,
      logger: log,
      track,
      ...(o.retryMinMs !== undefined ? { retryMinMs: o.retryMinMs } : {}),
      ...(o.retryMaxMs !== undefined ? { retryMaxMs: o.retryMaxMs } : {}),
      ...(o.stallRetryMs !== undefined ? { stallRetryMs: o.stallRetryMs } : {}),
    });
  })();
  ready.catch((err: Error) => {
    track.state = 'stalled';
    track.error = err.message;
    log.error({ err: err.message }, `indexer: ${err.message}`);
  });

  log.info({ address: formatHostPort(address) }, 'indexer: listening');
  return {
    address,
    status: () => track.status(),
    reached: (seq, timeoutMs = 30_000) => track.reached(seq, timeoutMs),
    async close() {
      closed = true;
      await ready.catch(() => undefined);
      await consumer?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
}
