/**
 * `npm run bench:chain-write`: what the chain's per-tick LevelDB write costs the thread that
 * applies the ticks (docs/benchmarks.md "Chain node, explorer and full node"). A recorded
 * flow (bench:chain's, fixed seed) goes through the node's chain runtime in process: the
 * order book engine, the Chain with its owner log (live channels) and order proof records,
 * into a fresh LevelDB, until every record is stored. Two figures, main-thread CPU per
 * transaction from the thread's own counter (/proc schedstat, ns), medians of the rounds:
 *
 *   pipeline  the whole run (engine, builder, JSON, the records' operations, their batches)
 *   batch     the chain's batches alone: every batch the pipeline wrote, captured in a
 *             first run, written again in order into that run's LevelDB (db.batch and its
 *             await: abstract-level's per-operation work, classic-level copying the keys
 *             and values into its WriteBatch)
 *   former    the same batches as the sublevel operations the chain wrote before its puts
 *             carried the prefixes (issue 25 point 2), alternated with `batch` in each round
 *   floor     the same batches straight to classic-level's own batch (`_batch`, the private
 *             call under db.batch: no abstract-level work at all), what any form of the
 *             operations costs at least; a measurement only, never how the node writes
 *
 * Compare builds (the pipeline) by alternating runs of this script (its figures move with
 * the machine's load; the last line is one JSON object). Signatures are marked checked. Env:
 * CHAIN_WRITE_TICKS (8000), CHAIN_WRITE_PER_TICK (5), CHAIN_WRITE_ROUNDS (3).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openChainRuntime } from '../src/chain/runtime.js';
import type { Tick } from '../src/core/types.js';
import { openDatabase, type Database } from '../src/db/index.js';
import { TickApplier } from '../src/dex/applier.js';
import { recordedTicks } from '../test/chain/support/flow.js';
import { NodeChannels } from '../src/node/channels.js';
import { recordedFlow } from './chain-build.js';
import { threadCpuNs } from './support/cpu.js';
import { median, round } from './support/stats.js';

const TICKS = Number(process.env.CHAIN_WRITE_TICKS ?? 8000);
const PER_TICK = Number(process.env.CHAIN_WRITE_PER_TICK ?? 5);
const ROUNDS = Number(process.env.CHAIN_WRITE_ROUNDS ?? 3);
const log = (msg: string) => process.stderr.write(`${msg}\n`);

/** One batch's operations as the chain hands them to db.batch (sublevel or prefixed puts). */
type Batch = object[];
type BatchFn = (this: Database, operations: Batch) => Promise<void>;

interface PipelineRun {
  cpuNs: number;
}

/**
 * The flow through the node's chain runtime into `db` (fresh); with `captured`, every batch
 * written is kept there (they name the database's own sublevels: write them to it again).
 */
async function runPipeline(db: Database, ticks: Tick[], captured?: Batch[]): Promise<PipelineRun> {
  if (captured) {
    const write = db.batch as unknown as BatchFn;
    (db as { batch: unknown }).batch = function (this: Database, operations: Batch) {
      captured.push(operations);
      return write.call(this, operations);
    };
  }
  const rt = await openChainRuntime({
    db,
    blockMs: 200,
    snapshotTxs: 1e12,
    snapshotTicks: 1e12,
    parts: [new NodeChannels(db)],
  });
  const source = recordedTicks(ticks);
  const applier = new TickApplier(
    source,
    rt.book.engine,
    { verifyMany: async (items) => items.map(() => true) },
    { throttle: rt.book.throttle, rootBefore: rt.book.rootBefore },
  );
  for (const c of rt.book.consumers) applier.onApplied(c);
  const c0 = threadCpuNs();
  await applier.start();
  await rt.chain.flushed();
  const cpuNs = threadCpuNs() - c0;
  await applier.stop();
  await rt.close();
  if (captured) delete (db as { batch?: unknown }).batch; // the prototype's again
  return { cpuNs };
}

