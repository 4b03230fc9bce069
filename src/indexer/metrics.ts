/**
 * svc_indexer_* metrics (docs/indexer.md "Health and metrics"), read from the tracker at
 * scrape time: nothing here runs per message.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import type { Tracker } from './tracker.js';

export function indexerRegistry(track: Tracker): Registry {
  const registry = new Registry();
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('svc_indexer_db_up', '1 while the last database query succeeded', () => (track.dbUp ? 1 : 0));
  gauge('svc_indexer_nats_up', '1 while connected to NATS (0 when not consuming)', () =>
    track.consuming && track.natsUp ? 1 : 0,
  );
  gauge('svc_indexer_stream_seq', 'Stream sequence of the last message written', () => track.streamSeq);
  gauge('svc_indexer_height', 'Height of the last block written', () => track.height);
  gauge('svc_indexer_lag_messages', 'Messages in the stream after the last one written', () => track.lagMessages);
  gauge(
    'svc_indexer_lag_seconds',
    'Age of the last block written when it was written (from its produced_at)',
    () => track.lagSeconds,
  );
  gauge('svc_indexer_stalled', '1 while a continuity or fill check stops consuming', () =>
    track.state === 'stalled' ? 1 : 0,
  );
  gauge('svc_indexer_diverged', '1 while the stream holds another chain than the database', () =>
    track.state === 'diverged' ? 1 : 0,
  );
  mirror(registry, 'svc_indexer_messages_total', 'Stream messages written, by kind (tx, block)', 'kind', track.written);
  mirror(
    registry,
    'svc_indexer_retries_total',
    'Retries after a failure, by cause (nats, database)',
    'cause',
    track.retries,
  );
  return registry;
}

/** A counter that shows the tracker's own totals at scrape time. */
function mirror(registry: Registry, name: string, help: string, label: string, totals: Record<string, number>): void {
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      for (const [k, v] of Object.entries(totals)) this.inc({ [label]: k }, v);
    },
  });
}
