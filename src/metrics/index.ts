/**
 * The door of src/metrics: the node's Prometheus registry and its metrics (metrics.ts), served
 * at GET /metrics on the REST port.
 */
export { createMetrics, type NodeMetrics } from './metrics.js';
