/**
 * `npm run bench:latency-rates` (before issue 18: `bench:latency`, now the one-at-a-time
 * bench, lone-latency.bench.ts): time from submitting a transaction (SubmitBatch, paced small
 * batches) until the tick carrying it arrives on StreamTicks, p50 and p99, at 10,000 and
 * 50,000 tx/s, against the real node (`svc node`, temp LevelDB). The load generator and
 * stream client run in their own process. Last line: one JSON object.
 * Also reports the acknowledgement latency (submit -> durable answer) per batch, and the
 * time from a tick's own timestamp (closed by the clock) to its arrival on the stream
 * (publication: store write, then delivery), for ticks carrying our transactions.
 * 1,000 tx/s is included as an unsaturated reference. Transactions not ticked within 10 s
 * after the last send are reported as unmeasured (accepted - measured).
 * Env: BENCH_SECONDS (per rate, default 4), BENCH_RATES (default "1000,10000,50000").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LatencyJob, LatencyResult } from './support/latency-gen.js';
import { runChild, spawnNode } from './support/processes.js';
import { round } from './support/stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const RATES = (process.env.BENCH_RATES ?? '1000,10000,50000').split(',').map(Number);

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-latency-'));
  const node = await spawnNode(dir, ['--queue-capacity', '1000000']);
  const out: Record<string, unknown> = { bench: 'latency', seconds_per_rate: SECONDS };
  try {
    for (const rate of RATES) {
      const r = await runChild<LatencyJob, LatencyResult>('latency-gen.js', {
        address: node.addresses.grpc!,
        rate,
        seconds: SECONDS,
      });
      console.log(
        `${rate} tx/s target (achieved ${r.achievedRate}): p50 ${round(r.p50Ms, 2)} ms, p99 ${round(r.p99Ms, 2)} ms, max ${round(r.maxMs, 1)} ms; ${r.measured}/${r.accepted} accepted measured; ack p50 ${round(r.ackP50Ms, 2)} ms, p99 ${round(r.ackP99Ms, 2)} ms`,
      );
      out[`r${rate}`] = {
        achieved_tx_per_s: r.achievedRate,
        accepted: r.accepted,
        measured: r.measured,
        p50_ms: round(r.p50Ms, 2),
        p99_ms: round(r.p99Ms, 2),
        max_ms: round(r.maxMs, 1),
        ack_p50_ms: round(r.ackP50Ms, 2),
        ack_p99_ms: round(r.ackP99Ms, 2),
        close_to_arrival_p50_ms: round(r.closeToArrivalP50Ms, 2),
        close_to_arrival_p99_ms: round(r.closeToArrivalP99Ms, 2),
        ...(r.streamError ? { stream_error: r.streamError } : {}),
      };
    }
  } finally {
    node.child.kill('SIGTERM');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(out));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
