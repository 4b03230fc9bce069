/**
 * `npm run bench:loaded` (issue 25 point 1): where a busy tick's CPU goes, black-box, as a
 * user would measure it. The real `svc node` binary as a leader (defaults, but
 * `--submit-tx-rate 0`: the load comes from one loopback address) and a `--follow` full
 * node of it, each with LevelDB in a temp dir; in their own processes: `--senders` clients
 * sending signed orders over gRPC SubmitTx, open loop, `--rate` orders/s in all for
 * `--seconds` (or `--rate max`: closed loop at the node's maximum, each sender keeping
 * `--inflight` calls pending, 32 by default: 128 in all, the node's default --max-pending;
 * `orders.per_s` is then the maximum); `--subscribers` WS clients on one market's book
 * channel (each socket from its own loopback address); one client following the blocks channel of both nodes; and, with
 * `--readers N`, N StreamTicks readers that read as fast as it comes (half live, half from
 * tick 1, each on its own connection).
 *
 * Figures (one JSON line):
 *   answer_ms          SubmitTx send -> answer, p50/p99/max
 *   answer_stages_ms   (SubmitTx) that time cut at the node's admission (the answer's submission
 *                      timestamp) and at the tick's start: sent_to_admitted, admitted_to_tick,
 *                      tick_to_answer (one wall clock: clients and node share the machine)
 *   main_event_loop_delay_ms  the event-loop delay of the leader's thread that serves /metrics
 *                      (the node thread, svc-node, with --node-thread on; the main thread with
 *                      it off) over the window and, as its anchor, over 2 s idle just before
 *                      (prom-client's histogram: the interval of a 10 ms timer, so idle reads ~10 ms)
 *   delta_ms           a book delta's tick timestamp (the sequencer's) -> its receipt by a
 *                      subscriber, one sample per subscriber and delta
 *   block_lag_ms       a block's arrival on the follower's blocks channel - on the leader's
 *   cpu                per thread of the leader (/proc/<pid>/task by name: main, svc-clock,
 *                      svc-batcher, svc-pool, svc-intake, other = V8's and libuv's own; its
 *                      gateway processes as `gateway`): ms over the window, µs per busy tick
 *                      (ticks that carried an answered order) and per order; the clock's
 *                      share of a core; the same for the follower's process as a whole
 *   anchors            a bare `ws` server sending one 475-byte message to `--subscribers`
 *                      clients in another process (its CPU per send), run in the same
 *                      window before the load; one busy tick's VDF (T = 20) in this process
 *   clients_cpu_cores  what the client processes took of the machine
 *   load_average_1m    at start and end (the machine may be shared)
 *
 *   profile            with `--profile DIR`: the leader runs with `--cpu-prof` into DIR, and
 *                      its main thread's profile, cut to the load window (bench/support/
 *                      cpu-profile.ts), gives µs per order per module and function (the CPU
 *                      figures of such a run include the profiler's own cost; V8 charges
 *                      the time the thread waits for a core to where it was preempted)
 *   perf               with `--perf DIR`: the leader runs with `--perf-basic-prof` and Linux
 *                      perf samples its main thread (and `node_thread`: svc-node, whose JIT
 *                      names share one map file with the main thread's, so a few may be
 *                      misnamed) while each is on a CPU, over the load
 *                      window: its share per area of the code, and µs per order (bench/
 *                      support/perf-main.ts)
 *
 *   node dist/bench/loaded.bench.js [--rate 300] [--subscribers 200] [--seconds 10]
 *                                   [--senders 4] [--readers 0] [--profile DIR] [--perf DIR]
 *                                   [--rate max [--inflight 32]]
 * Extra leader flags: BENCH_NODE_ARGS.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChainClient } from '../src/chain/api/client/index.js';
import { sha256 } from '../src/crypto/sha256.js';
import { marketIdOf } from '../src/sdk/index.js';
import { DEFAULT_BUSY_ITERATIONS, GENESIS_OUTPUT, loadVdfEngine } from '../src/vdf/index.js';
import type { BlockLagJob, BlockLagResult } from './support/block-lag.js';
import type { BookClientsJob, BookClientsResult } from './support/book-clients.js';
import { perOrder, summarizeProfile } from './support/cpu-profile.js';
import { chainHeight } from './support/node-status.js';
import { perfAvailable, recordThread, summarizePerf, threadNamed } from './support/perf-main.js';
import type { LoadedOrdersJob, LoadedOrdersResult } from './support/loaded-orders.js';
import { benchNodeArgs, spawnNode, startChild, type StartedChild } from './support/processes.js';
import { percentile, round } from './support/stats.js';
import type { StreamClientsJob, StreamClientsResult } from './support/stream-clients.js';
import { cpuDelta, sampleThreads, totalMs } from './support/threads.js';
import type { WsAnchorServerResult } from './support/ws-anchor.js';

const atMax = process.argv[process.argv.indexOf('--rate') + 1] === 'max' && process.argv.includes('--rate');
const rate = atMax ? 0 : arg('rate', 300);
const inflight = atMax ? arg('inflight', 32) : 0;
const subscribers = arg('subscribers', 200);
const seconds = arg('seconds', 10);
const senders = arg('senders', 4);
const readers = arg('readers', 0);
/**
 * `--via dex`: orders by POST /orders on the order book port (the gateways) instead of gRPC
 * SubmitTx; `--via entry`: gRPC SubmitTx on the order entry port (--grpc-entry-addr, served
 * by the gateways) instead of the node's gRPC port.
 */
