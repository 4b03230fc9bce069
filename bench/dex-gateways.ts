/**
 * The gateway part of `npm run bench:dex` (issue 10), side by side in one run:
 *   1. the no-op server (dex-noop.ts) with as many processes as gateways, then with one:
 *      max orders/s (closed loop) and its CPU per order;
 *   2. the real sequencer + order book in this process (the sequencer process) behind
 *      `gateways` gateway processes (src/dex/api/gateway): max orders/s (closed loop), then open
 *      loop at 50% and 90% of that rate: p50/p99;
 *   3. CPU per order over the closed-loop run: this process's main thread (the sequencer
 *      thread), its worker threads without the clock, and the gateway processes; how the
 *      run's connections and CPU spread over the gateways (support/gateway-spread.ts); then
 *      a crowd of fresh connections at once (freshConnections, below).
 *   4. gRPC SubmitTx (the node process; its stateless checks on DEX_INTAKE_THREADS intake
 *      threads, default --intake-threads's, docs/architecture.md "Gateways"): a node
 *      in this process, open-loop SubmitTx load from a child (bench/support/chain-load.ts)
 *      at DEX_SUBMITTX_RATE (default 3,000/s) for 5 s: answered/s and the main thread's CPU
 *      per answered order.
 * The load generator is dex-load.ts in its own process. Run alone for profiling:
 *   node dist/bench/dex-gateways.js   (env as bench:dex, plus DEX_GATEWAYS: default the cores,
 *   DEX_GATEWAY_PARTS: default "gateways,submittx")
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { cpuMsOfStat } from './support/cpu.js';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/db/index.js';
import { createPool } from '../src/pool/index.js';
import { createSequencer } from '../src/sequencer/index.js';
import { startGatewayFace } from '../src/dex/api/gateway/index.js';
import { DexClient, toBase58 } from '../src/sdk/index.js';
import { fork } from 'node:child_process';
import { defaultIntakeThreads, nodeConfig } from '../src/config/index.js';
import { grpcFace } from '../src/node/faces.js';
import { startNode } from '../src/node/index.js';
import type { LoadJob, LoadResult as SubmitLoadResult } from './support/chain-load.js';
import { runChild, startChild } from './support/processes.js';
import { percentile } from './support/stats.js';
import type { AcceptProbeJob, AcceptProbeReport } from './support/accept-probe.js';
import type { SpreadJob, SpreadResult } from './support/gateway-spread.js';

const log = (msg: string) => process.stderr.write(`${msg}\n`);
const VDF_ITERATIONS = Number(process.env.DEX_E2E_VDF_ITERATIONS ?? 2000);
const LOAD = fileURLToPath(new URL('./dex-load.js', import.meta.url));
const NOOP = fileURLToPath(new URL('./dex-noop.js', import.meta.url));

export interface LoadResult {
  ok: number;
  errors: number;
  orders_per_s: number;
  p50_ms: number;
  p99_ms: number;
  error_samples?: string[];
}

async function runLoad(
  url: string,
  orders: number,
  concurrency: number,
  base: string,
  quote: string,
  rate = 0,
  env: Record<string, string> = {},
): Promise<LoadResult> {
  const child = spawn(process.execPath, [LOAD, url, String(orders), String(concurrency), base, quote, String(rate)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) throw new Error(`load process exited with ${code}`);
  const lines = out.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as LoadResult;
}

function threadsCpuMs(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) out.set(tid, cpuMsOfStat(`/proc/self/task/${tid}/stat`));
  return out;
}

async function noop(
  processes: number,
  orders: number,
  concurrency: number,
  base: string,
  quote: string,
): Promise<LoadResult & { cpu_us_per_order: number }> {
  const child = spawn(process.execPath, [NOOP, String(processes)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (c) => reject(new Error(`no-op server exited (${c})`)));
  });
  const r = await runLoad(`http://127.0.0.1:${port}`, orders, concurrency, base, quote, 0, { SVC_LOAD_ANY_200: '1' });
  const cpu = new Promise<number>((resolve) =>
    child.stdout.on('data', () => {
      const m = /cpu ([\d.]+)/.exec(out);
      if (m) resolve(Number(m[1]));
    }),
  );
  child.stdin.end();
  const ms = await cpu;
  return { ...r, cpu_us_per_order: Math.round((ms * 1000) / orders) };
}

export async function benchGateways(
  orders: number,
  concurrency: number,
  gateways = Number(process.env.DEX_GATEWAYS ?? availableParallelism()),
): Promise<Record<string, unknown>> {
  const base = toBase58(new Uint8Array(32).fill(0xb1));
  const quote = toBase58(new Uint8Array(32).fill(0xb2));
  const load_average = loadavg().map((x) => Number(x.toFixed(2)));
  log(`no-op server, ${gateways} processes`);
  const noopMulti = await noop(gateways, orders, concurrency, base, quote);
  log(JSON.stringify(noopMulti));
  log('no-op server, 1 process');
  const noopSingle = await noop(1, orders, concurrency, base, quote);
  log(JSON.stringify(noopSingle));

  const dir = await mkdtemp(join(tmpdir(), 'svc-dex-bench-gw-'));
  const db = await openDatabase(dir);
  const pool = createPool();
  const sequencer = createSequencer({
    db,
    pool,
    retainTicks: 100_000,
    vdfIterations: VDF_ITERATIONS,
    idleTickMs: 100,
    queueCapacity: 100_000,
    onError: (e) => log(`sequencer failed: ${e.message}`),
  });
  await sequencer.start();
  const face = await startGatewayFace({
    db,
    pool,
    sequencer,
    dbPath: dir,
    addr: '127.0.0.1:0',
    gateways,
    maxInflight: Math.floor(100_000 / gateways),
    logLevel: 'warn',
  });
  try {
    const url = `http://${face.address}`;
    await new DexClient(url).createMarket({ base_mint: base, quote_mint: quote, name: 'BENCH/USD' });
    log(`gateways: ${gateways} processes, ${orders} orders closed loop, ${concurrency} in flight`);
    const pids = face.gateways.pids();
    const t0 = threadsCpuMs();
    const perGateway0 = pids.map((p) => cpuMsOfStat(`/proc/${p}/stat`));
    const port = Number(face.address.split(':').pop());
    const spread = startChild<SpreadJob, SpreadResult>('gateway-spread.js', { pids, port, everyMs: 250 });
    await spread.ready;
    const max = await runLoad(url, orders, concurrency, base, quote);
    const t1 = threadsCpuMs();
    spread.stop();
    const perGateway = pids.map((p, i) => cpuMsOfStat(`/proc/${p}/stat`) - perGateway0[i]!);
    const g1 = perGateway.reduce((a, b) => a + b, 0);
    const connections = await spread.result;
    log(JSON.stringify(max));
    const used = [...t1].map(([tid, ms]) => ({ tid, ms: ms - (t0.get(tid) ?? 0) })).sort((a, b) => b.ms - a.ms);
    const main = used.find((u) => u.tid === String(process.pid))?.ms ?? 0;
    const others = used.filter((u) => u.tid !== String(process.pid));
    const workers = others.slice(1).reduce((a, u) => a + u.ms, 0); // the busiest other thread is the clock
    const atRate = async (share: number): Promise<LoadResult & { rate: number }> => {
      const rate = Math.max(1, Math.round(max.orders_per_s * share));
      const n = Math.max(500, Math.min(orders, rate * 5));
      log(`gateways: open loop at ${Math.round(share * 100)}% of the max: ${rate} orders/s, ${n} orders`);
      const r = { ...(await runLoad(url, n, concurrency, base, quote, rate)), rate };
      log(JSON.stringify(r));
      return r;
    };
    const at50 = await atRate(0.5);
    const at90 = await atRate(0.9);
    const fresh = await freshConnections(face.address, pids);
    log(JSON.stringify(fresh));
    return {
      gateways,
      load_average,
      noop_multi: noopMulti,
      noop_single: noopSingle,
      max,
      at50,
      at90,
      fresh_connections: fresh,
      ratio_to_noop_multi: Number((max.orders_per_s / noopMulti.orders_per_s).toFixed(2)),
      ratio_to_noop_single: Number((max.orders_per_s / noopSingle.orders_per_s).toFixed(2)),
      sequencer_thread_cpu_us_per_order: Math.round((main * 1000) / max.ok),
      sequencer_workers_cpu_us_per_order_without_clock: Math.round((workers * 1000) / max.ok),
      gateway_cpu_us_per_order: Math.round((g1 * 1000) / max.ok),
      // How the closed-loop run's connections and work spread over the gateways (docs/architecture.md "Gateways").
      spread: {
        connections_max: connections.max,
        connections_mean: connections.mean,
        cpu_share: perGateway.map((ms) => Number((ms / g1).toFixed(2))),
      },
      gateway_restarts: face.gateways.restarts,
    };
  } finally {
    await face.close();
    await sequencer.stop();
    await pool.destroy();
    await db.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A crowd reconnecting at once: DEX_FRESH_CONNECTIONS (2,000) connections opened together from
 * a child process (support/accept-probe.ts), one request each that a gateway answers alone
 * (400); answer percentiles, and what each connection cost this process's main thread (the
 * sequencer thread; its idle rate, measured just before, taken off) and the gateways.
 */
