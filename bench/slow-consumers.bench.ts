/**
 * `npm run bench:slow-consumers`: what StreamTicks clients that do not read cost the node
 * (issue 11 point 4, docs/api.md "Stream backpressure policy"), in two parts.
 *
 * Part 1, in process (precise, machine-independent): the node's gRPC face over the test
 * double sequencer (test/support/fake-sequencer.ts: ticks only when told), empty ticks
 * (~2.2 KB encoded) closed one per event-loop turn; the CPU of this process per
 * tick with no streams, with STREAMS paused streams and with one reading stream (clients in
 * their own process). The difference to `none` is what the streams cost per tick.
 *
 * Part 2, the real node (`svc node`, temp LevelDB) ingesting SubmitBatch load
 * (bench/support/load-gen, closed loop, its own process) in four scenarios, alternated in
 * rounds (after one warm-up measurement) so that each ratio compares measurements taken back
 * to back on a machine whose load drifts:
 *
 *   none        no tick streams
 *   paused-0    STREAMS streams from start_tick 0 that never read (bench/support/stream-clients,
 *               own process, one connection each, grpc-js's default 64 KiB receive window)
 *   paused-1    the same from start_tick 1 (replay from the first tick)
 *   reading-1   one stream that reads every tick (the cost of a live follower, for reference)
 *
 * For each: accepted tx/s, the CPU time of the node's main thread per accepted transaction
 * (/proc/<pid>/task/<pid>/stat: the main thread alone, not the clock worker that squares
 * without pause; machine-independent enough to compare on a loaded box, unlike tx/s), and the
 * node's RSS and svc_stream_clients at the end (from /metrics). Each round runs `none` first and
 * last and compares every scenario with the mean of the two (the node grows through the run, so
 * one `none` taken first would favour it); ratios are medians of those per-round ratios. Linux only (/proc). Last line: one JSON object.
 * Env: BENCH_SECONDS (per measurement, default 4), BENCH_ROUNDS (default 3), BENCH_STREAMS (default 50),
 * BENCH_TICKS (part 1, ticks per measurement, default 10000), BENCH_FACE_ROUNDS (part 1, default 5), BENCH_PART (1 or 2: only that part).
 */
import { execSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '../src/log/index.js';
import { startGrpcFace, type GrpcFace } from '../src/sequencer/api/grpc/server.js';
import { FakeSequencer } from '../test/support/fake-sequencer.js';
import type { IngestJob, IngestResult } from './support/load-gen.js';
import { runChild, spawnNode } from './support/processes.js';
import type { StreamClientsJob, StreamClientsResult } from './support/stream-clients.js';
import { median, round } from './support/stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 50);
const BATCH = 1000;
const TICKS = Number(process.env.BENCH_TICKS ?? 10_000);
const FACE_ROUNDS = Number(process.env.BENCH_FACE_ROUNDS ?? 5);

type Scenario = 'none' | 'paused-0' | 'paused-1' | 'reading-1';
const SCENARIOS: Scenario[] = ['none', 'paused-0', 'paused-1', 'reading-1'];

interface Holder {
  stop(): Promise<StreamClientsResult>;
}

/** Open the scenario's streams in a child process; resolves once they are all open. */
function holdStreams(job: StreamClientsJob): Promise<Holder> {
  const child = fork(fileURLToPath(new URL('./support/stream-clients.js', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { ready?: boolean; error?: string }) => {
      if (m.error) return reject(new Error(m.error));
      resolve({
        stop: () =>
          new Promise<StreamClientsResult>((done, fail) => {
            child.once('message', (r: { result?: StreamClientsResult; error?: string }) =>
              r.result ? done(r.result) : fail(new Error(r.error)),
            );
            child.send('stop');
          }),
      });
    });
    child.once('exit', (code) => code !== 0 && reject(new Error(`stream-clients exited with ${code}`)));
    child.send(job);
  });
}

const CLOCK_TICKS_PER_S = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

/** CPU seconds (user + system) of a process's main thread so far. */
function mainThreadCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S; // utime (14), stime (15)
}

