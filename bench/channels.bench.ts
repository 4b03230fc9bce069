/**
 * bench:channels - live book channel delivery on the real node (issue 21 point 4): the
 * `svc node` binary (`bin/svc.js node`, LevelDB in a temp dir), N clients (default 1,000)
 * in child processes, each socket from its own loopback address, subscribed to one market's
 * book channel on WS /ws, while a load process sends signed orders at R per second (default
 * 1,000, open loop): over gRPC SubmitTx (`--via submittx`, the default: bench/support/
 * chain-load.ts, node started with `--submit-tx-rate 0`) or POST /orders (`--via orders`:
 * bench/dex-load.ts). The node runs as `npm start` does (one gateway process per core).
 *
 * Latency: from the tick's timestamp (the sequencer's, GET /api/v1/tick/:n) to the client's
 * receipt of that tick's delta, one sample per client and delta (p50, p99, max); so it holds
 * the applier, the chain's LevelDB write (published only once stored) and the fan-out. Also:
 * deltas delivered, sequence gaps (must be 0), sockets closed by the node (must be 0), the
 * node's CPU (its process and its children: the gateway, worker threads are in the process)
 * and the load average.
 *
 *   node dist/bench/channels.bench.js [--clients 1000] [--rate 1000] [--seconds 10] [--procs 4]
 *                                     [--via submittx|orders]
 * Extra node flags: BENCH_NODE_ARGS.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChainClient } from '../src/chain/api/client/index.js';
import { marketIdOf, toBase58 } from '../src/sdk/index.js';
import { sha256 } from '../src/crypto/sha256.js';
import { cpuMsOfStat } from './support/cpu.js';
import { benchNodeArgs, runChild, spawnNode, startChild } from './support/processes.js';
import type { LoadJob, LoadResult } from './support/chain-load.js';
import { percentile, round } from './support/stats.js';
import type { BookClientsJob, BookClientsResult } from './support/book-clients.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const clients = arg('clients', 1000);
const rate = arg('rate', 1000);
const seconds = arg('seconds', 10);
const procs = arg('procs', 4);
const via = process.argv.includes('--via') ? process.argv[process.argv.indexOf('--via') + 1]! : 'submittx';
if (via !== 'submittx' && via !== 'orders') throw new Error('--via submittx|orders');

/** CPU ms of a process and all its descendants (/proc). */
function treeCpuMs(root: number): number {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parent.get(p), hops++)
      if (p === root) return true;
    return false;
  };
  let ms = 0;
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    try {
      ms += cpuMsOfStat(`/proc/${pid}/stat`);
    } catch {
      // gone meanwhile
    }
  }
  return ms;
}

const base = new Uint8Array(32).fill(0xb1);
const quote = new Uint8Array(32).fill(0xb2);

/** Open-loop SubmitTx load from a child (bench/support/chain-load.ts); its result as JSON. */
async function submitTxLoad(): Promise<string> {
  const job: LoadJob = {
    grpc: node.addresses.grpc!,
    rate,
    seconds,
    base: Array.from(base),
    quote: Array.from(quote),
    firstOrderId: 1,
  };
  return JSON.stringify(await runChild<LoadJob, LoadResult>('chain-load.js', job));
}

/** Open-loop POST /orders load from a child (bench/dex-load.ts); its JSON line. */
function postOrdersLoad(): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const args = [
      fileURLToPath(new URL('./dex-load.js', import.meta.url)),
      `http://${node.addresses.dex}`,
      String(rate * seconds),
      '256',
      toBase58(base),
      toBase58(quote),
      String(rate),
    ];
    const loader = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    loader.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    loader.once('exit', (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`dex-load exited with ${code}`)),
    );
  });
}

