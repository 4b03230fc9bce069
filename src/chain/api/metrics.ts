/**
 * Prometheus metrics of the chain face (GET /metrics on the REST port): latest block,
 * stored transactions, WebSocket clients, slow WebSocket clients closed, and the time
 * from a tick closing (its timestamp) to its chain records being stored and shown.
 * Gauges read live figures at scrape time; the histogram costs one observation per batch.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Chain } from '../core/index.js';
import type { BlockSocket } from './ws.js';

export function registerChainMetrics(registry: Registry, chain: Chain, sockets: BlockSocket): () => void {
  const names = [
    'svc_chain_block_height',
    'svc_chain_transactions_total',
    'svc_chain_ws_clients',
    'svc_chain_ws_slow_closed_total',
    'svc_chain_store_lag_seconds',
  ];
  [
    new Gauge({
      name: 'svc_chain_block_height',
      help: 'Latest produced block',
      registers: [registry],
      collect() {
        this.set(chain.latestHeight());
      },
    }),
    new Gauge({
      name: 'svc_chain_transactions_total',
      help: 'Transactions in produced blocks',
      registers: [registry],
      collect() {
        this.set(chain.status().total_transactions);
      },
    }),
    new Gauge({
      name: 'svc_chain_ws_clients',
      help: 'Open WS /ws/blocks connections',
      registers: [registry],
      collect() {
        this.set(sockets.size);
      },
    }),
    new Counter({
      name: 'svc_chain_ws_slow_closed_total',
      help: 'WebSocket clients closed for not reading (code 4000)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(sockets.slowClosed);
      },
    }),
  ];
  const lag = new Histogram({
    name: 'svc_chain_store_lag_seconds',
    help: 'Time from a tick closing (its timestamp) to its chain records being stored and shown',
    buckets: [1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
    registers: [registry],
  });
  const off = chain.onStoredTick((tickTimestampUs) =>
    lag.observe(Math.max(0, Date.now() * 1000 - tickTimestampUs) / 1e6),
  );
  return () => {
    off();
    for (const name of names) registry.removeSingleMetric(name);
  };
}
