/**
 * Prometheus metrics served at GET /metrics on the REST port: tick time histogram,
 * tick publication lag, queue depth, transactions per second, stream clients, totals, CPU per
 * thread (thread-cpu.ts), and prom-client's
 * default process metrics. Gauges read live figures at scrape time (collect()), so
 * nothing on the hot path pays for them except one histogram observation per tick.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Sequencer } from '../sequencer/index.js';
import { cpuSecondsByThread } from './thread-cpu.js';

export interface NodeMetrics {
  registry: Registry;
  /** One HTTP request whose client disconnected before its body ended, on face `face`. */
  requestAborted(face: string): void;
  /** One gRPC SubmitBatch request prepared on an intake thread or on the main thread. */
  submitBatch(intake: 'thread' | 'main'): void;
  /** Stop listening to ticks. */
  close(): void;
}

export interface MetricsSources {
  sequencer: Sequencer;
  streamClients(): number;
}

export function createMetrics({ sequencer, streamClients }: MetricsSources): NodeMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const tickTime = new Histogram({
    name: 'svc_tick_time_seconds',
    help: 'Time between consecutive durable ticks (tick timestamps), in seconds',
    buckets: [50e-6, 100e-6, 200e-6, 500e-6, 1e-3, 2e-3, 5e-3, 10e-3, 50e-3, 0.1, 0.2, 0.5, 1],
    registers: [registry],
  });
  new Gauge({
    name: 'svc_queue_depth',
    help: 'Transactions accepted but not yet in a durable tick',
    registers: [registry],
    collect() {
      this.set(sequencer.status().pendingTransactions);
    },
  });
  new Gauge({
    name: 'svc_transactions_per_second',
    help: 'Measured current rate of transactions entering durable ticks',
    registers: [registry],
    collect() {
      this.set(sequencer.status().transactionsPerSecond);
    },
  });
  new Gauge({
    name: 'svc_stream_clients',
    help: 'Open StreamTicks streams',
    registers: [registry],
    collect() {
      this.set(streamClients());
    },
  });
  new Gauge({
    name: 'svc_current_tick',
    help: 'Latest durable tick number',
    registers: [registry],
    collect() {
      this.set(sequencer.status().currentTick);
    },
  });
  new Gauge({
    name: 'svc_transactions_total',
    help: 'Transactions in durable ticks',
    registers: [registry],
    collect() {
      this.set(sequencer.status().totalTransactions);
    },
  });

  new Gauge({
    name: 'svc_thread_cpu_seconds_total',
    help: "CPU time (user + system) of the node process's threads since start, by thread (main, svc-<role>, other)",
    labelNames: ['thread'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [thread, seconds] of cpuSecondsByThread()) this.set({ thread }, seconds);
    },
  });

  const publishLag = new Histogram({
    name: 'svc_tick_publish_lag_seconds',
    help: 'Time from a tick closing (its timestamp) until it is durable and published to streams and queries',
    buckets: [1e-4, 5e-4, 1e-3, 5e-3, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  let lastTimestamp = 0;
  const unsubscribe = sequencer.onTick((tick) => {
    publishLag.observe(Math.max(0, Date.now() * 1000 - tick.timestamp) / 1e6);
    if (lastTimestamp > 0 && tick.timestamp >= lastTimestamp) tickTime.observe((tick.timestamp - lastTimestamp) / 1e6);
    lastTimestamp = tick.timestamp;
  });
  const aborted = new Counter({
    name: 'svc_http_requests_aborted_total',
    help: 'HTTP requests whose client disconnected before the request body ended, by face',
    labelNames: ['face'],
    registers: [registry],
  });
  const batches = new Counter({
    name: 'svc_submit_batch_requests_total',
    help: 'gRPC SubmitBatch requests, by where they were decoded, checked and hashed (intake: thread or main)',
    labelNames: ['intake'],
    registers: [registry],
  });
  return {
    registry,
    requestAborted: (face) => aborted.inc({ face }),
    submitBatch: (intake) => batches.inc({ intake }),
    close: unsubscribe,
  };
}
