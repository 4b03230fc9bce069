/**
 * `npm run bench:follow`: full node figures (issue 9), real processes on loopback.
 *
 * 1. Record: a leader (`svc node`, --vdf-iterations BENCH_VDF_ITERATIONS and --idle-tick-ms
 *    BENCH_IDLE_TICK_MS, by default the node's own 20 and 100) runs until it has BENCH_TICKS
 *    ticks (default 20,000), with BENCH_RECORD_TPS non-order-book transactions/s (default
 *    1,000, SubmitBatch every 10 ms) submitted meanwhile. Under that steady load a default
 *    leader closes a tick with transactions after 20 squarings and the empty tick between
 *    at the next arrival (a cut heartbeat, proven on the pool), or after 127 under dense
 *    traffic (bridge ticks, docs/sequencer.md "Clock cadence"). (The bench used
 *    --idle-tick-ms 1 --vdf-iterations 200 before: ~700 ticks/s of Wesolowski-proven ticks, T ~600; BENCH_IDLE_TICK_MS=1
 *    BENCH_VDF_ITERATIONS=200 BENCH_RECORD_TPS=200 records that chain again.) Two followers
 *    follow it live from genesis, both --gateways 0: one with the default --snapshot-ticks
 *    (2,000), one with --snapshot-ticks 1000000000 (never, on a chain without order book
 *    transactions). What the chain holds (ticks with and without transactions, their T,
 *    transactions per tick) is sampled from the leader at the end (BENCH_SAMPLE ticks,
 *    default 1,000, evenly spaced): catch-up speed depends on it.
 * 2. Restart after kill -9 at each chain size of BENCH_RESTART_AT (default
 *    "10000,100000,1000000", those above BENCH_TICKS dropped): once the leader has passed
 *    the size, the load stops (the leader falls back to its heartbeat) and both followers
 *    catch up with it; then, for each follower, the other one is paused (SIGSTOP) and this
 *    one is killed with -9 and started again on its --db-path: time from spawn to
 *    `listening` on all four faces, with --gateways 0, then again with one gateway process
 *    per core (the node's default), then again with --gateways 0 (a second sample; it goes
 *    on following with that). Then the leader itself (followers paused): kill -9 and start
 *    on the same --db-path and gRPC address. The load average is taken before each; the
 *    load resumes.
 * 3. Catch-up: the live followers are stopped, the leader is restarted (SIGTERM, same
 *    --db-path and address) at its default heartbeat with --vdf-iterations
 *    BENCH_LAG_VDF_ITERATIONS (default 200, as the lag below always ran); a fresh follower (`svc node --follow`) starts on a new --db-path;
 *    time and the follower process's CPU time (/proc/<pid>/stat, all threads) until it has
 *    stored and applied the leader's tick at the moment it started: ticks/s, tx/s, CPU µs
 *    per tick. The pool size is the follower's (all cores).
 * 4. Restart: that follower is killed with -9 and restarted (one gateway process); time to
 *    `listening` on all faces.
 * 5. Lag: at BENCH_LAG_RATES tx/s (default "0,1000"), for BENCH_LAG_SECONDS each, the
 *    arrival of each tick on the leader's StreamTicks vs on the follower's (the follower
 *    serves a tick only once verified and stored), both read by this process: p50 / p99.
 * Progress lines as it goes; last line: one JSON object (also printed, as far as it got, if
 * the run fails). The load average is reported: the machine may be shared.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SequencerClient, type WireTick } from '../test/support/grpc-client.js';
import { spawnNode, type NodeProcess } from './support/processes.js';
import { processCpuMs } from './support/cpu.js';
import { percentile, round } from './support/stats.js';

const TICKS = Number(process.env.BENCH_TICKS ?? 20_000);
const RECORD_TPS = Number(process.env.BENCH_RECORD_TPS ?? 1000);
const VDF_ITERATIONS = Number(process.env.BENCH_VDF_ITERATIONS ?? 20);
const IDLE_TICK_MS = Number(process.env.BENCH_IDLE_TICK_MS ?? 100);
const LAG_RATES = (process.env.BENCH_LAG_RATES ?? '0,1000').split(',').map(Number);
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 5);
const LAG_VDF_ITERATIONS = process.env.BENCH_LAG_VDF_ITERATIONS ?? '200';
const SAMPLE = Number(process.env.BENCH_SAMPLE ?? 1000);
const RESTART_GATEWAYS = (process.env.BENCH_RESTART_GATEWAYS ?? `0,${availableParallelism()},0`).split(',').map(Number);
const RESTART_AT = [
  ...new Set(
    (process.env.BENCH_RESTART_AT ?? '10000,100000,1000000')
      .split(',')
      .filter((x) => x.trim() !== '')
      .map(Number),
  ),
]
  .filter((n) => Number.isSafeInteger(n) && n > 0 && n <= TICKS)
  .sort((a, b) => a - b);
const ALL = ['grpc', 'rest', 'dex', 'rpc'];
const CORES = availableParallelism();
const LEADER = [
  '--idle-tick-ms',
  String(IDLE_TICK_MS),
  '--vdf-iterations',
  String(VDF_ITERATIONS),
  '--queue-capacity',
  '1000000',
  '--gateways',
  '0',
];
const NO_SNAPSHOTS = ['--snapshot-ticks', '1000000000'];
/** A restart without snapshots replays the whole chain before `listening`: allow it time. */
const RESTART_TIMEOUT_MS = 60 * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load3 = () => loadavg().map((x) => round(x, 2));
const stamp = () => new Date().toISOString().slice(11, 19);
const say = (line: string) => console.log(`${stamp()} ${line} (load ${load3().join(' ')})`);

