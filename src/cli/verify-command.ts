/**
 * `svc verify --from A --to B`: fetch ticks A..B from a node (StreamTicks: stored ticks at
 * the client's pace) and check each: its VDF proof (verifyBatchOnPool on all cores), its
 * chaining (checkChain: genesis for tick 1, previous_output, no holes) and its transactions'
 * hashes and batch hash (tick-check.ts). Chunks of ticks are verified while the next ones
 * arrive; verdicts are taken in tick order, so the tick named on failure is the first bad
 * one. Exit 0 when every tick checks out, 1 naming the first bad tick.
 */
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { createPool } from '../pool/index.js';
import { checkChain, verifyBatchOnPool, type VdfTickInput } from '../vdf/index.js';
import { formatDuration } from '../log/index.js';
import { single } from './command.js';
import { explain, GRPC_URL_OPTION, nodeClient, type NodeClient, type WireTick } from './grpc.js';
import { CommandFailure, optional, UsageError, wholeNumber } from './options.js';
import { createProgressBar, type ProgressBar } from './progress-bar.js';
import { checkBatchHash, tickInputOf, type TickFailure } from './tick-check.js';

/** Ticks per pool round; verifyBatchOnPool splits a round across the threads. */
const CHUNK_TICKS = 512;

interface Chunk {
  ticks: VdfTickInput[];
  /** Failures found on arrival (unreadable tick, transaction or batch hash, wrong number). */
  failures: TickFailure[];
  /** The tick before this chunk's first, for the chaining of the first. */
  before?: VdfTickInput;
  verdict?: Promise<TickFailure[]>;
  transactions: number;
}

/** Every failure of a chunk: on arrival, chaining, proofs. */
async function judge(pool: Piscina, chunk: Chunk): Promise<TickFailure[]> {
  const failures = [...chunk.failures];
  const linked = chunk.before ? [chunk.before, ...chunk.ticks] : chunk.ticks;
  const shift = chunk.before ? 1 : 0;
  const chain = checkChain(linked);
  for (const f of [...chain.broken, ...chain.gaps])
    if (f.index >= shift) failures.push({ tickNumber: f.tickNumber, code: f.code, message: f.message });
  const proofs = await verifyBatchOnPool(pool, chunk.ticks);
  for (const i of proofs.invalid) {
    const e = proofs.errors?.find((x) => x.index === i);
    failures.push({
      tickNumber: chunk.ticks[i]!.tickNumber,
      code: e?.code ?? 'INVALID_PROOF',
      message: e?.message ?? 'the VDF proof does not verify',
    });
  }
  return failures;
}

const first = (fs: TickFailure[]): TickFailure | undefined =>
  fs.reduce<TickFailure | undefined>((a, f) => (!a || f.tickNumber < a.tickNumber ? f : a), undefined);

interface Outcome {
  verified: number;
  transactions: number;
  bad?: TickFailure;
}

/**
 * Stream ticks from..to and check them: each tick on arrival (tick-check.ts), each chunk of
 * CHUNK_TICKS on the pool (judge), at most `threads` chunks in flight (the stream pauses
 * beyond). Verdicts are taken in tick order; the first chunk with a failure ends it.
 */
function verifyRange(
  client: NodeClient,
  pool: Piscina,
  range: { from: number; to: number; threads: number },
  bar: ProgressBar | undefined,
): Promise<Outcome> {
  const { from, to, threads } = range;
  const total = to - from + 1;
  return new Promise<Outcome>((resolve, reject) => {
    const stream = client.streamTicks(from);
    const queue: Chunk[] = [];
    let current: Chunk = { ticks: [], failures: [], transactions: 0 };
    let expected = from;
    let verified = 0;
    let transactions = 0;
    let settled = false;
    const finish = (bad?: TickFailure): void => {
      if (settled) return;
      settled = true;
      stream.cancel();
      resolve({ verified, transactions, ...(bad ? { bad } : {}) });
    };
    // Take verdicts in order; stop at the first chunk with a failure.
    const drain = async (): Promise<void> => {
      while (queue.length && !settled) {
        const head = queue[0]!;
        const failures = await head.verdict!;
        if (settled) return;
        const bad = first(failures);
        if (bad) {
          verified = bad.tickNumber - from;
          return finish(bad);
        }
        queue.shift();
        verified += head.ticks.length;
        transactions += head.transactions;
        bar?.update(verified);
        if (verified === total) return finish();
        if (queue.length < threads) stream.resume();
      }
    };
    let draining: Promise<void> = Promise.resolve();
    const dispatch = (): void => {
      const chunk = current;
      const last = chunk.ticks.at(-1) ?? chunk.before;
      current = { ticks: [], failures: [], transactions: 0, ...(last ? { before: last } : {}) };
      chunk.verdict = judge(pool, chunk);
      chunk.verdict.catch(() => undefined);
      queue.push(chunk);
      if (queue.length >= threads) stream.pause();
      draining = draining.then(drain).catch((err: unknown) => {
        if (!settled) {
          settled = true;
          stream.cancel();
          reject(err);
        }
      });
    };
    stream.on('data', (t: WireTick) => {
      if (settled || expected > to) return;
      const n = Number(t.tick_number);
      if (n !== expected) {
        current.failures.push({
          tickNumber: expected,
          code: 'MISSING_TICK',
          message: `the node sent tick ${n} where tick ${expected} was due`,
        });
      } else {
        const input = tickInputOf(t);
        if ('claim' in input) current.ticks.push(input);
        else current.failures.push(input);
        const batch = checkBatchHash(t);
        if (batch) current.failures.push(batch);
        current.transactions += t.transactions.length;
      }
      expected = n + 1;
      if (current.ticks.length >= CHUNK_TICKS || current.failures.length > 0 || expected > to) dispatch();
    });
    stream.on('error', (err: Error & { code?: number }) => {
      if (settled) return;
      settled = true;
      reject('details' in err ? explain(err as Parameters<typeof explain>[0], client.target) : err);
    });
    stream.on('end', () => {
      if (!settled && expected <= to) {
        current.failures.push({
          tickNumber: expected,
          code: 'MISSING_TICK',
          message: `the node ended the stream before tick ${expected}`,
        });
        dispatch();
      }
    });
  });
}

