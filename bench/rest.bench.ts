/**
 * `npm run bench:rest`: requests/s of GET /api/v1/tick/{n} for ticks held in memory and
 * for ticks read back from disk (a node started with a small --retain-ticks, so older
 * ticks are only in LevelDB), side by side in one run; HTTP load from its own process.
 * Each tick carries a few transactions. Last line: one JSON object.
 * Env: BENCH_SECONDS (per case and round, default 3), BENCH_ROUNDS (default 3).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SequencerClient, wireTx } from '../test/support/grpc-client.js';
import type { HttpJob, HttpResult } from './support/http-gen.js';
import { runChild, spawnNode } from './support/processes.js';
import { median, round } from './support/stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RETAIN = 100;
const WANT_TICKS = 400;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-rest-'));
  const node = await spawnNode(dir, ['--retain-ticks', String(RETAIN), '--idle-tick-ms', '2']);
  const base = `http://${node.addresses.rest}`;
  const out: Record<string, unknown> = {
    bench: 'rest',
    seconds_per_case: SECONDS,
    rounds: ROUNDS,
    retain_ticks: RETAIN,
  };
  try {
    // Fill the chain: ticks with a few transactions each, more than --retain-ticks of them.
    const client = new SequencerClient(node.addresses.grpc!);
    let height = 0;
    while (height < WANT_TICKS) {
      await client.submitBatch(Array.from({ length: 5 }, () => wireTx(200, 'rest-bench')));
      height = Number((await client.call<{ current_tick: string }>('GetStatus', {})).current_tick);
    }
    client.close();
    const diskTicks = Array.from({ length: 100 }, (_, i) => `/api/v1/tick/${1 + i * 2}`); // ticks 1..199, long pruned from memory
    const memTicks = Array.from({ length: 50 }, (_, i) => `/api/v1/tick/${height - i}`); // the newest 50
    const mem: HttpResult[] = [];
    const disk: HttpResult[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const m = await runChild<HttpJob, HttpResult>('http-gen.js', {
        base,
        paths: memTicks,
        seconds: SECONDS,
        inFlight: 16,
      });
      const d = await runChild<HttpJob, HttpResult>('http-gen.js', {
        base,
        paths: diskTicks,
        seconds: SECONDS,
        inFlight: 16,
      });
      mem.push(m);
      disk.push(d);
      console.log(
        `round ${round}: memory ${Math.round(m.perSecond)} req/s (p50 ${round2(m.p50Ms)} ms, p99 ${round2(m.p99Ms)} ms, ${m.errors} errors); ` +
          `disk ${Math.round(d.perSecond)} req/s (p50 ${round2(d.p50Ms)} ms, p99 ${round2(d.p99Ms)} ms, ${d.errors} errors)`,
      );
    }
    const med = (rs: HttpResult[], k: keyof HttpResult) => median(rs.map((r) => r[k]));
    Object.assign(out, {
      chain_height: height,
      memory_req_per_s: Math.round(med(mem, 'perSecond')),
      memory_p50_ms: round2(med(mem, 'p50Ms')),
      memory_p99_ms: round2(med(mem, 'p99Ms')),
      disk_req_per_s: Math.round(med(disk, 'perSecond')),
      disk_p50_ms: round2(med(disk, 'p50Ms')),
      disk_p99_ms: round2(med(disk, 'p99Ms')),
      disk_to_memory_ratio: round(med(disk, 'perSecond') / med(mem, 'perSecond'), 3),
      errors: mem.concat(disk).reduce((n, r) => n + r.errors, 0),
    });
  } finally {
    node.child.kill('SIGTERM');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(out));
}

function round2(n: number): number {
  return round(n, 2);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
