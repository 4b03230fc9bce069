/**
 * `npm run bench:latency`: what ONE user request costs on an otherwise idle node, measured
 * black-box as a user meets it (issue 18, first table). The real node as `npm start` runs
 * it (every default flag, fresh temp --db-path, ports 0; BENCH_NODE_ARGS adds flags), the
 * client in its own process (support/lone-client.ts), one request at a time with a
 * pseudo-random pause of 50-150 ms (fixed seed) before each, the three rows taking turns:
 *   submit_to_tick: SubmitTransaction, until its tick arrives on StreamTicks
 *   submit_tx:      gRPC ChainService SubmitTx of one signed order, until the answer
 *   post_order:     POST /orders of one signed order, until the receipt
 * p50/p90/p99/max and the sample count per row; the load average at the start and end of
 * each phase (the figures mean little without it on a shared machine), and the node's
 * ticks/s and CPU (its process tree) over the phase. For submit_to_tick also: the
 * SubmitTransaction answer (submit_ack), the split at the carrying tick's timestamp
 * (send_to_tick_start, tick_start_to_arrival; client and node share the machine clock) and
 * the VDF squarings of the carrying tick: where a lone transaction's milliseconds go.
 * Phase "loaded" (unless BENCH_LOAD_TX_PER_S=0): the same rows while another process sends
 * BENCH_LOAD_TX_PER_S (default 1000) transactions a second, SubmitBatch of 10, evenly paced.
 * The rate-sweep latency of SubmitBatch load that this script measured before issue 18 is
 * `npm run bench:latency-rates` (bench/latency.bench.ts).
 * Note: three requests per ~0.4 s is more than the 4 a second that keeps today's "linger" of
 * empty ticks going (docs/sequencer.md "Clock cadence"); node_ticks_per_s shows it.
 * BENCH_PAUSE_MS="300,700" spaces the requests beyond the linger window (250 ms).
 * Env: BENCH_SAMPLES (per row, default 200), BENCH_LOAD_SAMPLES (default 100),
 * BENCH_PAUSE_MS (min,max pause before each request, default "50,150"),
 * BENCH_LOAD_TX_PER_S (default 1000), BENCH_NODE_ARGS (extra node flags, space separated).
 * Last stdout line: one JSON object.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainClient } from '../src/chain/api/client/index.js';
import { toBase58 } from '../src/crypto/base58.js';
import { DexClient } from '../src/sdk/client.js';
import { loadAverage, treeCpuDeltaMs, treeCpuMs } from './support/footprint.js';
import type { LoneJob, LoneResult, LoneRow } from './support/lone-client.js';
import { chainHeight } from './support/node-status.js';
import type { PacedJob, PacedResult } from './support/paced-submit.js';
import { benchNodeArgs, runChild, spawnDefaultNode, startChild, type NodeProcess } from './support/processes.js';
import { percentile, round } from './support/stats.js';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const LOAD_SAMPLES = Number(process.env.BENCH_LOAD_SAMPLES ?? 100);
const LOAD_TX_PER_S = Number(process.env.BENCH_LOAD_TX_PER_S ?? 1000);
const [PAUSE_MIN, PAUSE_MAX] = (process.env.BENCH_PAUSE_MS ?? '50,150').split(',').map(Number) as [number, number];
const ROWS: LoneRow[] = ['submit_to_tick', 'submit_tx', 'post_order'];
const CHAIN_MINTS: [number[], number[]] = [Array<number>(32).fill(0xc1), Array<number>(32).fill(0xc2)];
const DEX_MINTS: [number[], number[]] = [Array<number>(32).fill(0xd1), Array<number>(32).fill(0xd2)];
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface RowFigures {
  n: number;
  failed: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
}

function figures(values: number[], failed: number): RowFigures {
  const s = [...values].sort((a, b) => a - b);
  return {
    n: s.length,
    failed,
    p50_ms: round(percentile(s, 50), 2),
    p90_ms: round(percentile(s, 90), 2),
    p99_ms: round(percentile(s, 99), 2),
    max_ms: round(s[s.length - 1] ?? NaN, 2),
  };
}

/** One phase: the lone client's run, with the load average, ticks/s and node CPU around it. */
async function phase(
  node: NodeProcess,
  samples: number,
  seed: number,
  firstOrderId: number,
): Promise<Record<string, unknown>> {
  const load_avg_start = loadAverage();
  const height0 = await chainHeight(node.addresses.rest!);
  const cpu0 = treeCpuMs(node.child.pid!);
  const t0 = performance.now();
  const job: LoneJob = {
    grpc: node.addresses.grpc!,
    dex: node.addresses.dex!,
    samples,
    warmup: 5,
    seed,
    pauseMinMs: PAUSE_MIN,
    pauseMaxMs: PAUSE_MAX,
    chainMints: CHAIN_MINTS,
    dexMints: DEX_MINTS,
    firstOrderId,
    timeoutMs: 10_000,
  };
  const r = await runChild<LoneJob, LoneResult>('lone-client.js', job);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = treeCpuDeltaMs(cpu0, treeCpuMs(node.child.pid!));
  const height1 = await chainHeight(node.addresses.rest!);
  const out: Record<string, unknown> = { seconds: round(seconds, 1), load_avg_start, load_avg_end: loadAverage() };
  for (const row of ROWS) out[row] = figures(r.ms[row], r.failed[row]);
  out.submit_ack = figures(r.submitAckMs, 0);
  out.send_to_tick_start = figures(r.sendToTickStartMs, 0);
  out.tick_start_to_arrival = figures(r.tickStartToArrivalMs, 0);
  const its = [...r.tickIterations].sort((a, b) => a - b);
  out.carrying_tick_iterations = {
    p50: percentile(its, 50),
    p90: percentile(its, 90),
    max: its[its.length - 1] ?? NaN,
  };
  out.node_ticks_per_s = round((height1 - height0) / seconds, 1);
  out.node_cores = round(cpu / 1000 / seconds, 2);
  if (r.firstError) out.first_error = r.firstError;
  if (r.streamError) out.stream_error = r.streamError;
  return out;
}