const via = process.argv.includes('--via') ? process.argv[process.argv.indexOf('--via') + 1] : 'grpc';
const viaDex = via === 'dex';
const viaEntry = via === 'entry';
const profileAt = process.argv.indexOf('--profile');
const profileDir = profileAt >= 0 ? resolve(process.argv[profileAt + 1]!) : '';
const perfAt = process.argv.indexOf('--perf');
const perfDir = perfAt >= 0 ? resolve(process.argv[perfAt + 1]!) : '';
const perfMissing = perfDir ? perfAvailable() : undefined;

/** Closed loop: orders signed beforehand per second of the run, in all (above any rate the node reaches here). */
const MAX_ORDERS_PER_S = 5000;
const signedPerSender = Math.ceil((MAX_ORDERS_PER_S * seconds) / senders);

const base = new Uint8Array(32).fill(0xc1);
const quote = new Uint8Array(32).fill(0xc2);

const anchorWs = await wsAnchor(Math.max(1, subscribers));
const anchorVdfUs = await vdfAnchorUs();

const dir = await mkdtemp(join(tmpdir(), 'svc-bench-loaded-'));
const extra = benchNodeArgs();
const leaderArgs = [
  ...(extra.includes('--gateways') ? [] : ['--gateways', String(availableParallelism())]),
  '--submit-tx-rate',
  '0',
  ...(viaEntry ? ['--grpc-entry-addr', '127.0.0.1:0'] : []),
  ...extra,
];
const nodeFlags = process.env.SVC_NODE_FLAGS ?? '';
if (profileDir) process.env.SVC_NODE_FLAGS = `${nodeFlags} --cpu-prof --cpu-prof-dir=${profileDir}`;
if (perfDir) process.env.SVC_NODE_FLAGS = `${process.env.SVC_NODE_FLAGS ?? ''} --perf-basic-prof`;
const leaderFaces = ['grpc', 'rest', 'dex', 'rpc', ...(viaEntry ? ['grpc-entry'] : [])];
const leader = await spawnNode(join(dir, 'leader'), leaderArgs, leaderFaces, { timeoutMs: 120_000 });
process.env.SVC_NODE_FLAGS = nodeFlags; // the follower without the profilers
const follower = await spawnNode(
  join(dir, 'follower'),
  ['--follow', leader.addresses.grpc!, '--gateways', '0'],
  ['grpc', 'rest', 'rpc'],
  { timeoutMs: 120_000 },
);
const started: Array<StartedChild<unknown>> = [];
let reportLine: (Record<string, unknown> & { orders: { ok: number }; window_monotonic_us: number[] }) | undefined;
// Interrupted (Ctrl-C, `timeout`): take the nodes down too, they are not our process group's children only.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const n of [follower, leader]) n.child.kill('SIGKILL');
    process.exit(130);
  });
}
try {
  const grpc = new ChainClient(leader.addresses.grpc!);
  await grpc.submit({ market: { base_mint: base, quote_mint: quote, name: 'BENCH/LOADED' } });
  grpc.close();
  const marketId = marketIdOf(base, quote, sha256);

  const procs = Math.min(4, Math.max(1, Math.ceil(subscribers / 100)));
  const books =
    subscribers === 0
      ? []
      : Array.from({ length: procs }, (_, p) => {
          const share = Math.floor(subscribers / procs) + (p < subscribers % procs ? 1 : 0);
          const job: BookClientsJob = {
            url: `ws://${leader.addresses.rpc}/ws`,
            marketId,
            clients: share,
            firstAddress: p * Math.ceil(subscribers / procs),
          };
          return startChild<BookClientsJob, BookClientsResult>('book-clients.js', job);
        });
  const lag = startChild<BlockLagJob, BlockLagResult>('block-lag.js', {
    leader: `ws://${leader.addresses.rpc}/ws`,
    follower: `ws://${follower.addresses.rpc}/ws`,
  });
  const tickReaders =
    readers === 0
      ? []
      : [0, 1].map((startTick) =>
          startChild<StreamClientsJob, StreamClientsResult>('stream-clients.js', {
            address: leader.addresses.grpc!,
            count: Math.ceil(readers / 2),
            startTick,
            mode: 'reading',
          }),
        );
  started.push(...books, lag, ...tickReaders);
  const loaders = Array.from({ length: senders }, (_, s) => {
    const job: LoadedOrdersJob = {
      grpc: viaEntry ? leader.addresses['grpc-entry']! : leader.addresses.grpc!,
      ...(viaDex ? { dex: `http://${leader.addresses.dex}` } : {}),
      rate: rate / senders,
      seconds,
      base: Array.from(base),
      quote: Array.from(quote),
      firstOrderId: 1 + s * 10_000_000,
      keySeed: 1 + s * 8,
      ...(atMax ? { inflight, orders: signedPerSender } : {}),
    };
    return startChild<LoadedOrdersJob, LoadedOrdersResult>('loaded-orders.js', job);
  });
  await Promise.all([...books, lag, ...tickReaders, ...loaders].map((c) => c.ready));
  await sleep(500);

  const load0 = loadavg()[0]!;
  const height0 = await chainHeight(leader.addresses.rest!);
  const leader0 = sampleThreads(leader.child.pid!);
  const follower0 = sampleThreads(follower.child.pid!);
  const t0 = performance.now();
  const window0Us = process.hrtime.bigint() / 1000n;
  await eventLoopDelay(leader.addresses.rest!); // a scrape resets the node's delay histogram
  await sleep(2000);
  const idleLoopDelay = await eventLoopDelay(leader.addresses.rest!); // the anchor: the same node idle, 2 s
  const perf = perfDir && !perfMissing ? recordThread(leader.child.pid!, perfDir) : undefined;
  const nodeThread = perf ? threadNamed(leader.child.pid!, 'svc-node') : undefined;
  const perfNode = nodeThread ? recordThread(nodeThread, perfDir, 999, 'svc-node') : undefined;
  for (const l of loaders) l.send({ go: true });
  const loads = await Promise.all(loaders.map((l) => l.result));
  await Promise.all([perf?.stop(), perfNode?.stop()]);
  const loopDelay = await eventLoopDelay(leader.addresses.rest!);
  const wallMs = performance.now() - t0;
  const window1Us = process.hrtime.bigint() / 1000n;
  const leaderCpu = cpuDelta(leader0, sampleThreads(leader.child.pid!));
  const followerCpu = cpuDelta(follower0, sampleThreads(follower.child.pid!));
  const load1 = loadavg()[0]!;
  const ticksInWindow = (await chainHeight(leader.addresses.rest!)) - height0;
  await sleep(1000); // the last deltas and blocks

  const bookResults = await Promise.all(books.map((c) => (c.stop(), c.result)));
  const lagResult = await (lag.stop(), lag.result);
  const readerResults = await Promise.all(tickReaders.map((c) => (c.stop(), c.result)));

  const busyTicks = new Set<number>();
  const answers: number[] = [];
  let ok = 0;
  let errors = 0;
  let firstError = '';
  for (const l of loads) {
    for (const t of l.ticks) busyTicks.add(t);
    answers.push(...l.latenciesMs);
    ok += l.ok;
    errors += l.errors;
    firstError ||= l.firstError;
  }
  answers.sort((a, b) => a - b);
  const tickUs = await tickTimestamps([
    ...bookResults.flatMap((r) => r.samples.map(([t]) => t)),
    ...loads.flatMap((l) => l.stages.map(([t]) => t)),
  ]);
  const deltaMs = await deltaLatencies(bookResults, tickUs);
  const stages = answerStages(loads, tickUs);
  const lagMs = [...lagResult.lagMs].sort((a, b) => a - b);
  const ticks = Math.max(1, busyTicks.size);
  const perThread: Record<string, { ms: number; us_per_busy_tick: number; us_per_order: number }> = {};
  for (const [name, ms] of Object.entries(leaderCpu).sort())
    perThread[name] = {
      ms,
      us_per_busy_tick: round((ms * 1000) / ticks),
      us_per_order: round((ms * 1000) / Math.max(1, ok)),
    };
  const clientsCpuMs =
    loads.reduce((s, l) => s + l.cpuMs, 0) + bookResults.reduce((s, r) => s + r.cpuMs, 0) + lagResult.cpuMs;
  const report = {
    bench: 'loaded',
    rate: atMax ? 'max' : rate,
    via: viaDex ? 'POST /orders' : viaEntry ? 'SubmitTx on the order entry port' : 'SubmitTx',
    ...(atMax
      ? { inflight_per_sender: inflight, orders_signed_exhausted: loads.some((l) => l.sent >= signedPerSender) }
      : {}),
    subscribers,
    readers,
    seconds,
    senders,
    leader_args: leaderArgs.join(' '),
    orders: {
      sent: loads.reduce((s, l) => s + l.sent, 0),
      ok,
      errors,
      first_error: firstError,
      per_s: round(ok / (wallMs / 1000)),
    },
    busy_ticks: busyTicks.size,
    ticks: ticksInWindow,
    ticks_per_busy_tick: round(ticksInWindow / ticks, 2),
    orders_per_busy_tick: round(ok / ticks, 2),
    answer_ms: pcts(answers),
    ...(stages ? { answer_stages_ms: stages } : {}),
    main_event_loop_delay_ms: { load: loopDelay, idle: idleLoopDelay },
    delta_ms: {
      ...pcts(deltaMs),
      gaps: bookResults.reduce((s, r) => s + r.gaps, 0),
      closed_by_node: bookResults.reduce((s, r) => s + r.closed, 0),
    },
    block_lag_ms: { ...pcts(lagMs), leader_blocks: lagResult.leaderBlocks, follower_blocks: lagResult.followerBlocks },
    cpu: {
      window_ms: round(wallMs),
      leader: perThread,
      leader_us_per_busy_tick: round((totalMs(leaderCpu) * 1000) / ticks),
      leader_without_clock_us_per_busy_tick: round((totalMs(leaderCpu, ['svc-clock']) * 1000) / ticks),
      main_us_per_busy_tick: round(((leaderCpu.main ?? 0) * 1000) / ticks),
      main_us_per_order: round(((leaderCpu.main ?? 0) * 1000) / Math.max(1, ok)),
      clock_cores: round((leaderCpu['svc-clock'] ?? 0) / wallMs, 2),
      follower_total_ms: totalMs(followerCpu),
      follower_us_per_busy_tick: round((totalMs(followerCpu) * 1000) / ticks),
    },
    readers_received: readerResults.reduce((s, r) => s + r.received, 0),
    anchors: {
      bare_ws_cpu_us_per_send: round(anchorWs.cpuUsPerSend, 2),
      bare_ws_cpu_us_per_round: round(anchorWs.cpuUsPerRound),
      bare_ws_clients: anchorWs.clients,
      vdf_busy_tick_us: round(anchorVdfUs),
    },
    clients_cpu_cores: round(clientsCpuMs / wallMs, 2),
    load_average_1m: { start: round(load0, 2), end: round(load1, 2) },
    cores: availableParallelism(),
    window_monotonic_us: [Number(window0Us), Number(window1Us)],
    goals: {
      answer_p99_ms: 20,
      delta_p99_ms: 50,
      block_lag_p99_ms: 10,
      main_us_per_busy_tick: 150,
      leader_without_clock_us_per_busy_tick: 1000,
    },
  };
  reportLine = report;
} finally {
  for (const c of started) c.stop();
  for (const n of [follower, leader]) {
    // SIGTERM first (a node run with NODE_OPTIONS=--cpu-prof writes its profile on exit)
    n.child.kill('SIGTERM');
    const stopped = setTimeout(() => n.child.kill('SIGKILL'), 10_000);
    await n.exited;
    clearTimeout(stopped);
  }
  await rm(dir, { recursive: true, force: true });
}
if (reportLine && profileDir) reportLine.profile = leaderProfile(reportLine);
if (reportLine && perfDir) reportLine.perf = perfMissing ? { error: perfMissing } : leaderPerf(reportLine);
console.log(JSON.stringify(reportLine));
process.exit(0);