async function status(n: NodeProcess): Promise<{ latest_tick: number; total_transactions: number }> {
  return (await (await fetch(`http://${n.addresses.rest}/api/v1/status`)).json()) as {
    latest_tick: number;
    total_transactions: number;
  };
}

let txCounter = 0;
function tx(): object {
  txCounter++;
  return {
    tx_id: `bench-${txCounter}`,
    payload: Buffer.alloc(100, txCounter & 0xff),
    signature: Buffer.alloc(64),
    public_key: Buffer.alloc(32),
    nonce: String(txCounter),
    timestamp: String(Date.now() * 1000),
  };
}

/** Submit at `rate` tx/s in batches every 10 ms until stopped. */
function load(client: SequencerClient, rate: number): () => Promise<void> {
  if (rate <= 0) return async () => undefined;
  let running = true;
  const perBatch = Math.max(1, Math.round(rate / 100));
  const done = (async () => {
    const t0 = performance.now();
    let sent = 0;
    while (running) {
      const due = ((performance.now() - t0) / 1000) * rate;
      if (sent < due) {
        const n = Math.min(perBatch * 4, Math.ceil(due - sent));
        sent += n;
        void client.submitBatch(Array.from({ length: n }, tx) as never).catch(() => undefined);
      }
      await sleep(10);
    }
  })();
  return async () => {
    running = false;
    await done;
  };
}

/** Quantiles of a list (sorted here): min / p50 / p90 / max. */
function spread(xs: number[]): { n: number; min?: number; p50?: number; p90?: number; max?: number } {
  if (xs.length === 0) return { n: 0 };
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, min: s[0]!, p50: percentile(s, 50), p90: percentile(s, 90), max: s.at(-1)! };
}

/**
 * What kind of ticks the chain holds: `count` ticks evenly spaced over 1..last, read from
 * the node's REST (GET /api/v1/tick/N): busy (with transactions) vs empty, their VDF
 * iterations T, how many are trivially proven (T <= 127: verified by recomputing the T
 * squarings, no Wesolowski proof), transactions per busy tick.
 */
