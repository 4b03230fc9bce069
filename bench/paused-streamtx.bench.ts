/**
 * `npm run bench:paused-streamtx`: what StreamTx consumers that never read cost order flow
 * (issue 19 point 2), black-box: the real node (`svc node`, defaults but one gateway, temp
 * LevelDB), SubmitTx load from its own process (bench/support/chain-load, open loop at
 * BENCH_RATE orders/s, default 3,000: above what 2 cores answer, so answered/s is the
 * ceiling), alternated in rounds:
 *
 *   none     no StreamTx consumers
 *   paused   BENCH_STREAMS (default 16, the per-address limit) StreamTx{from_sequence: 1}
 *            consumers that never read (bench/support/stream-clients, own process, one
 *            connection each), opened after a history of orders exists
 *
 * Each round measures none, paused, none; ratios are paused over the mean of its two
 * nones, medians over rounds. Also the node's RSS from /proc before and after. Last line:
 * one JSON object. Env: BENCH_SECONDS (per measurement, default 5), BENCH_ROUNDS (default 3).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadJob, LoadResult } from './support/chain-load.js';
import { runChild, spawnNode, startChild } from './support/processes.js';
import type { StreamClientsJob, StreamClientsResult } from './support/stream-clients.js';
import { round } from './support/stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 16);
const RATE = Number(process.env.BENCH_RATE ?? 3000);
const MINT_A = Array.from(new Uint8Array(32).fill(211));
const MINT_B = Array.from(new Uint8Array(32).fill(212));

const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-paused-streamtx-'));
  const node = await spawnNode(
    dir,
    ['--gateways', '1', '--submit-tx-rate', '0', '--stream-tx-rate', '0'],
    ['grpc', 'rest', 'dex', 'rpc'],
  );
  const grpc = node.addresses.grpc!;
  const out: Record<string, unknown> = {
    bench: 'paused-streamtx',
    streams: STREAMS,
    rate: RATE,
    seconds: SECONDS,
    load_avg_start: loadavg().map((x) => round(x, 2)),
  };
  try {
    const { ChainClient } = await import('../src/chain/api/client/index.js');
    const c = new ChainClient(grpc);
    await c.submit({
      market: { base_mint: Uint8Array.from(MINT_A), quote_mint: Uint8Array.from(MINT_B), name: 'PAUSED' },
    });
    c.close();
    let firstId = 1;
    const measure = async (): Promise<number> => {
      const r = await runChild<LoadJob, LoadResult>('chain-load.js', {
        grpc,
        rate: RATE,
        seconds: SECONDS,
        base: MINT_A,
        quote: MINT_B,
        firstOrderId: firstId,
      });
      firstId += Math.ceil(RATE * SECONDS) + 1;
      return r.ok / r.seconds;
    };
    await measure(); // warm-up and a history for the replaying consumers
    const rssStart = rssMb(node.child.pid!);
    const ratios: number[] = [];
    const rows: Array<Record<string, number>> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const before = await measure();
      const clients = startChild<StreamClientsJob, StreamClientsResult>('stream-clients.js', {
        address: grpc,
        count: STREAMS,
        startTick: 1,
        mode: 'paused',
        method: 'StreamTx',
      });
      await clients.ready;
      const paused = await measure();
      const rss = rssMb(node.child.pid!);
      clients.stop();
      const ended = await clients.result;
      const after = await measure();
      const ratio = paused / ((before + after) / 2);
      ratios.push(ratio);
      rows.push({
        none_before: round(before, 0),
        paused: round(paused, 0),
        none_after: round(after, 0),
        ratio: round(ratio, 3),
        rss_mb_paused: round(rss, 0),
        streams_opened: ended.opened,
      });
      console.log(
        `round ${r + 1}: none ${round(before, 0)}/s, ${STREAMS} paused StreamTx ${round(paused, 0)}/s, none ${round(after, 0)}/s: ratio ${round(ratio, 3)}; RSS ${round(rss, 0)} MB with them open; ${ended.opened} opened${ended.errors.length ? `; ended: ${ended.errors.join('; ')}` : ''}`,
      );
    }
    Object.assign(out, {
      rounds: rows,
      ratio_median: round(median(ratios), 3),
      rss_mb_start: round(rssStart, 0),
      rss_mb_end: round(rssMb(node.child.pid!), 0),
      load_avg_end: loadavg().map((x) => round(x, 2)),
    });
  } finally {
    node.child.kill('SIGTERM');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(out));
}

await main();