const dir = await mkdtemp(join(tmpdir(), 'svc-bench-channels-'));
const extra = benchNodeArgs();
const nodeArgs = [
  ...(extra.includes('--gateways') ? [] : ['--gateways', String(availableParallelism())]),
  ...(via === 'submittx' ? ['--submit-tx-rate', '0'] : []),
  ...extra,
];
const node = await spawnNode(dir, nodeArgs, ['grpc', 'rest', 'dex', 'rpc']);
const nodePid = node.child.pid!;
try {
  const grpc = new ChainClient(node.addresses.grpc!);
  await grpc.submit({ market: { base_mint: base, quote_mint: quote, name: 'BENCH/CHANNELS' } });
  grpc.close();
  const marketId = marketIdOf(base, quote, sha256);
  const url = `ws://${node.addresses.rpc}/ws`;

  const children = Array.from({ length: procs }, (_, p) => {
    const share = Math.floor(clients / procs) + (p < clients % procs ? 1 : 0);
    const job: BookClientsJob = { url, marketId, clients: share, firstAddress: p * Math.ceil(clients / procs) };
    return startChild<BookClientsJob, BookClientsResult>('book-clients.js', job);
  });
  await Promise.all(children.map((c) => c.ready));
  console.log(
    `bench:channels: ${clients} clients in ${procs} processes on one book channel of the real node (${nodeArgs.join(' ')}); ${rate} orders/s over ${via === 'submittx' ? 'gRPC SubmitTx' : 'POST /orders'} for ${seconds} s`,
  );

  const load0 = loadavg()[0]!;
  const cpu0 = treeCpuMs(nodePid);
  const t0 = performance.now();
  const loadOut = via === 'submittx' ? await submitTxLoad() : await postOrdersLoad();
  const wallMs = performance.now() - t0;
  const cpuMs = treeCpuMs(nodePid) - cpu0;
  const load1 = loadavg()[0]!;
  await new Promise((resolve) => setTimeout(resolve, 1000)); // the last deltas

  const results = await Promise.all(
    children.map((c) => {
      c.stop();
      return c.result;
    }),
  );
  const ticks = new Set<number>();
  for (const r of results) for (const [tick] of r.samples) ticks.add(tick);
  const tickUs = new Map<number, number>();
  // Each tick's next tick too: its start is when this tick closed (the clock starts the next
  // at once), so the pipeline splits into the tick's own length and what follows its close.
  const pending = [...new Set([...ticks].flatMap((t) => [t, t + 1]))];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let t = pending.pop(); t !== undefined; t = pending.pop()) {
        const res = await fetch(`http://${node.addresses.rest}/api/v1/tick/${t}`);
        if (res.ok) tickUs.set(t, ((await res.json()) as { tick: { timestamp: number } }).tick.timestamp);
      }
    }),
  );
  const latencies: number[] = [];
  /** Per tick: its first and last receipt (the pipeline to the first client; the fan-out spread). */
  const firstLast = new Map<number, [number, number]>();
  let deltas = 0;
  let gaps = 0;
  let closed = 0;
  for (const r of results) {
    deltas += r.deltas;
    gaps += r.gaps;
    closed += r.closed;
    for (const [tick, recvUs] of r.samples) {
      const at = tickUs.get(tick);
      if (at === undefined) continue;
      latencies.push((recvUs - at) / 1000);
      const fl = firstLast.get(tick);
      if (fl === undefined) firstLast.set(tick, [recvUs, recvUs]);
      else firstLast.set(tick, [Math.min(fl[0], recvUs), Math.max(fl[1], recvUs)]);
    }
  }
  latencies.sort((a, b) => a - b);
  const firstMs = [...firstLast].map(([t, [first]]) => (first - tickUs.get(t)!) / 1000).sort((a, b) => a - b);
  const spreadMs = [...firstLast.values()].map(([first, last]) => (last - first) / 1000).sort((a, b) => a - b);
  const closed_ = [...firstLast.keys()].filter((t) => tickUs.has(t + 1));
  const lengthMs = closed_.map((t) => (tickUs.get(t + 1)! - tickUs.get(t)!) / 1000).sort((a, b) => a - b);
  const closeToFirstMs = closed_.map((t) => (firstLast.get(t)![0] - tickUs.get(t + 1)!) / 1000).sort((a, b) => a - b);
  const report = {
    clients,
    load: JSON.parse(loadOut) as unknown,
    ticks_with_deltas: ticks.size,
    deltas_delivered: deltas,
    deltas_per_client_per_s: round(deltas / clients / (wallMs / 1000)),
    latency_from_tick_timestamp_ms: {
      p50: round(percentile(latencies, 50), 2),
      p99: round(percentile(latencies, 99), 2),
      max: round(latencies[latencies.length - 1] ?? NaN, 2),
      samples: latencies.length,
    },
    tick_to_first_client_ms: { p50: round(percentile(firstMs, 50), 2), p99: round(percentile(firstMs, 99), 2) },
    tick_length_ms: { p50: round(percentile(lengthMs, 50), 2), p99: round(percentile(lengthMs, 99), 2) },
    tick_close_to_first_client_ms: {
      p50: round(percentile(closeToFirstMs, 50), 2),
      p99: round(percentile(closeToFirstMs, 99), 2),
    },
    first_to_last_client_ms: { p50: round(percentile(spreadMs, 50), 2), p99: round(percentile(spreadMs, 99), 2) },
    gaps,
    closed_by_node: closed,
    node_cpu_cores: round(cpuMs / wallMs, 2),
    node_cpu_us_per_delivered_delta: round((cpuMs * 1000) / Math.max(1, deltas), 2),
    load_average_1m: { start: round(load0, 2), end: round(load1, 2) },
    target: 'p99 <= 50 ms',
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  node.child.kill('SIGKILL');
  await node.exited;
  await rm(dir, { recursive: true, force: true });
}
process.exit(0);
