/**
 * The door of the indexer (docs/indexer.md): `svc indexer` consumes the node's JetStream
 * stream into PostgreSQL, exactly once, and serves the node's explorer reads and the
 * history (trades, candles, orders, fills) from it. Nothing but src/cli imports it.
 */
export type { Indexer, IndexerConfig, IndexerOptions, IndexerState, IndexerStatus } from './interface.js';
export { startIndexer } from './service.js';
export { migrate, migrations, MIGRATIONS_DIR } from './migrate.js';
export { RESOLUTIONS, type Resolution } from './rows.js';
