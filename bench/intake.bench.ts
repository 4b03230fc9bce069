/**
 * `npm run bench:intake`: the main thread's CPU per ingested transaction (issue 8 point 2,
 * target <= 3 us), in-process, on the real sequencer (clock and batcher threads, LevelDB
 * in a temp dir, one pool thread), requests of 1,000 fresh ~200-byte transactions offered
 * at BENCH_RATE tx/s (open loop: the same ticks for every way, so per-tick
 * costs spread over the same transactions), or by default (BENCH_RATE=0) closed loop with
 * BENCH_IN_FLIGHT (default 4) requests in flight (the ceiling), three ways side by side:
 *
 *   objects   submitBatch(Transaction[]): the request already decoded into objects (the
 *             issue's definition; the objects are made before the clock starts)
 *   bytes     SubmitBatch request bytes decoded on the main thread, then submitBatch:
 *             what the gRPC face does with --intake-threads 0
 *   threads   the same bytes decoded, checked and hashed on BENCH_INTAKE_THREADS intake
 *             threads (default 1) and admitted in arrival order: --intake-threads N
 *
 * Request bytes are encoded with protobufjs before the clock starts (on the wire they
 * come from the client). Main-thread CPU is the thread's own counter (/proc), so time it
 * spends descheduled does not count; "machine" adds every thread of the process.
 * Rounds alternate the ways (BENCH_WAYS, default all three; BENCH_ROUNDS, default 3,
 * BENCH_SECONDS each, default 3);
 * medians are reported. The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { openDatabase } from '../src/db/index.js';
import { createPool } from '../src/pool/index.js';
import { SEQUENCER_PROTO } from '../src/sequencer/api/client/index.js';
import { PROTO_DIR } from '../src/wire/index.js';
import { decodeSubmitBatchRequest, isMalformed } from '../src/sequencer/api/grpc/requests.js';
import { IntakeThreads } from '../src/sequencer/api/grpc/intake.js';
import { SubmitError } from '../src/sequencer/interface.js';
import { TickSequencer } from '../src/sequencer/sequencer.js';
import type { SubmitResult, Transaction } from '../src/core/types.js';
import { DEFAULT_BUSY_ITERATIONS } from '../src/vdf/index.js';
import { processCpuMs, threadCpuMs } from './support/cpu.js';
import { median, round } from './support/stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 4);
const THREADS = Number(process.env.BENCH_INTAKE_THREADS ?? 1);
/** Offered tx/s (open loop); 0: closed loop with IN_FLIGHT requests in flight. */
const RATE = Number(process.env.BENCH_RATE ?? 0);
const BATCH = 1000;
/** Requests made ahead per measurement: more than the fastest way takes in SECONDS + warm-up. */
const REQUESTS = Math.ceil(((SECONDS + 1) * 60_000) / BATCH);

type Way = 'objects' | 'bytes' | 'threads';

const root = new protobuf.Root().loadSync(join(PROTO_DIR, SEQUENCER_PROTO), { keepCase: true });
const SubmitBatchRequest = root.lookupType('svc.sequencer.v1.SubmitBatchRequest');

let counter = 0;
function transactions(): Transaction[] {
  const signature = new Uint8Array(64).fill(5);
  const publicKey = new Uint8Array(32).fill(6);
  return Array.from({ length: BATCH }, () => {
    counter++;
    const txId = `intake-${counter}`;
    const payload = new Uint8Array(Math.max(0, 200 - (txId.length + 64 + 32 + 32)));
    payload[0] = counter & 0xff;
    payload[1] = (counter >> 8) & 0xff;
    return { txId, payload, signature, publicKey, nonce: BigInt(counter), timestamp: BigInt(Date.now() * 1000) };
  });
}

function encode(txs: Transaction[]): Uint8Array {
  return SubmitBatchRequest.encode({
    transactions: txs.map((t) => ({
      tx_id: t.txId,
      payload: t.payload,
      signature: t.signature,
      public_key: t.publicKey,
      nonce: t.nonce.toString(),
      timestamp: t.timestamp.toString(),
    })),
  }).finish();
}

interface Result {
  way: Way;
  acked_tx_s: number;
  main_cpu_us_per_tx: number;
  process_cpu_us_per_tx: number;
}