// ---------------------------------------------------------------- helpers

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function pcts(sorted: number[]): { p50: number; p99: number; max: number; n: number } {
  return {
    p50: round(percentile(sorted, 50), 2),
    p99: round(percentile(sorted, 99), 2),
    max: round(sorted[sorted.length - 1] ?? NaN, 2),
    n: sorted.length,
  };
}

/** The leader's main-thread profile (tid 0 in the file name), cut to the load window, per order. */
function leaderProfile(r: { orders: { ok: number }; window_monotonic_us: number[] }): object {
  const file = readdirSync(profileDir).find((f) => f.endsWith(`.${leader.child.pid}.0.001.cpuprofile`));
  if (!file) return { error: `no main-thread profile of ${leader.child.pid} in ${profileDir}` };
  const [from, to] = r.window_monotonic_us as [number, number];
  const path = join(profileDir, file);
  return { file: path, ...perOrder(summarizeProfile(path, from, to, 30), r.orders.ok) };
}

/** Delta receipt - tick timestamp per subscriber and delta (timestamps from GET /api/v1/tick/:n). */
async function deltaLatencies(results: BookClientsResult[], tickUs: Map<number, number>): Promise<number[]> {
  const out: number[] = [];
  for (const r of results)
    for (const [t, recvUs] of r.samples) if (tickUs.has(t)) out.push((recvUs - tickUs.get(t)!) / 1000);
  return out.sort((a, b) => a - b);
}