async function composition(n: NodeProcess, last: number, count: number): Promise<Record<string, unknown>> {
  const busyT: number[] = [];
  const emptyT: number[] = [];
  const txs: number[] = [];
  const step = Math.max(1, last / count);
  for (let x = step / 2; x <= last && busyT.length + emptyT.length < count; x += step) {
    const t = Math.max(1, Math.round(x));
    const j = (await (await fetch(`http://${n.addresses.rest}/api/v1/tick/${t}`)).json()) as {
      tick?: { transaction_count: number; vdf_iterations: number };
    };
    if (!j.tick) continue;
    if (j.tick.transaction_count > 0) {
      busyT.push(j.tick.vdf_iterations);
      txs.push(j.tick.transaction_count);
    } else emptyT.push(j.tick.vdf_iterations);
  }
  const all = busyT.length + emptyT.length;
  return {
    sampled: all,
    busy_share: round(busyT.length / all, 3),
    trivial_share: round([...busyT, ...emptyT].filter((t) => t <= 127).length / all, 3),
    busy_T: spread(busyT),
    empty_T: spread(emptyT),
    tx_per_busy_tick: spread(txs),
  };
}

interface Live {
  name: string;
  snapshots: boolean;
  db: string;
  args: string[];
  node: NodeProcess;
}

/** Throws (with the end of its stderr) if the node has exited. */
function alive(n: NodeProcess, name: string): void {
  if (n.child.exitCode !== null || n.child.signalCode !== null) {
    throw new Error(`${name} exited (${n.child.exitCode ?? n.child.signalCode}); stderr:\n${n.stderr().slice(-3000)}`);
  }
}