async function measure(way: Way): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-intake-'));
  const db = await openDatabase(dir);
  const pool = createPool({ threads: 1 });
  const seq = new TickSequencer({
    db,
    pool,
    retainTicks: 100_000,
    vdfIterations: DEFAULT_BUSY_ITERATIONS,
    idleTickMs: 100,
    queueCapacity: 10_000_000,
  });
  const intake = way === 'threads' ? new IntakeThreads(THREADS) : undefined;
  await seq.start();
  const objects: Transaction[][] = [];
  const bytes: Uint8Array[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const txs = transactions();
    if (way === 'objects') objects.push(txs);
    else bytes.push(encode(txs));
  }
  let next = 0;
  const submit = (): Promise<Array<SubmitResult | SubmitError>> => {
    const i = next++;
    if (way === 'objects') return seq.submitBatch(objects[i]!);
    if (way === 'bytes') {
      const req = decodeSubmitBatchRequest(bytes[i]!, 10_000);
      if (isMalformed(req)) throw new Error(req.malformed);
      return seq.submitBatch(req.transactions);
    }
    return seq.submitPrepared(intake!.prepareSubmitBatch(bytes[i]!));
  };
  const warmEnd = performance.now() + 1000;
  const end = warmEnd + SECONDS * 1000;
  let acked = 0;
  let at: { t: number; acked: number; main: number; all: number } | undefined;
  const mark = (): void => {
    if (!at && performance.now() >= warmEnd)
      at = { t: performance.now(), acked, main: threadCpuMs(), all: processCpuMs() };
  };
  const count = (rs: Array<SubmitResult | SubmitError>): void => {
    for (const r of rs) if (!(r instanceof SubmitError)) acked++;
  };
  if (RATE > 0) {
    // Open loop: one request every BATCH / RATE seconds, answers not awaited.
    const period = (BATCH / RATE) * 1000;
    const t0 = performance.now();
    const pending: Array<Promise<void>> = [];
    while (performance.now() < end && next < REQUESTS) {
      mark();
      const due = t0 + next * period;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(submit().then(count));
    }
    await Promise.all(pending);
  } else {
    const loop = async (): Promise<void> => {
      while (performance.now() < end && next < REQUESTS) {
        mark();
        count(await submit());
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, loop));
  }
  if (!at) throw new Error('the warm-up used every prepared request: raise REQUESTS');
  if (next >= REQUESTS) console.warn(`${way}: ran out of prepared requests before the end of the window`);
  const seconds = (performance.now() - at.t) / 1000;
  const n = acked - at.acked;
  const main = threadCpuMs() - at.main;
  const all = processCpuMs() - at.all;
  await seq.stop();
  await intake?.close();
  await db.close();
  await pool.destroy();
  rmSync(dir, { recursive: true, force: true });
  return {
    way,
    acked_tx_s: Math.round(n / seconds),
    main_cpu_us_per_tx: round((main * 1000) / n, 2),
    process_cpu_us_per_tx: round((all * 1000) / n, 2),
  };
}

const ways = (process.env.BENCH_WAYS ?? 'objects,bytes,threads').split(',') as Way[];
const runs: Record<Way, Result[]> = { objects: [], bytes: [], threads: [] };
const load0 = loadavg();
for (let r = 1; r <= ROUNDS; r++) {
  for (const way of ways) {
    const res = await measure(way);
    runs[way].push(res);
    console.log(
      `round ${r} ${way.padEnd(7)}: ${res.acked_tx_s} tx/s acked, main thread ${res.main_cpu_us_per_tx} us CPU per tx, whole process ${res.process_cpu_us_per_tx} us`,
    );
  }
}
const summary = Object.fromEntries(
  ways.map((w) => [
    w,
    {
      acked_tx_s: Math.round(median(runs[w].map((x) => x.acked_tx_s))),
      main_cpu_us_per_tx: round(median(runs[w].map((x) => x.main_cpu_us_per_tx)), 2),
      process_cpu_us_per_tx: round(median(runs[w].map((x) => x.process_cpu_us_per_tx)), 2),
    },
  ]),
);
for (const w of ways) console.log(`median ${w.padEnd(7)}: ${JSON.stringify(summary[w])}`);
console.log(
  JSON.stringify({
    bench: 'intake',
    cores: availableParallelism(),
    intake_threads: THREADS,
    rate: RATE,
    in_flight: RATE > 0 ? undefined : IN_FLIGHT,
    batch: BATCH,
    seconds: SECONDS,
    rounds: ROUNDS,
    loadavg_start: load0.map((x) => round(x, 2)),
    loadavg_end: loadavg().map((x) => round(x, 2)),
    ...summary,
    target_main_cpu_us_per_tx: 3,
  }),
);