/** The leader's tick timestamps (µs, when each tick started) of `ticks`, by GET /api/v1/tick/N. */
async function tickTimestamps(ticks: number[]): Promise<Map<number, number>> {
  const left = [...new Set(ticks)];
  const tickUs = new Map<number, number>();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let t = left.pop(); t !== undefined; t = left.pop()) {
        const res = await fetch(`http://${leader.addresses.rest}/api/v1/tick/${t}`);
        if (res.ok) tickUs.set(t, ((await res.json()) as { tick: { timestamp: number } }).tick.timestamp);
      }
    }),
  );
  return tickUs;
}

/**
 * Each SubmitTx answer's time cut in three on the one wall clock of this machine: sent ->
 * the node's admission (the answer's submission timestamp: client, gRPC, a gateway where
 * there is one, the arrival line), admission -> its tick's start (the write-ahead group, the
 * batcher, waiting for the tick), the tick's start -> answered (squaring, the tick's write,
 * applying, the chain record's write, the answer's way back). The submission timestamp has
 * millisecond resolution.
 */
function answerStages(loads: LoadedOrdersResult[], tickUs: Map<number, number>) {
  const toNode: number[] = [];
  const toTick: number[] = [];
  const fromTick: number[] = [];
  for (const l of loads)
    for (const [tick, sent, admitted, answered] of l.stages) {
      const startMs = tickUs.get(tick);
      if (startMs === undefined) continue;
      toNode.push(admitted - sent);
      toTick.push(startMs / 1000 - admitted);
      fromTick.push(answered - startMs / 1000);
    }
  if (toNode.length === 0) return undefined;
  const sorted = (v: number[]) => pcts(v.sort((a, b) => a - b));
  return { sent_to_admitted: sorted(toNode), admitted_to_tick: sorted(toTick), tick_to_answer: sorted(fromTick) };
}

