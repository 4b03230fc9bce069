/**
 * Pool task used for heartbeat proofs when the VDF engine's own pool worker
 * (workers/vdf.worker.js) is not built: `prove({input, output, iterations})` with the
 * WASM engine if available, else the BigInt reference. Runs inside a Piscina thread.
 */
import type { VdfEngine } from '../vdf/interface.js';
import type { ProofTask } from './prover.js';

let engine: VdfEngine | undefined;

async function load(): Promise<VdfEngine> {
  if (engine) return engine;
  const vdf = (await import('../vdf/index.js')) as unknown as Record<string, unknown>;
  try {
    engine = (vdf['loadVdfEngine'] as () => VdfEngine)();
  } catch {
    engine = (vdf['referenceVdfEngine'] as () => VdfEngine)();
  }
  return engine;
}

export async function prove(task: ProofTask): Promise<Uint8Array> {
  const e = await load();
  return e.prove(task.input, task.output, task.iterations);
}
