/**
 * A full node's figures on /metrics (prom-client gauges read at scrape time): how far it
 * is behind its leader, whether the tick stream is up, how often it reconnected, and whether
 * following is halted on bad data (svc_follow_halted, and svc_follow_halt_info with the code,
 * tick and block as labels while it is).
 */
import { Gauge, type Registry } from 'prom-client';
import type { FollowFigures } from '../core/index.js';

export function registerFollowMetrics(registry: Registry, figures: () => FollowFigures | undefined): void {
  const gauge = (name: string, help: string, value: (f: FollowFigures) => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const f = figures();
        if (f) this.set(value(f));
      },
    });
  };
  gauge(
    'svc_follow_lag_ticks',
    'Ticks the leader has that this full node has not verified and stored yet',
    (f) => f.lagTicks,
  );
  gauge(
    'svc_follow_lag_ms',
    'Milliseconds since this full node learned the leader had the first tick it has not stored yet (0: caught up)',
    (f) => f.lagMs,
  );
  gauge('svc_follow_leader_tick', "The leader's latest tick, as far as this full node knows", (f) => f.leaderTick);
  gauge('svc_follow_connected', '1 while the tick stream from the leader is up', (f) => (f.connected ? 1 : 0));
  gauge(
    'svc_follow_halted',
    '1 while following is halted: the leader served a tick or block root this node refused (it retries)',
    (f) => (f.halted ? 1 : 0),
  );
  gauge(
    'svc_follow_halted_tick',
    'The refused tick while following is halted on one (0 otherwise)',
    (f) => f.halted?.tick ?? 0,
  );
  new Gauge({
    name: 'svc_follow_halt_info',
    help: 'Why following is halted: 1 with the refusal code, tick and block as labels (no sample while following)',
    labelNames: ['code', 'tick', 'block'],
    registers: [registry],
    collect() {
      this.reset();
      const h = figures()?.halted;
      if (h) this.set({ code: h.code, tick: String(h.tick ?? ''), block: String(h.block ?? '') }, 1);
    },
  });
  gauge(
    'svc_follow_reconnects',
    'Times the tick stream from the leader was opened again since start',
    (f) => f.reconnects,
  );
}