/** The leader's main thread (and svc-node, with the node thread) on CPU in the load window, per area, as shares and as µs per answered order. */
function leaderPerf(report: { orders: { ok: number } }) {
  const cpu = (report as { cpu?: { leader?: Record<string, { us_per_order?: number }> } }).cpu?.leader ?? {};
  const main = threadPerf('main', cpu.main?.us_per_order ?? 0);
  const node = readdirSync(perfDir).some((f) => f.startsWith('svc-node-'))
    ? threadPerf('svc-node', cpu['svc-node']?.us_per_order ?? 0)
    : undefined;
  return node ? { ...main, node_thread: node } : main;
}

function threadPerf(label: string, perOrder: number) {
  const file = readdirSync(perfDir).find((f) => f.startsWith(`${label}-`) && f.endsWith('.perf.data'));
  if (!file) return { error: `no perf recording of the leader's ${label} thread in ${perfDir}` };
  const summary = summarizePerf(join(perfDir, file));
  if ('error' in summary) return summary;
  return {
    samples: summary.samples,
    areas: summary.areas.map(([area, pct]) => ({ area, pct, us_per_order: round((pct * perOrder) / 100) })),
  };
}

/**
 * The leader main thread's event-loop delay since the last scrape (prom-client's
 * monitorEventLoopDelay histogram, reset by every scrape of /metrics): how long a callback
 * that was due waited for the thread: the intervals of a 10 ms timer (idle: ~10 ms).
 */