/** A fresh LevelDB in a temporary directory, removed after `use`. */
async function withDatabase<T>(use: (db: Database) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-chain-write-'));
  const db = await openDatabase(dir);
  try {
    return await use(db);
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The captured batches written again, in order, into the database they were captured from; main-thread CPU ns. */
async function runBatches(db: Database, batches: Batch[]): Promise<number> {
  const c0 = threadCpuNs();
  const write = db.batch as unknown as BatchFn;
  for (const b of batches) await write.call(db, b);
  return threadCpuNs() - c0;
}

/** The captured batches (prefixed puts) through classic-level's private batch call; main-thread CPU ns. */
async function runFloor(db: Database, batches: Batch[]): Promise<number> {
  const floor = (db as unknown as { _batch: (ops: object[], options: object) => Promise<void> })._batch;
  const c0 = threadCpuNs();
  for (const b of batches) await floor.call(db, b, {});
  return threadCpuNs() - c0;
}

/**
 * The batches' puts as sublevel operations `{ type: 'put', sublevel, key, value }` (the
 * prefix taken off the key, the sublevel of that name with the put's value encoding);
 * operations that already name their sublevel stay as they are.
 */
function formerBatches(db: Database, batches: Batch[]): Batch[] {
  const sublevels = new Map<string, unknown>();
  const sublevelOf = (name: string, valueEncoding: 'utf8' | 'view'): unknown => {
    const id = `${name}/${valueEncoding}`;
    let s = sublevels.get(id);
    if (s === undefined) sublevels.set(id, (s = db.sublevel(name, { keyEncoding: 'utf8', valueEncoding })));
    return s;
  };
  return batches.map((ops) =>
    ops.map((o) => {
      const op = o as { sublevel?: unknown; key: string; value: unknown; valueEncoding: 'utf8' | 'view' };
      if (op.sublevel !== undefined) return op;
      const name = op.key.slice(1, op.key.indexOf('!', 1));
      const sublevel = sublevelOf(name, op.valueEncoding);
      return { type: 'put', sublevel, key: op.key.slice(name.length + 2), value: op.value };
    }),
  );
}

async function main(): Promise<void> {
  const flow = recordedFlow(TICKS, PER_TICK);
  const load0 = loadavg()[0]!;
  log(
    `chain-write: ${TICKS} ticks, ${flow.transactions} transactions (${flow.orders} orders); load ${load0.toFixed(1)}`,
  );
  const batches: Batch[] = [];
  const pipeline: number[] = [];
  const batch: number[] = [];
  const former: number[] = [];
  const floor: number[] = [];
  await withDatabase(async (db) => {
    await runPipeline(db, flow.ticks, batches); // also the warm-up
    const asFormer = formerBatches(db, batches);
    const prefixed = batches.every((ops) => ops.every((op) => !('sublevel' in op)));
    for (let r = 0; r < ROUNDS; r++) {
      pipeline.push(await withDatabase(async (fresh) => (await runPipeline(fresh, flow.ticks)).cpuNs));
      if (r % 2 === 0) {
        batch.push(await runBatches(db, batches));
        former.push(await runBatches(db, asFormer));
      } else {
        former.push(await runBatches(db, asFormer));
        batch.push(await runBatches(db, batches));
      }
      // Only prefixed puts go to the floor (a sublevel operation there would lose its prefix).
      if (prefixed) floor.push(await runFloor(db, batches));
      const us = [pipeline[r]!, batch[r]!, former[r]!].map(usPerTx);
      log(`round ${r + 1}: pipeline ${us[0]} µs/tx, batch ${us[1]} µs/tx, former ${us[2]} µs/tx`);
    }
  });
  const ops = batches.reduce((n, b) => n + b.length, 0);
  function usPerTx(ns: number): number {
    return round(ns / 1000 / flow.transactions, 2);
  }
  const out = {
    ticks: TICKS,
    transactions: flow.transactions,
    batches: batches.length,
    ops_per_tx: round(ops / flow.transactions, 2),
    pipeline_cpu_us_per_tx: usPerTx(median(pipeline)),
    batch_cpu_us_per_tx: usPerTx(median(batch)),
    batch_cpu_ns_per_op: Math.round(median(batch) / ops),
    former_batch_cpu_us_per_tx: usPerTx(median(former)),
    former_batch_cpu_ns_per_op: Math.round(median(former) / ops),
    floor_batch_cpu_ns_per_op: floor.length > 0 ? Math.round(median(floor) / ops) : null,
    rounds: {
      pipeline: pipeline.map(usPerTx),
      batch: batch.map(usPerTx),
      former: former.map(usPerTx),
      floor: floor.map(usPerTx),
    },
    load_avg: [load0, loadavg()[0]!].map((x) => round(x, 1)),
  };
  console.log(JSON.stringify(out));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
