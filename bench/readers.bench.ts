/**
 * `npm run bench:readers` (issue 25 point 6): what readers cost ordering, black-box. The
 * real node (`svc node`, temp LevelDB, one gateway), every client in its own process, in
 * two parts, each alternating scenarios in rounds that start and end without readers (the
 * ratio compares a scenario with the mean of the two `none` runs around it):
 *
 * Part 1, SubmitBatch ingestion (bench/support/load-gen, closed loop, 1,000 per batch):
 *   none        no readers
 *   fast        BENCH_READERS (50) StreamTicks readers that take everything as fast as it
 *               comes (grpc-js calls with no data listener), each on its own connection:
 *               half live (start_tick 0), half replaying from tick 1, in two processes
 *   paused      as many truly paused StreamTicks readers (a data listener and pause()),
 *               half live, half from tick 1
 * Part 2, SubmitTx order flow (bench/support/chain-load, open loop at BENCH_RATE, default
 * 3,000/s, above what 2 cores answer):
 *   none        no readers
 *   paused-tx   BENCH_TX_STREAMS (32) StreamTx{from_sequence: 1} consumers that pause at
 *               once: raw HTTP/2, half from 127.0.0.1, half from 127.0.0.2
 *
 * For each measurement: the rate, the node's CPU per thread (bench/support/threads.ts) per
 * accepted transaction, the node's RSS (/proc) at the end of it, the CPU the reader clients
 * took, and the load average. Ratios are medians over rounds. Linux only. Last line: one
 * JSON object. Env: BENCH_SECONDS (per measurement, default 4), BENCH_ROUNDS (default 3),
 * BENCH_READERS (default 50), BENCH_TX_STREAMS (default 32), BENCH_RATE (default 3,000),
 * BENCH_PART (1 or 2: only that part), BENCH_NODE_ARGS (more node flags, e.g. --reader-floor 2MiB), BENCH_PREPARE_PER_S (transactions the load generator
 * prepares per second of a measurement, default 40,000).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadJob, LoadResult } from './support/chain-load.js';
import type { IngestJob, IngestResult } from './support/load-gen.js';
import { benchNodeArgs, runChild, spawnNode, startChild, type StartedChild } from './support/processes.js';
import type { RawStreamTxJob, RawStreamTxResult } from './support/raw-streamtx-clients.js';
import { median, round } from './support/stats.js';
import type { StreamClientsJob, StreamClientsResult } from './support/stream-clients.js';
import { cpuDelta, sampleThreads, totalMs } from './support/threads.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const READERS = Number(process.env.BENCH_READERS ?? 50);
const TX_STREAMS = Number(process.env.BENCH_TX_STREAMS ?? 32);
const RATE = Number(process.env.BENCH_RATE ?? 3000);
const PART = process.env.BENCH_PART;
const BATCH = 1000;
/** Transactions the load generator prepares per second of a measurement (above a quiet 2-core box's ~27k/s). */
const PREPARE_PER_S = Number(process.env.BENCH_PREPARE_PER_S ?? 40_000);
const MINT_A = Array.from(new Uint8Array(32).fill(221));
const MINT_B = Array.from(new Uint8Array(32).fill(222));

type Scenario = 'none' | 'fast' | 'paused' | 'paused-tx';

interface Measured {
  scenario: Scenario;
  rate: number; // tx/s (part 1) or answered orders/s (part 2)
  cpuUsPerTx: Record<string, number>; // node CPU per accepted transaction, per thread
  rssMb: number;
  clientCpuMs: number; // the reader clients' CPU over the measurement
  clientErrors: string[];
}

