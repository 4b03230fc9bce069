/**
 * Running VDF work on the node's Piscina pool (src/pool): proofs of long segments and
 * batch verification split across the pool's threads. A split batch gives the same
 * verdict as one worker: each chunk is checked on its own (sound per chunk), and failing
 * indexes are mapped back to the caller's indexes.
 */
import type { Piscina } from 'piscina';
import { workerFile } from '../pool/index.js';
import { VdfError } from './errors.js';
import type { BatchTickError, BatchVerdict, VdfClaim, VdfTickInput } from './interface.js';
import { decodeTaskError } from './task-errors.js';

/** Below this many ticks per thread a batch is not worth splitting. */
export const MIN_TICKS_PER_TASK = 16;

/** The VDF worker module's path, resolved once (a URL parse per task was a per-tick cost). */
const VDF_WORKER = workerFile('vdf');

async function run<T>(pool: Piscina, arg: unknown, name: string, transferList?: ArrayBuffer[]): Promise<T> {
  try {
    return (await pool.run(arg, { filename: VDF_WORKER, name, transferList })) as T;
  } catch (e) {
    throw decodeTaskError(e);
  }
}

/** Wesolowski proof of a claim's (input, output, iterations) on a pool thread. */
export function proveOnPool(
  pool: Piscina,
  claim: { input: Uint8Array; output: Uint8Array; iterations: number },
): Promise<Uint8Array> {
  return run<Uint8Array>(pool, { input: claim.input, output: claim.output, iterations: claim.iterations }, 'prove');
}

/**
 * Wesolowski proof from the checkpoints an evaluator exported (VdfEvaluator.exportCheckpoints):
 * ~1/8 of the work of proveOnPool, which re-runs the segment. The worker checks the proof.
 * With `transfer`, the checkpoints' memory moves to the pool thread instead of being copied
 * (~T/8 x 256 bytes: a heartbeat's is hundreds of KiB, and copying it cost the calling
 * thread more than the rest of the tick); the caller's array is then detached (empty).
 * `true` moves only an array that spans its whole buffer (a view into a larger one is
 * copied); `'buffer'` moves the array's whole buffer whatever the view (the caller gives up
 * all of it: the clock exports into a prepared buffer a little larger than its checkpoints).
 */
export function proveFromCheckpointsOnPool(
  pool: Piscina,
  claim: { input: Uint8Array; output: Uint8Array; iterations: number },
  checkpoints: Uint8Array,
  options: { transfer?: boolean | 'buffer' } = {},
): Promise<Uint8Array> {
  const movable = checkpoints.buffer instanceof ArrayBuffer;
  const whole = checkpoints.byteOffset === 0 && checkpoints.byteLength === checkpoints.buffer.byteLength;
  const move = movable && (options.transfer === 'buffer' || (options.transfer === true && whole));
  const transferList = move ? [checkpoints.buffer as ArrayBuffer] : undefined;
  return run<Uint8Array>(
    pool,
    { input: claim.input, output: claim.output, iterations: claim.iterations, checkpoints },
    'proveFromCheckpoints',
    transferList,
  );
}

/** Evaluate and prove a whole segment on a pool thread. */
export function evaluateAndProveOnPool(pool: Piscina, input: Uint8Array, iterations: number): Promise<VdfClaim> {
  return run<VdfClaim>(pool, { input, iterations }, 'evaluateAndProve');
}

/** Verify many ticks, split across the pool's threads. */
export async function verifyBatchOnPool(
  pool: Piscina,
  ticks: VdfTickInput[],
  options: { chunks?: number } = {},
): Promise<BatchVerdict> {
  if (!Array.isArray(ticks)) throw new VdfError('BAD_TYPE', 'verifyBatchOnPool: expected an array of ticks');
  if (ticks.length === 0) return { ok: true, invalid: [] };
  const threads = Math.max(1, options.chunks ?? pool.options.maxThreads ?? pool.threads.length);
  const chunks = Math.max(1, Math.min(threads, Math.floor(ticks.length / MIN_TICKS_PER_TASK) || 1));
  const size = Math.ceil(ticks.length / chunks);
  const parts: { offset: number; ticks: VdfTickInput[] }[] = [];
  for (let off = 0; off < ticks.length; off += size) parts.push({ offset: off, ticks: ticks.slice(off, off + size) });
  const verdicts = await Promise.all(parts.map((p) => run<BatchVerdict>(pool, p.ticks, 'verifyBatch')));
  const invalid: number[] = [];
  const errors: BatchTickError[] = [];
  verdicts.forEach((v, i) => {
    for (const idx of v.invalid) invalid.push(idx + parts[i].offset);
    for (const e of v.errors ?? []) errors.push({ ...e, index: e.index + parts[i].offset });
  });
  return errors.length ? { ok: invalid.length === 0, invalid, errors } : { ok: invalid.length === 0, invalid };
}
