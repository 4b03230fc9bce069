/**
 * svc_mq_* metrics on the node's /metrics: whether the producer is connected, whether the
 * stream answers it (a connected producer can still face a stream with no leader), what the
 * stream acknowledged, how far it trails the stored chain. Gauges read the producer's
 * status at scrape time; nothing here runs per message.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { MqStatus } from './interface.js';

export function registerMqMetrics(registry: Registry, status: () => MqStatus): void {
  const gauge = (name: string, help: string, read: (s: MqStatus) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(status()));
      },
    });
  gauge('svc_mq_connected', '1 while the JetStream producer is connected to NATS, else 0', (s) =>
    s.connected ? 1 : 0,
  );
  gauge(
    'svc_mq_stream_available',
    '1 while the JetStream stream answers the producer (resync and acks), 0 from a failure ' +
      '(NATS down, no stream leader, an ack timeout) until a resync succeeds',
    (s) => (s.streamAvailable ? 1 : 0),
  );
  gauge(
    'svc_mq_outage_seconds',
    'How long the stream has not been answering the producer (0 while it answers)',
    (s) => s.outageMs / 1000,
  );
  gauge('svc_mq_lag_blocks', 'Stored blocks the JetStream stream has not acknowledged yet', (s) => s.lagBlocks);
  gauge(
    'svc_mq_published_height',
    'Height of the last block the stream holds: read back from the stream at each (re)connection, then raised by each acknowledged block',
    (s) => s.publishedHeight,
  );
  gauge('svc_mq_pending_acks', 'Messages published and awaiting their JetStream ack', (s) => s.pendingAcks);
  gauge(
    'svc_mq_diverged',
    "1 when the stream holds a chain other than this node's and the producer refuses to write",
    (s) => (s.state === 'diverged' ? 1 : 0),
  );
  // Counters mirrored from the producer's own totals at scrape time.
  new Counter({
    name: 'svc_mq_published_total',
    help: 'Messages the JetStream stream acknowledged as new, by kind (tx, block)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const s = status();
      this.reset();
      this.inc({ kind: 'tx' }, s.publishedTx);
      this.inc({ kind: 'block' }, s.publishedBlocks);
    },
  });
  new Counter({
    name: 'svc_mq_outages_total',
    help: 'Times the stream stopped answering the producer after it had answered (this run)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(status().outages);
    },
  });
  new Counter({
    name: 'svc_mq_resyncs_total',
    help: 'Times the producer re-read the stream after a failure (NATS down, ack timeout, restart)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(status().resyncs);
    },
  });
}
