/**
 * The door of src/metrics: the node's Prometheus registry and its metrics (metrics.ts), served
 * at GET /metrics on the REST port.
 */
export * from './metrics.js';
