/**
 * A full node's figures on /metrics (prom-client gauges read at scrape time): how far it
 * is behind its leader, whether the tick stream is up, how often it reconnected.
 */
import { Gauge, type Registry } from 'prom-client';
import type { FollowFigures } from '../core/types.js';

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
  gauge('svc_follow_lag_ticks', "Ticks the leader has that this full node has not verified and stored yet", (f) => f.lagTicks);
  gauge('svc_follow_leader_tick', "The leader's latest tick, as far as this full node knows", (f) => f.leaderTick);
  gauge('svc_follow_connected', '1 while the tick stream from the leader is up', (f) => (f.connected ? 1 : 0));
  gauge('svc_follow_reconnects', 'Times the tick stream from the leader was opened again since start', (f) => f.reconnects);
}
