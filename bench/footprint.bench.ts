/**
 * `npm run bench:footprint`: what the node costs its operator, black-box (issue 18, second
 * table). The real node as `npm start` runs it (every default flag, fresh temp --db-path,
 * ports 0; BENCH_NODE_ARGS adds flags), three phases of BENCH_PHASE_SECONDS (default 20):
 *   idle:       no traffic;
 *   trickle:    BENCH_TRICKLE_TX_PER_S (default 100) single SubmitTransaction calls a
 *               second, evenly paced, from a client in its own process (support/paced-submit.ts);
 *   idle_again: no traffic, right after.
 * Per phase: ticks/s (chain_height of REST /api/v1/status, before and after), growth of
 * the --db-path directory (sum of file sizes: bytes/s and GiB/day extrapolated), CPU cores
 * used by the node's process tree (the node, its gateway processes, all their threads:
 * /proc/<pid>/stat utime + stime over wall time), the whole machine's busy cores (others'
 * work included: it is shared) and the load average. For the trickle: ticks per
 * transaction, ticks per transaction beyond the idle rate, bytes per transaction.
 * Last stdout line: one JSON object.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirBytes, loadAverage, machineBusyMs, treeCpuDeltaMs, treeCpuMs } from './support/footprint.js';
import { chainHeight } from './support/node-status.js';
import type { PacedJob, PacedResult } from './support/paced-submit.js';
import { benchNodeArgs, spawnDefaultNode, startChild, type NodeProcess } from './support/processes.js';
import { round } from './support/stats.js';

const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 20);
const TRICKLE = Number(process.env.BENCH_TRICKLE_TX_PER_S ?? 100);
const GIB = 1024 ** 3;
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface PhaseFigures {
  seconds: number;
  ticks: number;
  ticks_per_s: number;
  disk_bytes: number;
  disk_bytes_per_s: number;
  disk_gib_per_day: number;
  node_cores: number;
  node_processes: number;
  machine_busy_cores: number;
  load_avg_start: number[];
  load_avg_end: number[];
}

/** Readings around `during` (which runs the phase's traffic, or just waits). */
async function measure(node: NodeProcess, dir: string, during: () => Promise<void>): Promise<PhaseFigures> {
  const pid = node.child.pid!;
  const load_avg_start = loadAverage();
  const h0 = await chainHeight(node.addresses.rest!);
  const b0 = await dirBytes(dir);
  const cpu0 = treeCpuMs(pid);
  const busy0 = machineBusyMs();
  const t0 = performance.now();
  await during();
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = treeCpuMs(pid);
  const busy1 = machineBusyMs();
  const b1 = await dirBytes(dir);
  const h1 = await chainHeight(node.addresses.rest!);
  const bytesPerS = (b1 - b0) / seconds;
  return {
    seconds: round(seconds, 2),
    ticks: h1 - h0,
    ticks_per_s: round((h1 - h0) / seconds, 1),
    disk_bytes: b1 - b0,
    disk_bytes_per_s: Math.round(bytesPerS),
    disk_gib_per_day: round((bytesPerS * 86_400) / GIB, 2),
    node_cores: round(treeCpuDeltaMs(cpu0, cpu1) / 1000 / seconds, 2),
    node_processes: cpu1.size,
    machine_busy_cores: round((busy1 - busy0) / 1000 / seconds, 2),
    load_avg_start,
    load_avg_end: loadAverage(),
  };
}

function line(name: string, p: PhaseFigures): string {
  return `${name}: ${p.ticks_per_s} ticks/s, disk ${round(p.disk_bytes_per_s / 1024, 1)} KiB/s = ${p.disk_gib_per_day} GiB/day, node ${p.node_cores} cores (${p.node_processes} processes), machine ${p.machine_busy_cores} cores busy, load ${p.load_avg_start.join(' ')} -> ${p.load_avg_end.join(' ')}`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-footprint-'));
  const nodeArgs = benchNodeArgs();
  const out: Record<string, unknown> = {
    bench: 'footprint',
    node_args: nodeArgs,
    phase_seconds: PHASE_SECONDS,
    trickle_tx_per_s: TRICKLE,
    load_avg_start: loadAverage(),
  };
  const node = await spawnDefaultNode(dir, nodeArgs);
  try {
    await sleep(3000); // start-up settles (first heartbeats, LevelDB files created)

    const idle = await measure(node, dir, () => sleep(PHASE_SECONDS * 1000));
    log(line('idle', idle));

    const trickleLoad = startChild<PacedJob, PacedResult>('paced-submit.js', {
      address: node.addresses.grpc!,
      txPerSecond: TRICKLE,
      batchSize: 1,
      tag: 'trickle',
    });
    await trickleLoad.ready;
    let sent: PacedResult | undefined;
    const trickle = await measure(node, dir, async () => {
      await sleep(PHASE_SECONDS * 1000);
      trickleLoad.stop();
      sent = await trickleLoad.result;
    });
    const txs = sent!.accepted;
    const trickleOut = {
      ...trickle,
      tx_sent: sent!.sent,
      tx_accepted: txs,
      tx_errors: sent!.errors,
      ...(sent!.firstError ? { first_error: sent!.firstError } : {}),
      tx_per_s: round(txs / trickle.seconds, 1),
      ticks_per_tx: round(trickle.ticks / txs, 2),
      ticks_per_tx_beyond_idle: round((trickle.ticks - idle.ticks_per_s * trickle.seconds) / txs, 2),
      bytes_per_tx: Math.round(trickle.disk_bytes / txs),
    };
    log(
      `${line('trickle', trickle)}; ${trickleOut.tx_per_s} tx/s accepted, ${trickleOut.ticks_per_tx} ticks/tx, ${trickleOut.bytes_per_tx} bytes/tx`,
    );

    const again = await measure(node, dir, () => sleep(PHASE_SECONDS * 1000));
    log(line('idle_again', again));
    Object.assign(out, { idle, trickle: trickleOut, idle_again: again });
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