async function eventLoopDelay(rest: string): Promise<{ p50: number; p90: number; p99: number; max: number }> {
  const text = await (await fetch(`http://${rest}/metrics`)).text();
  const ms = (name: string) => round(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000, 2);
  return {
    p50: ms('nodejs_eventloop_lag_p50_seconds'),
    p90: ms('nodejs_eventloop_lag_p90_seconds'),
    p99: ms('nodejs_eventloop_lag_p99_seconds'),
    max: ms('nodejs_eventloop_lag_max_seconds'),
  };
}

/** The bare-ws anchor: server and clients each in their own process. */
async function wsAnchor(clients: number): Promise<WsAnchorServerResult> {
  const module = fileURLToPath(new URL('./support/ws-anchor.js', import.meta.url));
  const server = fork(module, ['server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => server.once('message', (m: { port: number }) => resolve(m.port)));
  const peers = fork(module, ['clients'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve) => {
    peers.once('message', () => resolve());
    peers.send({ url: `ws://127.0.0.1:${port}`, clients });
  });
  const result = await new Promise<WsAnchorServerResult>((resolve) => {
    server.once('message', (m: { result: WsAnchorServerResult }) => resolve(m.result));
    server.send({ rounds: 200 });
  });
  peers.send({ stop: true });
  return result;
}

/** One busy tick's VDF in this process: hash to the group, T squarings, the proof. */
async function vdfAnchorUs(): Promise<number> {
  const engine = await loadVdfEngine();
  const batchHash = new Uint8Array(32);
  let prev = GENESIS_OUTPUT;
  const n = 300;
  const t0 = performance.now();
  for (let i = 1; i <= n; i++) {
    const x = engine.hashToGroup(i, prev, batchHash);
    prev = engine.evaluate(x, DEFAULT_BUSY_ITERATIONS);
    engine.prove(x, prev, DEFAULT_BUSY_ITERATIONS);
  }
  return ((performance.now() - t0) * 1000) / n;
}