async function freshConnections(address: string, pids: number[]): Promise<Record<string, number>> {
  const n = Number(process.env.DEX_FRESH_CONNECTIONS ?? 2000);
  const main = () => cpuMsOfStat(`/proc/self/task/${process.pid}/stat`);
  const gateways = () => pids.reduce((a, p) => a + cpuMsOfStat(`/proc/${p}/stat`), 0);
  const i0 = main();
  const ti = performance.now();
  await new Promise((r) => setTimeout(r, 2_000));
  const idlePerMs = (main() - i0) / (performance.now() - ti);
  log(`gateways: ${n} fresh connections at once`);
  const [m0, g0, t0] = [main(), gateways(), performance.now()];
  const job: AcceptProbeJob = { dex: address, seconds: 0, everyMs: 0, kinds: ['gateway'], giveUpMs: 30_000, burst: n };
  const r = (await runChild<AcceptProbeJob, AcceptProbeReport>('accept-probe.js', job)).gateway;
  const [m1, g1, t1] = [main(), gateways(), performance.now()];
  const s = [...r.ms].sort((a, b) => a - b);
  return {
    connections: n,
    answered: s.length,
    failed: r.failed,
    p50_ms: Math.round(percentile(s, 50)),
    p99_ms: Math.round(percentile(s, 99)),
    max_ms: Math.round(s[s.length - 1] ?? NaN),
    sequencer_thread_cpu_us_per_connection: Math.round((Math.max(0, m1 - m0 - idlePerMs * (t1 - t0)) * 1000) / n),
    gateway_cpu_us_per_connection: Math.round(((g1 - g0) * 1000) / n),
  };
}

