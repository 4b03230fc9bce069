/**
 * The node's one Piscina pool for CPU work that must stay off the main thread:
 * Wesolowski proofs, batch verification, ed25519 checks. Each task names its worker
 * module (workers/*.worker.js) and exported function, so engines stay independent:
 *
 *   pool.run(task, { filename: workerFile('vdf'), name: 'prove' })
 */
import { Piscina } from 'piscina';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface PoolOptions {
  threads?: number; // default: all cores
  /**
   * A task module (workerFile(name)) each thread loads as it starts, so it takes its thread
   * role and warms up then, not at its first task (a thread is named after the one that
   * started it until it does).
   */
  preload?: string;
  /**
   * No thread until a task comes (then up to `threads`; one idle for the idle timeout ends):
   * for a pool that may never be used, which then costs no thread start (an isolate and its
   * modules, CPU every other thread waits for at a node's start-up). Default: every thread at once.
   */
  onDemand?: boolean;
}

/** Absolute path of the compiled worker module `workers/<name>.worker.js`. */
export function workerFile(name: string): string {
  return fileURLToPath(new URL(`../../workers/${name}.worker.js`, import.meta.url));
}

export function createPool(options: PoolOptions = {}): Piscina {
  const threads = options.threads ?? availableParallelism();
  return new Piscina({
    minThreads: options.onDemand ? 0 : threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    ...(options.preload ? { filename: options.preload } : {}),
  });
}
