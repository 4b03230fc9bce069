/**
 * `npm run bench:ingest`: gRPC ingestion of the real node (`svc node`, real engine, a
 * temp LevelDB) side by side with a no-op grpc-js server of the same proto, in one run,
 * on this machine. The load generator runs in its own process (bench/support/load-gen).
 *
 *   SubmitBatch: batches of 1,000 transactions of ~200 bytes, accepted tx/s
 *   SubmitTransaction: calls/s
 *
 * A third column runs the node's own gRPC face over a no-op sequencer (bench/support/
 * frontend-server.ts): the front-end's ceiling, separating codec/transport cost from the
 * engine's (validation, hashing, write-ahead, clock). The real node runs with
 * `--intake-threads 0`; a second real node with BENCH_INTAKE_THREADS (default 1) intake
 * threads takes the same SubmitBatch load right after, and both report their main
 * thread's CPU per accepted transaction (/proc, the thread's own counter).
 *
 * Rates are medians over ROUNDS rounds; ratios are medians of the per-round ratios (each
 * round measures the targets back to back, so a ratio compares like with like on a
 * machine whose load drifts). The last line of output is one JSON object.
 * Env: BENCH_SECONDS (per measurement, default 2), BENCH_ROUNDS (default 3), BENCH_NODE_ARGS
 * (more flags for both real nodes, e.g. `--node-thread off`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestJob, IngestResult } from './support/load-gen.js';
import { benchNodeArgs, runChild, spawnNode, spawnNoopServer } from './support/processes.js';
import { threadCpuMs } from './support/cpu.js';
import { median, round } from './support/stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 1000;
/** Intake threads of the second node measured beside the first (which has none). */
const INTAKE_THREADS = Number(process.env.BENCH_INTAKE_THREADS ?? 1);

