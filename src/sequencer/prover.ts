/**
 * Wesolowski proofs for long segments (heartbeats, ticks lengthened by a full tick
 * ring), computed on the node's worker pool so neither the clock nor the main thread
 * stalls: src/vdf's `proveOnPool` (the `prove` task of workers/vdf.worker.js). The
 * result is checked for shape before it goes into a stored tick. A segment's checkpoints
 * (the clock's, handed over once) move to the pool thread rather than being copied: the
 * copy was the largest fixed cost of a cut heartbeat on the main thread (issue 25).
 */
import type { Piscina } from 'piscina';
import { proveFromCheckpointsOnPool, proveOnPool } from '../vdf/index.js';

export interface ProofTask {
  input: Uint8Array;
  output: Uint8Array;
  iterations: number;
  /** The clock's checkpoints of the segment, when it kept them: ~1/8 of the work. Moved to the pool (detached here). */
  checkpoints?: Uint8Array;
}

export type Prover = (task: ProofTask) => Promise<Uint8Array>;

export function poolProver(pool: Piscina): Prover {
  return async (task) => {
    const claim = { input: task.input, output: task.output, iterations: task.iterations };
    const result: unknown = task.checkpoints
      ? await proveFromCheckpointsOnPool(pool, claim, task.checkpoints, { transfer: 'buffer' })
      : await proveOnPool(pool, claim);
    if (result instanceof Uint8Array && result.length === 256) return result;
    throw new Error('the pool returned a malformed VDF proof');
  };
}
