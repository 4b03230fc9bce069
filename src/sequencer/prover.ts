/**
 * Wesolowski proofs for long segments (heartbeats, ticks lengthened by a full tick
 * ring), computed on the node's worker pool so neither the clock nor the main thread
 * stalls: src/vdf's `proveOnPool` (the `prove` task of workers/vdf.worker.js). The
 * result is checked for shape before it goes into a stored tick.
 */
import type { Piscina } from 'piscina';
import { proveOnPool } from '../vdf/pool.js';

export interface ProofTask {
  input: Uint8Array;
  output: Uint8Array;
  iterations: number;
}

export type Prover = (task: ProofTask) => Promise<Uint8Array>;

export function poolProver(pool: Piscina): Prover {
  return async (task) => {
    const result: unknown = await proveOnPool(pool, task);
    if (result instanceof Uint8Array && result.length === 256) return result;
    throw new Error('the pool returned a malformed VDF proof');
  };
}