async function measure(address: string, kind: IngestJob['kind']): Promise<IngestResult> {
  const job: IngestJob =
    kind === 'batch'
      ? {
          kind,
          address,
          seconds: SECONDS,
          inFlight: 4,
          batchSize: BATCH,
          prepare: Math.ceil((250_000 * SECONDS) / BATCH),
        }
      : { kind, address, seconds: SECONDS, inFlight: 128, batchSize: 1, prepare: 20_000 * SECONDS };
  return runChild<IngestJob, IngestResult>('load-gen.js', job);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-ingest-'));
  const noop = await spawnNoopServer();
  const frontend = await spawnNoopServer('frontend-server.js');
  const node = await spawnNode(dir, ['--queue-capacity', '1000000', '--intake-threads', '0', ...benchNodeArgs()]);
  const intakeDir = await mkdtemp(join(tmpdir(), 'svc-bench-ingest-intake-'));
  const intakeNode = await spawnNode(intakeDir, [
    '--queue-capacity',
    '1000000',
    '--intake-threads',
    String(INTAKE_THREADS),
    ...benchNodeArgs(),
  ]);
  const intakeRows = {
    node: [] as number[],
    ratio: [] as number[],
    mainUs: [] as number[],
    plainMainUs: [] as number[],
  };
  const rows: Record<
    string,
    { node: number[]; noop: number[]; frontend: number[]; rejected: number[]; ratio: number[]; frontendRatio: number[] }
  > = {
    batch: { node: [], noop: [], frontend: [], rejected: [], ratio: [], frontendRatio: [] },
    unary: { node: [], noop: [], frontend: [], rejected: [], ratio: [], frontendRatio: [] },
  };
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of ['batch', 'unary'] as const) {
        const base = await measure(noop.address, kind);
        const cpu0 = threadCpuMs(node.child.pid!);
        const real = await measure(node.addresses.grpc!, kind);
        const realMainUs = ((threadCpuMs(node.child.pid!) - cpu0) * 1000) / Math.max(1, real.accepted);
        if (kind === 'batch') {
          // The same load on a node whose intake threads decode, check and hash it.
          const c0 = threadCpuMs(intakeNode.child.pid!);
          const withIntake = await measure(intakeNode.addresses.grpc!, kind);
          const mainUs = ((threadCpuMs(intakeNode.child.pid!) - c0) * 1000) / Math.max(1, withIntake.accepted);
          intakeRows.node.push(withIntake.perSecond);
          intakeRows.ratio.push(withIntake.perSecond / base.perSecond);
          intakeRows.mainUs.push(mainUs);
          intakeRows.plainMainUs.push(realMainUs);
          console.log(
            `round ${round} batch with ${INTAKE_THREADS} intake thread(s): ${Math.round(withIntake.perSecond)}/s, node main thread ${round2(mainUs)} us CPU per tx ` +
              `(without: ${round2(realMainUs)} us)`,
          );
        }
        const face = await measure(frontend.address, kind);
        rows[kind]!.frontend.push(face.perSecond);
        rows[kind]!.noop.push(base.perSecond);
        rows[kind]!.node.push(real.perSecond);
        rows[kind]!.rejected.push(real.rejected);
        rows[kind]!.ratio.push(real.perSecond / base.perSecond);
        rows[kind]!.frontendRatio.push(face.perSecond / base.perSecond);
        console.log(
          `round ${round} ${kind.padEnd(5)}: node ${Math.round(real.perSecond)}/s (${real.rejected} rejected), no-op ${Math.round(base.perSecond)}/s, ratio ${round2(real.perSecond / base.perSecond)}; ` +
            `front-end alone ${Math.round(face.perSecond)}/s (${round2(face.perSecond / base.perSecond)} of no-op)`,
        );
      }
    }
  } finally {
    node.child.kill('SIGTERM');
    intakeNode.child.kill('SIGTERM');
    await node.exited;
    await intakeNode.exited;
    await rm(intakeDir, { recursive: true, force: true });
    await noop.stop();
    await frontend.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const batchNode = median(rows.batch!.node);
  const batchNoop = median(rows.batch!.noop);
  const unaryNode = median(rows.unary!.node);
  const unaryNoop = median(rows.unary!.noop);
  const result = {
    bench: 'ingest',
    seconds_per_round: SECONDS,
    rounds: ROUNDS,
    batch_size: BATCH,
    submit_batch_tx_per_s: Math.round(batchNode),
    noop_submit_batch_tx_per_s: Math.round(batchNoop),
    submit_batch_ratio: round(median(rows.batch!.ratio), 3),
    submit_batch_rejected_median: median(rows.batch!.rejected),
    submit_transaction_calls_per_s: Math.round(unaryNode),
    noop_submit_transaction_calls_per_s: Math.round(unaryNoop),
    submit_transaction_ratio: round(median(rows.unary!.ratio), 3),
    frontend_only_submit_batch_tx_per_s: Math.round(median(rows.batch!.frontend)),
    frontend_only_submit_batch_ratio: round(median(rows.batch!.frontendRatio), 3),
    frontend_only_submit_transaction_calls_per_s: Math.round(median(rows.unary!.frontend)),
    frontend_only_submit_transaction_ratio: round(median(rows.unary!.frontendRatio), 3),
    intake_threads: INTAKE_THREADS,
    intake_submit_batch_tx_per_s: Math.round(median(intakeRows.node)),
    intake_submit_batch_ratio: round(median(intakeRows.ratio), 3),
    node_main_cpu_us_per_tx: round(median(intakeRows.plainMainUs), 2),
    intake_node_main_cpu_us_per_tx: round(median(intakeRows.mainUs), 2),
    target_batch_tx_per_s_met: batchNode >= 100_000,
    target_ratio_met: median(rows.batch!.ratio) >= 0.8 && median(rows.unary!.ratio) >= 0.8,
  };
  console.log(JSON.stringify(result));
}

function round2(n: number): number {
  return round(n, 2);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