/** SubmitTx through the node's one gRPC server: answered/s and the main thread's CPU per answer. */
export async function benchSubmitTx(
  rate = Number(process.env.DEX_SUBMITTX_RATE ?? 3000),
  seconds = 5,
): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-dex-bench-submittx-'));
  const intakeThreads = Number(process.env.DEX_INTAKE_THREADS ?? defaultIntakeThreads());
  const config = nodeConfig([
    '--grpc-addr',
    '127.0.0.1:0',
    '--db-path',
    dir,
    '--submit-tx-rate',
    '0',
    '--max-pending',
    '100000',
    '--log-level',
    'warn',
    '--vdf-iterations',
    String(VDF_ITERATIONS),
    '--intake-threads',
    String(intakeThreads),
  ]);
  const node = await startNode(config, { faces: [grpcFace], print: () => undefined });
  try {
    const mintA = Array.from(new Uint8Array(32).fill(0xc1));
    const mintB = Array.from(new Uint8Array(32).fill(0xc2));
    const { ChainClient } = await import('../src/chain/api/client/index.js');
    const c = new ChainClient(node.addresses.grpc!);
    await c.submit({
      market: { base_mint: Uint8Array.from(mintA), quote_mint: Uint8Array.from(mintB), name: 'BENCH' },
    });
    c.close();
    const before = cpuMsOfStat(`/proc/self/task/${process.pid}/stat`);
    const child = fork(fileURLToPath(new URL('./support/chain-load.js', import.meta.url)), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const result = await new Promise<SubmitLoadResult>((resolve, reject) => {
      child.on('message', (m: { result?: SubmitLoadResult; error?: string }) =>
        m.result ? resolve(m.result) : reject(new Error(m.error)),
      );
      child.once('exit', (code) => code !== 0 && reject(new Error(`chain-load exited with ${code}`)));
      const job: LoadJob = { grpc: node.addresses.grpc!, rate, seconds, base: mintA, quote: mintB, firstOrderId: 1 };
      child.send(job);
    });
    const main = cpuMsOfStat(`/proc/self/task/${process.pid}/stat`) - before;
    return {
      intake_threads: intakeThreads,
      offered_per_s: rate,
      answered_per_s: Math.round(result.ok / result.seconds),
      ok: result.ok,
      errors: result.errors,
      first_error: result.firstError || undefined,
      sequencer_thread_cpu_us_per_order: result.ok > 0 ? Math.round((main * 1000) / result.ok) : null,
      load_average: loadavg().map((x) => Number(x.toFixed(2))),
    };
  } finally {
    await node.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const orders = Number(process.env.DEX_E2E_ORDERS ?? 10_000);
  const conc = Number(process.env.DEX_E2E_CONCURRENCY ?? 512);
  const parts = (process.env.DEX_GATEWAY_PARTS ?? 'gateways,submittx').split(',');
  const gateways = parts.includes('gateways') ? await benchGateways(orders, conc) : {};
  log('SubmitTx over gRPC (node process)');
  const submitTx = parts.includes('submittx') ? await benchSubmitTx() : undefined;
  log(JSON.stringify(submitTx));
  console.log(
    JSON.stringify({ bench: 'dex-gateways', ...gateways, submit_tx: submitTx, vdf_iterations: VDF_ITERATIONS }),
  );
}
