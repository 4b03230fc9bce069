/**
 * Piscina task module for the VDF (run as `pool.run(arg, { filename: workerFile('vdf'),
 * name })`): Wesolowski proofs of long segments and batch verification, each worker
 * thread with its own WASM engine loaded once at module load.
 *
 * Arguments and results are plain structured-clone data. Malformed input throws an Error
 * whose message starts with `VdfError[CODE]:` (error classes do not survive the thread
 * boundary; src/vdf/pool.ts turns it back into a VdfError). Nothing here can take the
 * worker down: every failure is a rejected task.
 */
import { vdfWasmModule } from '../src/vdf/node.js';
import { WasmVdfEngine } from '../src/vdf/wasm-engine.js';
import { VdfError } from '../src/vdf/errors.js';
import type { BatchVerdict, VdfClaim, VdfTickInput } from '../src/vdf/interface.js';
import { encodeTaskError } from '../src/vdf/task-errors.js';
import { takeThreadRole } from '../src/pool/thread-role.js';

takeThreadRole('pool');

const engine = new WasmVdfEngine(vdfWasmModule());

function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw encodeTaskError(e);
  }
}

export function prove(arg: { input: Uint8Array; output: Uint8Array; iterations: number }): Uint8Array {
  return guard(() => {
    if (arg === null || typeof arg !== 'object')
      throw new VdfError('BAD_TYPE', 'prove: expected { input, output, iterations }');
    return engine.prove(arg.input, arg.output, arg.iterations);
  });
}

export function evaluate(arg: { input: Uint8Array; iterations: number }): Uint8Array {
  return guard(() => {
    if (arg === null || typeof arg !== 'object')
      throw new VdfError('BAD_TYPE', 'evaluate: expected { input, iterations }');
    return engine.evaluate(arg.input, arg.iterations);
  });
}

export function verify(tick: VdfTickInput): boolean {
  return guard(() => engine.verify(tick));
}

export function verifyBatch(ticks: VdfTickInput[]): BatchVerdict {
  return guard(() => engine.verifyBatch(ticks));
}

/** Evaluate and prove in one task: the whole claim for a segment computed off-thread. */
export function evaluateAndProve(arg: { input: Uint8Array; iterations: number }): VdfClaim {
  return guard(() => {
    if (arg === null || typeof arg !== 'object')
      throw new VdfError('BAD_TYPE', 'evaluateAndProve: expected { input, iterations }');
    const output = engine.evaluate(arg.input, arg.iterations);
    return {
      input: arg.input,
      output,
      proof: engine.prove(arg.input, output, arg.iterations),
      iterations: arg.iterations,
    };
  });
}

/** Prove a segment from the raw checkpoints its evaluator exported (the clock's heartbeats). */
export function proveFromCheckpoints(arg: {
  input: Uint8Array;
  output: Uint8Array;
  iterations: number;
  checkpoints: Uint8Array;
}): Uint8Array {
  return guard(() => {
    if (arg === null || typeof arg !== 'object')
      throw new VdfError('BAD_TYPE', 'proveFromCheckpoints: expected { input, output, iterations, checkpoints }');
    return engine.proveFromCheckpoints(arg.input, arg.output, arg.iterations, arg.checkpoints);
  });
}
