/**
 * The door of the indexer (docs/indexer.md): `svc indexer` consumes the node's JetStream
 * stream into PostgreSQL, exactly once, and serves the node's explorer reads and the
 * history (trades, candles, orders, fills) from it. Nothing but src/cli imports it.
 */
export type { Indexer, IndexerOptions } from './interface.js';
export { startIndexer } from './service.js';