async function metric(restAddress: string, name: string): Promise<number> {
  const text = await (await fetch(`http://${restAddress}/metrics`)).text();
  const m = new RegExp(`^${name} ([0-9.e+]+)`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}

interface FaceCost {
  cpu_us_per_tick: number; // median over rounds
  extra_us_per_tick: number; // median over rounds of (this - none) measured back to back
  encoded_ticks?: number; // by the face's shared window during one measurement (median)
}

/** Part 1, one measurement: CPU of this process per tick closed, with the given streams open on an in-process face. */
async function faceCostOnce(
  scenario: 'none' | 'paused-0' | 'reading-1',
): Promise<{ perTick: number; encoded: number; received?: number }> {
  const fake = new FakeSequencer({ queueCapacity: 10_000_000 });
  const face: GrpcFace & { feed?: { encodedCount: number } } = await startGrpcFace(
    fake,
    { host: '127.0.0.1', port: 0 },
    { logger: silentLogger(), shutdownGraceMs: 200 },
  );
  const closeTick = async () => {
    fake.closeTick(); // an empty tick: the double's own work stays small next to what streams cost
    await new Promise((r) => setImmediate(r));
  };
  for (let i = 0; i < 200; i++) await closeTick();
  let holder: Holder | undefined;
  if (scenario !== 'none') {
    const mode = scenario === 'paused-0' ? 'paused' : 'reading';
    holder = await holdStreams({ address: face.address, count: mode === 'paused' ? STREAMS : 1, startTick: 0, mode });
  }
  for (let i = 0; i < 500; i++) await closeTick(); // warm-up; paused streams fill their windows and stall
  await new Promise((r) => setTimeout(r, 200));
  const encoded0 = face.feed?.encodedCount ?? NaN;
  const t0 = process.cpuUsage();
  for (let i = 0; i < TICKS; i++) await closeTick();
  const d = process.cpuUsage(t0);
  const encoded = (face.feed?.encodedCount ?? NaN) - encoded0;
  const held = await holder?.stop();
  await face.close();
  return { perTick: (d.user + d.system) / TICKS, encoded, ...(held ? { received: held.received } : {}) };
}

/** Part 1: rounds of none / paused / reading back to back; medians. */
async function faceCost(): Promise<Record<string, FaceCost>> {
  const rows: Record<string, { perTick: number[]; extra: number[]; encoded: number[] }> = {};
  for (let r = 1; r <= FACE_ROUNDS; r++) {
    let base = NaN;
    for (const scenario of ['none', 'paused-0', 'reading-1'] as const) {
      const m = await faceCostOnce(scenario);
      if (scenario === 'none') base = m.perTick;
      const row = (rows[scenario] ??= { perTick: [], extra: [], encoded: [] });
      row.perTick.push(m.perTick);
      row.extra.push(m.perTick - base);
      row.encoded.push(m.encoded);
      console.log(
        `round ${r} in process ${scenario.padEnd(9)}: ${round(m.perTick, 2)} us CPU per tick (${round(m.perTick - base, 2)} over none)` +
          `${Number.isNaN(m.encoded) ? '' : `, ${m.encoded} of ${TICKS} ticks encoded`}${m.received !== undefined ? `, clients received ${m.received} ticks` : ''}`,
      );
    }
  }
  return Object.fromEntries(
    Object.entries(rows).map(([k, row]) => [
      k,
      {
        cpu_us_per_tick: round(median(row.perTick), 2),
        extra_us_per_tick: round(median(row.extra), 2),
        ...(row.encoded.some(Number.isNaN) ? {} : { encoded_ticks: median(row.encoded) }),
      },
    ]),
  );
}

async function main(): Promise<void> {
  const face = process.env.BENCH_PART === '2' ? {} : await faceCost();
  if (process.env.BENCH_PART === '1')
    return void console.log(
      JSON.stringify({ bench: 'slow-consumers', in_process: { ticks: TICKS, rounds: FACE_ROUNDS, ...face } }),
    );
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-slow-'));
  // Paused streams must stay open through a whole measurement (the load generator prepares its
  // requests first, which can take a while on a loaded machine): no stall resets here.
  const node = await spawnNode(dir, ['--queue-capacity', '1000000', '--stream-stall-ms', '3600000']);
  const grpcAddr = node.addresses.grpc!;
  const rest = node.addresses.rest!;
  const pid = node.child.pid!;
  const rows = Object.fromEntries(
    SCENARIOS.map((s) => [
      s,
      {
        rate: [] as number[],
        ratio: [] as number[],
        cpuUs: [] as number[],
        cpuRatio: [] as number[],
        rssMb: [] as number[],
        streams: [] as number[],
      },
    ]),
  );
  const errors = new Set<string>();
  try {
    // Warm-up (JIT, LevelDB), not counted.
    await runChild<IngestJob, IngestResult>('load-gen.js', {
      kind: 'batch',
      address: grpcAddr,
      seconds: SECONDS,
      inFlight: 4,
      batchSize: BATCH,
      prepare: Math.ceil((250_000 * SECONDS) / BATCH),
    });
    for (let round_ = 1; round_ <= ROUNDS; round_++) {
      // Each round is bracketed by two `none` runs and the scenarios are compared with their
      // mean: the node's memory and stores grow through the run, so a single `none` taken
      // first would bias every later scenario down.
      const measured: {
        scenario: Scenario;
        rate: number;
        cpuUs: number;
        rssMb: number;
        streams: number;
        received?: number;
      }[] = [];
      for (const scenario of [...SCENARIOS, 'none'] as Scenario[]) {
        let holder: Holder | undefined;
        if (scenario !== 'none') {
          const [mode, start] = scenario.split('-') as ['paused' | 'reading', string];
          holder = await holdStreams({
            address: grpcAddr,
            count: mode === 'paused' ? STREAMS : 1,
            startTick: Number(start),
            mode,
          });
          await new Promise((r) => setTimeout(r, 1000)); // paused streams fill their windows and stall
        }
        const job: IngestJob = {
          kind: 'batch',
          address: grpcAddr,
          seconds: SECONDS,
          inFlight: 4,
          batchSize: BATCH,
          prepare: Math.ceil((250_000 * SECONDS) / BATCH),
        };
        const cpu0 = mainThreadCpuSeconds(pid);
        const r = await runChild<IngestJob, IngestResult>('load-gen.js', job);
        const cpuUs = ((mainThreadCpuSeconds(pid) - cpu0) * 1e6) / Math.max(1, r.accepted);
        const streams = await metric(rest, 'svc_stream_clients');
        const rssMb = (await metric(rest, 'process_resident_memory_bytes')) / 1e6;
        const held = await holder?.stop();
        for (const e of held?.errors ?? []) errors.add(e);
        measured.push({ scenario, rate: r.perSecond, cpuUs, rssMb, streams, received: held?.received });
        await new Promise((r) => setTimeout(r, 500));
      }
      const nones = measured.filter((m) => m.scenario === 'none');
      const base = nones.reduce((a, m) => a + m.rate, 0) / nones.length;
      const baseCpu = nones.reduce((a, m) => a + m.cpuUs, 0) / nones.length;
      for (const m of measured) {
        const row = rows[m.scenario]!;
        row.rate.push(m.rate);
        row.ratio.push(m.rate / base);
        row.cpuUs.push(m.cpuUs);
        row.cpuRatio.push(m.cpuUs / baseCpu);
        row.rssMb.push(m.rssMb);
        row.streams.push(m.streams);
        console.log(
          `round ${round_} ${m.scenario.padEnd(9)}: ${Math.round(m.rate)} tx/s (${round(m.rate / base, 3)} of the mean none), ` +
            `main thread ${round(m.cpuUs, 2)} us CPU/tx (${round(m.cpuUs / baseCpu, 3)} of none), ` +
            `RSS ${Math.round(m.rssMb)} MB, svc_stream_clients ${m.streams}${m.received !== undefined ? `, reading stream got ${m.received} ticks` : ''}`,
        );
      }
    }
  } finally {
    node.child.kill('SIGTERM');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  }
  const out: Record<string, unknown> = {
    bench: 'slow-consumers',
    in_process: { ticks: TICKS, rounds: FACE_ROUNDS, ...face },
    seconds: SECONDS,
    rounds: ROUNDS,
    paused_streams: STREAMS,
    batch_size: BATCH,
  };
  for (const s of SCENARIOS) {
    const row = rows[s]!;
    out[s] = {
      tx_per_s: Math.round(median(row.rate)),
      ratio_to_none: round(median(row.ratio), 3),
      main_thread_cpu_us_per_tx: round(median(row.cpuUs), 2),
      cpu_ratio_to_none: round(median(row.cpuRatio), 3),
      rss_mb: Math.round(median(row.rssMb)),
      stream_clients: median(row.streams),
    };
  }
  if (errors.size > 0) out.stream_errors = [...errors];
  console.log(JSON.stringify(out));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