const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Start the scenario's readers; resolves to a stop function giving their CPU and errors. */
async function startReaders(
  scenario: Scenario,
  grpc: string,
): Promise<() => Promise<{ cpuMs: number; errors: string[] }>> {
  if (scenario === 'none') return async () => ({ cpuMs: 0, errors: [] });
  if (scenario === 'paused-tx') {
    const half = Math.ceil(TX_STREAMS / 2);
    const job: RawStreamTxJob = {
      address: grpc,
      sources: ['127.0.0.1', '127.0.0.2'],
      perAddress: half,
      fromSequence: 1,
    };
    const child = startChild<RawStreamTxJob, RawStreamTxResult>('raw-streamtx-clients.js', job);
    await child.ready;
    return async () => {
      child.stop();
      const r = await child.result;
      return { cpuMs: r.cpuMs, errors: r.statuses };
    };
  }
  const mode = scenario === 'fast' ? 'fast' : 'paused';
  const half = Math.ceil(READERS / 2);
  const children: Array<StartedChild<StreamClientsResult>> = [0, 1].map((startTick) =>
    startChild<StreamClientsJob, StreamClientsResult>('stream-clients.js', {
      address: grpc,
      count: half,
      startTick,
      mode,
    }),
  );
  await Promise.all(children.map((c) => c.ready));
  await new Promise((r) => setTimeout(r, 500)); // paused readers fill their windows and stall
  return async () => {
    for (const c of children) c.stop();
    const rs = await Promise.all(children.map((c) => c.result));
    return { cpuMs: rs.reduce((a, r) => a + r.cpuMs, 0), errors: rs.flatMap((r) => r.errors) };
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-readers-'));
  // Readers must stay open through a measurement (no stall resets, no StreamTx rate limit).
  const node = await spawnNode(
    dir,
    [
      '--gateways',
      '1',
      '--queue-capacity',
      '1000000',
      '--stream-stall-ms',
      '3600000',
      '--submit-tx-rate',
      '0',
      '--stream-tx-rate',
      '0',
      ...benchNodeArgs(),
    ],
    ['grpc', 'rest', 'dex', 'rpc'],
    { timeoutMs: 120_000 },
  );
  const grpc = node.addresses.grpc!;
  const pid = node.child.pid!;
  const out: Record<string, unknown> = {
    bench: 'readers',
    seconds: SECONDS,
    rounds: ROUNDS,
    readers: READERS,
    tx_streams: TX_STREAMS,
    load_avg_start: loadavg().map((x) => round(x, 2)),
  };
  let firstId = 1;
  const ingest = async (): Promise<{ rate: number; accepted: number }> => {
    const job: IngestJob = {
      kind: 'batch',
      address: grpc,
      seconds: SECONDS,
      inFlight: 4,
      batchSize: BATCH,
      prepare: Math.ceil((PREPARE_PER_S * SECONDS) / BATCH),
    };
    const r = await runChild<IngestJob, IngestResult>('load-gen.js', job);
    return { rate: r.perSecond, accepted: r.accepted };
  };
  const orders = async (): Promise<{ rate: number; accepted: number }> => {
    const r = await runChild<LoadJob, LoadResult>('chain-load.js', {
      grpc,
      rate: RATE,
      seconds: SECONDS,
      base: MINT_A,
      quote: MINT_B,
      firstOrderId: firstId,
    });
    firstId += Math.ceil(RATE * SECONDS) + 1;
    if (r.ok === 0)
      console.log(`SubmitTx load: none of ${r.sent} answered OK (${r.errors} errors; first: ${r.firstError})`);
    return { rate: r.ok / r.seconds, accepted: r.ok };
  };
  const measure = async (
    scenario: Scenario,
    load: () => Promise<{ rate: number; accepted: number }>,
  ): Promise<Measured> => {
    const stop = await startReaders(scenario, grpc);
    const t0 = sampleThreads(pid);
    const r = await load();
    const delta = cpuDelta(t0, sampleThreads(pid));
    const rss = rssMb(pid);
    const clients = await stop();
    const perTx = Object.fromEntries(
      Object.entries(delta).map(([k, ms]) => [k, round((ms * 1000) / Math.max(1, r.accepted), 2)]),
    );
    perTx.total_without_clock = round((totalMs(delta, ['svc-clock']) * 1000) / Math.max(1, r.accepted), 2);
    await new Promise((res) => setTimeout(res, 300));
    return {
      scenario,
      rate: r.rate,
      cpuUsPerTx: perTx,
      rssMb: rss,
      clientCpuMs: clients.cpuMs,
      clientErrors: clients.errors,
    };
  };
  try {
    const { ChainClient } = await import('../src/chain/api/client/index.js');
    const c = new ChainClient(grpc);
    await c.submit({
      market: { base_mint: Uint8Array.from(MINT_A), quote_mint: Uint8Array.from(MINT_B), name: 'READERS' },
    });
    c.close();
    const rssStart = rssMb(pid);
    if (PART !== '2') {
      await ingest(); // warm-up and a history for the replaying readers
      out.ingest = await rounds(['none', 'fast', 'paused', 'none'], (s) => measure(s, ingest), 'tx/s');
    }
    if (PART !== '1') {
      await orders(); // warm-up and a history of orders for the replays
      out.order_flow = await rounds(['none', 'paused-tx', 'none'], (s) => measure(s, orders), 'orders/s');
    }
    Object.assign(out, {
      rss_mb_start: round(rssStart, 0),
      rss_mb_end: round(rssMb(pid), 0),
      load_avg_end: loadavg().map((x) => round(x, 2)),
    });
  } finally {
    node.child.kill('SIGTERM');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(out));
}

/** Rounds of `order` (none first and last); per scenario: medians of rate, ratio to the mean none, CPU, RSS. */
async function rounds(
  order: Scenario[],
  run: (s: Scenario) => Promise<Measured>,
  unit: string,
): Promise<Record<string, unknown>> {
  const rows = new Map<Scenario, Array<Measured & { ratio: number }>>();
  const errors = new Set<string>();
  for (let r = 1; r <= ROUNDS; r++) {
    const got: Measured[] = [];
    for (const s of order) got.push(await run(s));
    const nones = got.filter((m) => m.scenario === 'none');
    const base = nones.reduce((a, m) => a + m.rate, 0) / nones.length;
    for (const m of got) {
      const ratio = m.rate / base;
      (rows.get(m.scenario) ?? rows.set(m.scenario, []).get(m.scenario)!).push({ ...m, ratio });
      for (const e of m.clientErrors) errors.add(e);
      console.log(
        `round ${r} ${m.scenario.padEnd(9)}: ${Math.round(m.rate)} ${unit} (${round(ratio, 3)} of none), node main ${m.cpuUsPerTx.main ?? 0} us/tx, ` +
          `node w/o clock ${m.cpuUsPerTx.total_without_clock} us/tx, RSS ${Math.round(m.rssMb)} MB, clients ${Math.round(m.clientCpuMs)} ms CPU, load ${round(loadavg()[0]!, 2)}`,
      );
    }
  }
  const out: Record<string, unknown> = {};
  for (const [s, ms] of rows) {
    const threads = new Set(ms.flatMap((m) => Object.keys(m.cpuUsPerTx)));
    out[s] = {
      rate: Math.round(median(ms.map((m) => m.rate))),
      ratio_to_none: round(median(ms.map((m) => m.ratio)), 3),
      ratios: ms.map((m) => round(m.ratio, 3)),
      cpu_us_per_tx: Object.fromEntries(
        [...threads].map((t) => [t, round(median(ms.map((m) => m.cpuUsPerTx[t] ?? 0)), 2)]),
      ),
      rss_mb: Math.round(median(ms.map((m) => m.rssMb))),
      client_cpu_ms_per_s: Math.round(median(ms.map((m) => m.clientCpuMs)) / SECONDS),
    };
  }
  if (errors.size > 0) out.reader_errors = [...errors].slice(0, 10);
  return out;
}

await main();
