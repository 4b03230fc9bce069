/**
 * Piscina task module for ed25519 (src/crypto/ed25519.ts does the work). Tasks are
 * batches, so one round trip to the pool carries many checks:
 *
 *   pool.run({ items }, { filename: workerFile('ed25519'), name: 'verifyBatch' })
 *   pool.run({ seed, messages }, { filename: workerFile('ed25519'), name: 'signBatch' })
 *
 * Keys are cached per worker. verifyRepeat and verifyBatchNoble serve the benchmark only.
 */
import { verifyOne, type VerifyItem } from '../src/crypto/ed25519.js';
import { verify as nobleVerify } from '../src/crypto/keys.js';

export { signBatch, verifyBatch } from '../src/crypto/ed25519.js';
import { takeThreadRole } from '../src/pool/thread-role.js';

takeThreadRole('pool');

/** Throughput probe for the benchmark: verify the same item `count` times in this thread. */
export function verifyRepeat(task: { item: VerifyItem; count: number }): number {
  let ok = 0;
  for (let i = 0; i < task.count; i++) if (verifyOne(task.item)) ok++;
  return ok;
}

/** The same batch with @noble/ed25519 (pure JS): only for the benchmark's comparison. */
export function verifyBatchNoble(task: { items: VerifyItem[] }): Uint8Array {
  const out = new Uint8Array(task.items.length);
  for (let i = 0; i < task.items.length; i++) {
    const it = task.items[i]!;
    out[i] = nobleVerify(it.signature, it.message, it.publicKey) ? 1 : 0;
  }
  return out;
}
