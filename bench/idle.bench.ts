/**
 * `npm run bench:idle`: what an idle node and an isolated transaction cost (issue 8 point 3,
 * docs/sequencer.md "Clock cadence"), against the real node (`svc node`, defaults: heartbeats
 * every 100 ms, temp LevelDB), a gRPC client in this process:
 *
 *   1. idle: BENCH_IDLE_SECONDS (default 20) with no traffic: ticks/s and the growth of
 *      the database directory, extrapolated to bytes per hour (docs/operations.md);
 *   2. isolated: BENCH_TXS (default 20) transactions sent one at a time
 *      (SubmitTransaction), each after a pause of 300-700 ms (fixed pseudo-random
 *      sequence), so each arrives mid-heartbeat on an idle node: submit -> its tick on
 *      StreamTicks, p50/p99/max; the ticks the phase had beyond the idle heartbeat rate
 *      (extra ticks per transaction) and the short (trivially proven, <= 127 squarings)
 *      ticks per transaction.
 * Last line: one JSON object.
 */
import * as grpc from '@grpc/grpc-js';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { shortHash, transactionHash } from '../src/core/tx-hash.js';
import { TRIVIAL_PROOF_MAX_T } from '../src/vdf/index.js';
import { dirBytes } from './support/footprint.js';
import { spawnNode } from './support/processes.js';
import { benchTransaction, encodeSubmitRequest } from './support/requests.js';
import { percentile, round } from './support/stats.js';
import { parseTickHashes } from './support/tick-parse.js';

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const TXS = Number(process.env.BENCH_TXS ?? 20);
const SERVICE = '/svc.sequencer.v1.SequencerService';
const identity = (b: Buffer) => b;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-idle-'));
  const node = await spawnNode(dir, []);
  const client = new grpc.Client(node.addresses.grpc!, grpc.credentials.createInsecure());
  const ticks: { at: number; iterations: number; txs: number }[] = [];
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  try {
    const stream = client.makeServerStreamRequest(`${SERVICE}/StreamTicks`, identity, identity, Buffer.alloc(0));
    stream.on('data', (buf: Buffer) => {
      const now = performance.now();
      const t = parseTickHashes(buf);
      ticks.push({ at: now, iterations: t.iterations, txs: t.hashes.length });
      for (const h of t.hashes) {
        const s = sentAt.get(h);
        if (s !== undefined) latencies.push(now - s);
      }
    });
    stream.on('error', () => undefined);
    await sleep(2000); // start-up settles

    // 1. Idle.
    const bytes0 = await dirBytes(dir);
    const idleFrom = performance.now();
    const idleTicks0 = ticks.length;
    await sleep(IDLE_SECONDS * 1000);
    const idleMs = performance.now() - idleFrom;
    const idleTicks = ticks.length - idleTicks0;
    const bytes1 = await dirBytes(dir);
    const idleRate = idleTicks / (idleMs / 1000);

    // 2. Isolated transactions.
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const phaseFrom = performance.now();
    const phaseTicks0 = ticks.length;
    for (let i = 0; i < TXS; i++) {
      await sleep(300 + Math.floor(rand() * 400));
      const tx = benchTransaction('idle');
      const body = encodeSubmitRequest(tx);
      sentAt.set(shortHash(transactionHash(tx)), performance.now());
      await new Promise<void>((resolve, reject) =>
        client.makeUnaryRequest(`${SERVICE}/SubmitTransaction`, identity, identity, body, (err) =>
          err ? reject(err) : resolve(),
        ),
      );
    }
    const until = performance.now() + 5000;
    while (latencies.length < TXS && performance.now() < until) await sleep(10);
    await sleep(500);
    const phaseMs = performance.now() - phaseFrom;
    const phase = ticks.slice(phaseTicks0);
    stream.cancel();
    latencies.sort((a, b) => a - b);
    const short = phase.filter((t) => t.iterations <= TRIVIAL_PROOF_MAX_T).length;
    const extra = phase.length - idleRate * (phaseMs / 1000);
    const out = {
      bench: 'idle',
      load_avg: loadavg().map((x) => round(x, 1)),
      idle: {
        seconds: round(idleMs / 1000, 1),
        ticks_per_s: round(idleRate, 2),
        disk_bytes: bytes1 - bytes0,
        disk_bytes_per_hour: Math.round(((bytes1 - bytes0) / idleMs) * 3_600_000),
      },
      isolated: {
        txs: TXS,
        measured: latencies.length,
        submit_to_tick_p50_ms: round(percentile(latencies, 50), 2),
        submit_to_tick_p99_ms: round(percentile(latencies, 99), 2),
        submit_to_tick_max_ms: round(latencies[latencies.length - 1] ?? NaN, 2),
        ticks: phase.length,
        extra_ticks_per_tx: round(extra / TXS, 2),
        short_ticks_per_tx: round(short / TXS, 2),
      },
    };
    console.log(
      `idle: ${out.idle.ticks_per_s} ticks/s, disk +${out.idle.disk_bytes} bytes in ${out.idle.seconds} s (${out.idle.disk_bytes_per_hour} bytes/hour); ` +
        `isolated tx: submit -> tick p50 ${out.isolated.submit_to_tick_p50_ms} ms, p99 ${out.isolated.submit_to_tick_p99_ms} ms, ` +
        `${out.isolated.extra_ticks_per_tx} extra ticks per tx (${out.isolated.short_ticks_per_tx} short)`,
    );
    console.log(JSON.stringify(out));
  } finally {
    client.close();
    node.child.kill('SIGTERM');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