function summary(name: string, p: Record<string, unknown>): string {
  const rows = ROWS.map((row) => {
    const f = p[row] as RowFigures;
    return `${row} p50 ${f.p50_ms} / p90 ${f.p90_ms} / p99 ${f.p99_ms} / max ${f.max_ms} ms (n ${f.n}${f.failed ? `, ${f.failed} failed` : ''})`;
  });
  return `${name}: ${rows.join('; ')}; node ${p.node_ticks_per_s} ticks/s, ${p.node_cores} cores; load ${(p.load_avg_start as number[]).join(' ')} -> ${(p.load_avg_end as number[]).join(' ')}`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-lone-'));
  const nodeArgs = benchNodeArgs();
  const out: Record<string, unknown> = {
    bench: 'latency',
    node_args: nodeArgs,
    samples_per_row: SAMPLES,
    pause_ms: [PAUSE_MIN, PAUSE_MAX],
    load_avg_start: loadAverage(),
  };
  const node = await spawnDefaultNode(dir, nodeArgs);
  try {
    const chain = new ChainClient(node.addresses.grpc!);
    await chain.submit({
      market: {
        base_mint: Uint8Array.from(CHAIN_MINTS[0]),
        quote_mint: Uint8Array.from(CHAIN_MINTS[1]),
        name: 'LONE/CHAIN',
      },
    });
    chain.close();
    await new DexClient(`http://${node.addresses.dex}`).createMarket({
      base_mint: toBase58(Uint8Array.from(DEX_MINTS[0])),
      quote_mint: toBase58(Uint8Array.from(DEX_MINTS[1])),
      name: 'LONE/DEX',
    });
    await sleep(1000); // start-up and market creation settle

    log(`idle node: ${SAMPLES} samples per row (load ${loadAverage().join(' ')})`);
    const idle = await phase(node, SAMPLES, 12345, 1);
    out.idle = idle;
    log(summary('idle', idle));

    if (LOAD_TX_PER_S > 0 && LOAD_SAMPLES > 0) {
      log(`under load: ${LOAD_TX_PER_S} tx/s SubmitBatch of 10 from another process, ${LOAD_SAMPLES} samples per row`);
      const load = startChild<PacedJob, PacedResult>('paced-submit.js', {
        address: node.addresses.grpc!,
        txPerSecond: LOAD_TX_PER_S,
        batchSize: 10,
        tag: 'bg',
      });
      await load.ready;
      await sleep(1000);
      const loaded = await phase(node, LOAD_SAMPLES, 54321, 1_000_001);
      load.stop();
      const l = await load.result;
      out.loaded = {
        ...loaded,
        load_tx_per_s: LOAD_TX_PER_S,
        load_accepted_per_s: Math.round(l.accepted / l.seconds),
        load_errors: l.errors,
        ...(l.firstError ? { load_first_error: l.firstError } : {}),
      };
      log(summary('loaded', loaded));
    }
  } finally {
    node.child.kill('SIGTERM');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  }
  out.load_avg_end = loadAverage();
  console.log(JSON.stringify(out));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