/** Prints the outcome (one line, or JSON with --json) and returns the exit code; a bad tick without --json is a CommandFailure naming it. */
function report(
  outcome: Outcome,
  o: { from: number; to: number; threads: number; seconds: number; json: boolean },
): number {
  const { verified, transactions, bad } = outcome;
  const { from, to, threads, seconds } = o;
  const rate = verified / Math.max(seconds, 1e-9);
  const linkNote =
    from === 1 ? 'chained from genesis' : `chained from tick ${from} (its link to tick ${from - 1} is not checked)`;
  if (o.json) {
    console.log(
      JSON.stringify({
        ok: !bad,
        from,
        to,
        verified,
        transactions,
        seconds: Number(seconds.toFixed(3)),
        ticks_per_second: Math.round(rate),
        threads,
        ...(bad ? { first_bad: { tick: bad.tickNumber, code: bad.code, message: bad.message } } : {}),
      }),
    );
    return bad ? 1 : 0;
  }
  if (bad) {
    const before = bad.tickNumber > from ? `ticks ${from}..${bad.tickNumber - 1} verified; ` : '';
    throw new CommandFailure(`${before}tick ${bad.tickNumber} is bad: ${bad.code}: ${bad.message}`);
  }
  console.log(
    `verified ticks ${from}..${to} (${verified} ticks, ${transactions} transactions): VDF proofs, batch hashes, ${linkNote}. ` +
      `${formatDuration(seconds)}, ${Math.round(rate)} ticks/s on ${threads} thread${threads === 1 ? '' : 's'}`,
  );
  return 0;
}

export default single({
  spec: {
    name: 'verify',
    summary: 'fetch a range of ticks and verify their VDF proofs, chaining and batch hashes on all cores',
    usage: '[options]',
    description:
      'Fetches ticks A..B from the node over gRPC and checks, for each: the Wesolowski proof of its VDF\n' +
      'claim, that its previous_output is the output of the tick before (tick 1: the genesis output),\n' +
      "and that its transaction_batch_hash is the Merkle root of its transactions' hashes. Proofs are\n" +
      'checked in batches on a worker pool. Shows a progress bar on a terminal (plain lines otherwise).\n' +
      'Exits 0 when every tick checks out, 1 naming the first bad tick. Starting after tick 1, the\n' +
      "first tick's link to the one before it is not checked (nothing before it was verified).",
    options: [
      { name: 'from', type: 'string', value: 'A', help: 'first tick', default: '1' },
      { name: 'to', type: 'string', value: 'B', help: 'last tick', defaultHelp: "the node's latest tick" },
      {
        name: 'threads',
        type: 'string',
        value: 'N',
        help: 'worker threads for the proofs',
        defaultHelp: `all cores, ${availableParallelism()} here`,
      },
      { name: 'json', type: 'boolean', help: 'print the outcome as JSON (progress still goes to stderr)' },
      { name: 'quiet', short: 'q', type: 'boolean', help: 'no progress output' },
      GRPC_URL_OPTION,
    ],
    examples: ['svc verify', 'svc verify --from 1000 --to 2000 --grpc-url 10.0.0.5:9090'],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const from = wholeNumber(optional(v, 'from')!, '--from', 1);
    const threads =
      optional(v, 'threads') === undefined
        ? availableParallelism()
        : wholeNumber(optional(v, 'threads')!, '--threads', 1, 1024);
    const client = nodeClient(optional(v, 'grpc-url')!);
    const started = performance.now();
    let pool: Piscina | undefined;
    try {
      const height = Number((await client.status()).current_tick);
      const to = optional(v, 'to') === undefined ? height : wholeNumber(optional(v, 'to')!, '--to', 1);
      if (to < from) throw new UsageError(`--to ${to} is before --from ${from}`);
      if (to > height) throw new CommandFailure(`tick ${to} does not exist yet: ${client.target} is at tick ${height}`);
      pool = createPool({ threads });
      const bar = v.quiet
        ? undefined
        : createProgressBar({ out: process.stderr, label: 'verifying', unit: 'ticks', total: to - from + 1 });
      const outcome = await verifyRange(client, pool, { from, to, threads }, bar);
      bar?.finish();
      return report(outcome, {
        from,
        to,
        threads,
        seconds: (performance.now() - started) / 1000,
        json: Boolean(v.json),
      });
    } finally {
      client.close();
      await pool?.destroy();
    }
  },
});