async function main(): Promise<void> {
  const dirs: string[] = [];
  const dir = async () => {
    const d = await mkdtemp(join(tmpdir(), 'svc-bench-follow-'));
    dirs.push(d);
    return d;
  };
  const out: Record<string, unknown> = {
    bench: 'follow',
    ticks: TICKS,
    cores: CORES,
    started_utc: new Date().toISOString(),
    loadavg_start: load3(),
    leader_flags: LEADER.join(' '),
    record_tps: RECORD_TPS,
  };
  const restarts: Record<string, unknown>[] = [];
  out.restarts = restarts;
  const procs: NodeProcess[] = [];
  const leaderDb = await dir();
  let leader = await spawnNode(leaderDb, LEADER, ALL);
  procs.push(leader);
  const grpcAddr = leader.addresses.grpc!;
  let client = new SequencerClient(grpcAddr);
  const live: Live[] = [];
  try {
    // 1. Record, two followers following live (with and without snapshots).
    for (const [name, snapshots] of [
      ['follower_snapshots', true],
      ['follower_no_snapshots', false],
    ] as const) {
      const db = await dir();
      const args = ['--follow', grpcAddr, '--gateways', '0', ...(snapshots ? [] : NO_SNAPSHOTS)];
      const node = await spawnNode(db, args, ALL);
      procs.push(node);
      live.push({ name, snapshots, db, args, node });
    }
    const t0 = performance.now();
    let loadSeconds = 0;
    let stopLoad: (() => Promise<void>) | undefined;
    let loadSince = 0;
    const loadOn = () => {
      loadSince = performance.now();
      stopLoad = load(client, RECORD_TPS);
    };
    const loadOff = async () => {
      if (!stopLoad) return;
      await stopLoad();
      stopLoad = undefined;
      loadSeconds += (performance.now() - loadSince) / 1000;
    };
    let lastSay = 0;
    const progress = async (what: string) => {
      if (performance.now() - lastSay < 30_000) return;
      lastSay = performance.now();
      const figures = await Promise.all(
        [leader, ...live.map((l) => l.node)].map((n) =>
          status(n)
            .then((x) => x.latest_tick)
            .catch(() => -1),
        ),
      );
      say(`${what}: leader ${figures[0]}, followers ${figures.slice(1).join(' / ')}`);
    };
    /** Until the node has stored `tick` (polled every `ms`). */
    const waitTick = async (n: NodeProcess, name: string, tick: number, ms: number) => {
      for (;;) {
        alive(n, name);
        if ((await status(n)).latest_tick >= tick) return;
        await progress(`${name} to ${tick}`);
        await sleep(ms);
      }
    };
    const pause = (except: NodeProcess | undefined, sig: 'SIGSTOP' | 'SIGCONT') => {
      for (const l of live) if (l.node !== except && l.node.child.exitCode === null) l.node.child.kill(sig);
    };
    /** kill -9, then spawn on the same --db-path: seconds to `listening` on all faces. */
    const killAndStart = async (n: NodeProcess, db: string, args: string[]) => {
      const before = (await status(n)).latest_tick;
      const la = load3();
      n.child.kill('SIGKILL');
      await n.exited;
      const r0 = performance.now();
      const node = await spawnNode(db, args, ALL, { timeoutMs: RESTART_TIMEOUT_MS });
      const seconds = (performance.now() - r0) / 1000;
      procs.push(node);
      const after = (await status(node)).latest_tick;
      return {
        node,
        m: { seconds_to_listening: round(seconds, 2), stored_before_kill: before, stored_ticks: after, loadavg: la },
      };
    };

    loadOn();
    for (const size of RESTART_AT) {
      await waitTick(leader, 'leader', size, 250);
      await loadOff();
      // The leader is back at its heartbeat: let both followers catch up with it.
      const head = (await status(leader)).latest_tick;
      say(`leader at ${head} (load stopped); followers catching up`);
      for (const l of live) await waitTick(l.node, l.name, head, 500);
      for (const l of live) {
        pause(l.node, 'SIGSTOP');
        try {
          for (const gateways of RESTART_GATEWAYS) {
            const args = [
              ...l.args.filter((_, i, a) => a[i] !== '--gateways' && a[i - 1] !== '--gateways'),
              '--gateways',
              String(gateways),
            ];
            const { node, m } = await killAndStart(l.node, l.db, args);
            l.node = node;
            restarts.push({ node: 'follower', snapshots: l.snapshots, at: size, gateways, ...m });
            say(
              `restart ${l.name} at ${m.stored_ticks} stored ticks, --gateways ${gateways}: ${m.seconds_to_listening} s to listening (load before ${m.loadavg.join(' ')})`,
            );
          }
        } finally {
          pause(l.node, 'SIGCONT');
        }
      }
      // The leader itself: same --db-path and gRPC address, the followers paused meanwhile.
      pause(undefined, 'SIGSTOP');
      try {
        const { node, m } = await killAndStart(leader, leaderDb, [...LEADER, '--grpc-addr', grpcAddr]);
        leader = node;
        restarts.push({ node: 'leader', snapshots: true, at: size, gateways: 0, ...m });
        say(
          `restart leader at ${m.stored_ticks} stored ticks, --gateways 0: ${m.seconds_to_listening} s to listening (load before ${m.loadavg.join(' ')})`,
        );
      } finally {
        pause(undefined, 'SIGCONT');
      }
      if (size < TICKS) loadOn();
    }
    if (stopLoad) {
      await waitTick(leader, 'leader', TICKS, 250);
      await loadOff();
    }
    {
      const rec = await status(leader);
      const seconds = (performance.now() - t0) / 1000;
      out.record = {
        seconds: round(seconds, 1),
        ticks: rec.latest_tick,
        transactions: rec.total_transactions,
        load_seconds: round(loadSeconds, 1),
        ticks_per_s_under_load: Math.round(rec.latest_tick / loadSeconds),
        note: `leader ${LEADER.join(' ')}, ${RECORD_TPS} tx/s while recording; two followers following live; the load stopped for the restarts at ${RESTART_AT.join(', ') || 'no size'}`,
      };
      say(
        `recorded ${rec.latest_tick} ticks, ${rec.total_transactions} transactions in ${round(seconds, 1)} s (${round(loadSeconds, 1)} s under load)`,
      );
    }
    for (const l of live) {
      l.node.child.kill('SIGKILL');
      await l.node.exited;
    }
    live.length = 0;

    // The recording leader's flags may differ; for the catch-up and the lag, restart it (same
    // --db-path and gRPC address) at the default heartbeat, --vdf-iterations
    // BENCH_LAG_VDF_ITERATIONS (200 as the lag ran before; 20 is the node's default).
    client.close();
    leader.child.kill('SIGTERM');
    await leader.exited;
    leader = await spawnNode(
      leaderDb,
      ['--vdf-iterations', LAG_VDF_ITERATIONS, '--queue-capacity', '1000000', '--grpc-addr', grpcAddr],
      ALL,
    );
    procs.push(leader);
    client = new SequencerClient(leader.addresses.grpc!);

    // 2. Catch-up from genesis.
    await sleep(2000);
    const fdb = await dir();
    const laBefore = load3();
    const leaderCpu0 = processCpuMs(leader.child.pid!);
    const c0 = performance.now();
    let follower = await spawnNode(fdb, ['--follow', leader.addresses.grpc!], ALL);
    procs.push(follower);
    const target = (await status(leader)).latest_tick;
    let fs = await status(follower);
    while (fs.latest_tick < target) {
      await sleep(100);
      alive(follower, 'catch-up follower');
      fs = await status(follower);
      await progress(`catch-up to ${target}`);
    }
    const secs = (performance.now() - c0) / 1000;
    const cpu = processCpuMs(follower.child.pid!);
    out.catch_up = {
      ticks: target,
      transactions: fs.total_transactions,
      seconds: round(secs, 2),
      ticks_per_s: Math.round(target / secs),
      tx_per_s: Math.round(fs.total_transactions / secs),
      cpu_ms: Math.round(cpu),
      cpu_us_per_tick: round((cpu * 1000) / target, 1),
      pool_threads: CORES,
      leader_cpu_ms: Math.round(processCpuMs(leader.child.pid!) - leaderCpu0),
      loadavg_before: laBefore,
      loadavg_after: load3(),
      note: 'from process start (includes start-up) to the target tick stored; the leader at its default 100 ms heartbeat meanwhile',
    };
    say(
      `catch-up: ${target} ticks in ${round(secs, 2)} s (${Math.round(target / secs)} ticks/s), CPU ${round((cpu * 1000) / target, 1)} µs/tick`,
    );
    out.chain = await composition(leader, target, SAMPLE);
    say(`chain: ${JSON.stringify(out.chain)}`);

    // 3. Restart after kill -9 (the order book and chain replay the ticks after their last snapshot).
    {
      const { node, m } = await killAndStart(follower, fdb, ['--follow', leader.addresses.grpc!]);
      follower = node;
      out.restart = {
        seconds_to_listening: m.seconds_to_listening,
        stored_ticks: m.stored_ticks,
        gateways: 1,
        loadavg: m.loadavg,
      };
      say(`restart after kill -9 at ${m.stored_ticks} ticks: serving in ${m.seconds_to_listening} s`);
    }
    const caughtUp = (await status(leader)).latest_tick;
    while ((await status(follower)).latest_tick < caughtUp) await sleep(100);

    // 4. Lag: leader stream arrival -> follower stream arrival, per tick.
    for (const rate of LAG_RATES) {
      const la = load3();
      const fc = new SequencerClient(follower.addresses.grpc!);
      const atLeader = new Map<number, number>();
      const lags: number[] = [];
      const ls = client.stream(0);
      const fstream = fc.stream(0);
      ls.on('data', (t: WireTick) => atLeader.set(Number(t.tick_number), performance.now()));
      fstream.on('data', (t: WireTick) => {
        const a = atLeader.get(Number(t.tick_number));
        if (a !== undefined) {
          lags.push(performance.now() - a);
          atLeader.delete(Number(t.tick_number));
        }
      });
      ls.on('error', () => undefined);
      fstream.on('error', () => undefined);
      const stop = load(client, rate);
      await sleep(LAG_SECONDS * 1000);
      await stop();
      ls.cancel();
      fstream.cancel();
      fc.close();
      lags.sort((a, b) => a - b);
      out[`lag_r${rate}`] = {
        ticks: lags.length,
        p50_ms: round(percentile(lags, 50), 2),
        p99_ms: round(percentile(lags, 99), 2),
        max_ms: round(lags.at(-1) ?? 0, 1),
        loadavg: la,
      };
      say(
        `lag at ${rate} tx/s: p50 ${round(percentile(lags, 50), 2)} ms, p99 ${round(percentile(lags, 99), 2)} ms over ${lags.length} ticks`,
      );
    }
  } catch (err) {
    out.error = (err as Error).message.slice(0, 2000);
    throw err;
  } finally {
    client.close();
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    for (const d of dirs) await rm(d, { recursive: true, force: true });
    out.loadavg_end = load3();
    out.finished_utc = new Date().toISOString();
    console.log(JSON.stringify(out));
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
