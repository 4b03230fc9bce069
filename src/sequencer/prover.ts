/**
 * Wesolowski proofs for long segments (heartbeats), computed on the node's worker pool
 * so neither the clock nor the main thread stalls: the pool's `workers/vdf.worker.js`
 * exports `prove({input, output, iterations})` (src/vdf). If that worker module is not
 * built, ./prove-task.js (same signature, same engines) runs on the pool instead.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import { workerFile } from '../pool/index.js';

export interface ProofTask {
  input: Uint8Array;
  output: Uint8Array;
  iterations: number;
}

export type Prover = (task: ProofTask) => Promise<Uint8Array>;

export function poolProver(pool: Piscina): Prover {
  const vdfWorker = workerFile('vdf');
  const filename = existsSync(vdfWorker) ? vdfWorker : fileURLToPath(new URL('./prove-task.js', import.meta.url));
  return async (task) => {
    const result: unknown = await pool.run(
      { input: task.input, output: task.output, iterations: task.iterations },
      { filename, name: 'prove' },
    );
    if (result instanceof Uint8Array && result.length === 256) return result;
    if (result instanceof ArrayBuffer && result.byteLength === 256) return new Uint8Array(result);
    throw new Error('the pool returned a malformed VDF proof');
  };
}
