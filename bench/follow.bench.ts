/**
 * `npm run bench:follow`: full node figures (issue 9), real processes on loopback.
 *
 * 1. Record: a leader (`svc node`, --idle-tick-ms 1) runs until it has BENCH_TICKS ticks
 *    (default 20,000), with BENCH_RECORD_TPS transactions/s (default 200) submitted meanwhile.
 * 2. Catch-up: a follower (`svc node --follow`) starts on a fresh --db-path; time and the
 *    follower process's CPU time (/proc/<pid>/stat, all threads) until it has stored and
 *    applied the leader's tick at the moment it started: ticks/s, tx/s, CPU µs per tick.
 *    The pool size is the follower's (all cores).
 * 3. Restart: the follower is killed with -9 and restarted; time to `listening` on all
 *    faces (it serves from its own store), at the chain size of step 1.
 * 4. Lag: the leader is restarted at its default heartbeat (100 ms idle ticks); at
 *    BENCH_LAG_RATES tx/s (default "0,1000"), for BENCH_LAG_SECONDS each, the arrival of
 *    each tick on the leader's StreamTicks vs on the follower's (the follower serves a
 *    tick only once verified and stored), both read by this process: p50 / p99.
 * Last line: one JSON object. The load average is reported: the machine may be shared.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SequencerClient, type WireTick } from '../test/support/grpc-client.js';
import { spawnNode, type NodeProcess } from './support/processes.js';
import { percentile, round } from './support/stats.js';

const TICKS = Number(process.env.BENCH_TICKS ?? 20_000);
const RECORD_TPS = Number(process.env.BENCH_RECORD_TPS ?? 200);
const LAG_RATES = (process.env.BENCH_LAG_RATES ?? '0,1000').split(',').map(Number);
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 5);
const ALL = ['grpc', 'rest', 'dex', 'rpc'];
const LEADER = ['--idle-tick-ms', '1', '--vdf-iterations', '200', '--queue-capacity', '1000000'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** utime + stime of a process, all threads, in ms. */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // CLK_TCK 100
}

async function status(n: NodeProcess): Promise<{ latest_tick: number; total_transactions: number }> {
  return (await (await fetch(`http://${n.addresses.rest}/api/v1/status`)).json()) as { latest_tick: number; total_transactions: number };
}

let txCounter = 0;
function tx(): object {
  txCounter++;
  return { tx_id: `bench-${txCounter}`, payload: Buffer.alloc(100, txCounter & 0xff), signature: Buffer.alloc(64), public_key: Buffer.alloc(32), nonce: String(txCounter), timestamp: String(Date.now() * 1000) };
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

async function main(): Promise<void> {
  const dirs: string[] = [];
  const dir = async () => {
    const d = await mkdtemp(join(tmpdir(), 'svc-bench-follow-'));
    dirs.push(d);
    return d;
  };
  const out: Record<string, unknown> = { bench: 'follow', ticks: TICKS, cores: availableParallelism(), loadavg_start: loadavg().map((x) => round(x, 2)) };
  let leader = await spawnNode(await dir(), LEADER, ALL);
  const procs: NodeProcess[] = [leader];
  let client = new SequencerClient(leader.addresses.grpc!);
  try {
    // 1. Record.
    const t0 = performance.now();
    const stopRecord = load(client, RECORD_TPS);
    while ((await status(leader)).latest_tick < TICKS) await sleep(200);
    await stopRecord();
    const rec = await status(leader);
    out.record = { seconds: round((performance.now() - t0) / 1000, 1), ticks: rec.latest_tick, transactions: rec.total_transactions };
    console.log(`recorded ${rec.latest_tick} ticks, ${rec.total_transactions} transactions`);

    // 2. Catch-up from genesis.
    const fdb = await dir();
    const c0 = performance.now();
    let follower = await spawnNode(fdb, ['--follow', leader.addresses.grpc!], ALL);
    procs.push(follower);
    const target = rec.latest_tick;
    let fs = await status(follower);
    while (fs.latest_tick < target) {
      await sleep(100);
      fs = await status(follower);
    }
    const secs = (performance.now() - c0) / 1000;
    const cpu = cpuMs(follower.child.pid!);
    out.catch_up = {
      ticks: target,
      transactions: fs.total_transactions,
      seconds: round(secs, 2),
      ticks_per_s: Math.round(target / secs),
      tx_per_s: Math.round(fs.total_transactions / secs),
      cpu_ms: Math.round(cpu),
      cpu_us_per_tick: round((cpu * 1000) / target, 1),
      pool_threads: availableParallelism(),
      note: 'from process start (includes start-up) to the target tick stored',
    };
    console.log(`catch-up: ${target} ticks in ${round(secs, 2)} s (${Math.round(target / secs)} ticks/s), CPU ${round((cpu * 1000) / target, 1)} µs/tick`);

    // 3. Restart after kill -9 (the order book and chain replay the ticks after their last snapshot).
    follower.child.kill('SIGKILL');
    await follower.exited;
    const stored = await (async () => {
      const r0 = performance.now();
      follower = await spawnNode(fdb, ['--follow', leader.addresses.grpc!], ALL);
      procs.push(follower);
      return (performance.now() - r0) / 1000;
    })();
    const after = await status(follower);
    out.restart = { seconds_to_listening: round(stored, 2), stored_ticks: after.latest_tick };
    console.log(`restart after kill -9 at ${after.latest_tick} ticks: serving in ${round(stored, 2)} s`);
    // The recording leader ticks every 1 ms; for the lag, restart it (same --db-path and gRPC
    // address) at the default heartbeat so the follower is measured at a live pace.
    const grpcAddr = leader.addresses.grpc!;
    const leaderDb = dirs[0]!;
    client.close();
    leader.child.kill('SIGTERM');
    await leader.exited;
    leader = await spawnNode(leaderDb, ['--vdf-iterations', '200', '--queue-capacity', '1000000', '--grpc-addr', grpcAddr], ALL);
    procs.push(leader);
    client = new SequencerClient(leader.addresses.grpc!);
    const caughtUp = (await status(leader)).latest_tick;
    while ((await status(follower)).latest_tick < caughtUp) await sleep(100);

    // 4. Lag: leader stream arrival -> follower stream arrival, per tick.
    for (const rate of LAG_RATES) {
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
      out[`lag_r${rate}`] = { ticks: lags.length, p50_ms: round(percentile(lags, 50), 2), p99_ms: round(percentile(lags, 99), 2), max_ms: round(lags.at(-1) ?? 0, 1) };
      console.log(`lag at ${rate} tx/s: p50 ${round(percentile(lags, 50), 2)} ms, p99 ${round(percentile(lags, 99), 2)} ms over ${lags.length} ticks`);
    }

  } finally {
    client.close();
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
  out.loadavg_end = loadavg().map((x) => round(x, 2));
  console.log(JSON.stringify(out));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
