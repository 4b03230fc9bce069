/**
 * Support for the "order first, proof after" tests (docs/sequencer.md): a worker pool
 * whose tasks finish late (or never), the real pool behind a Proxy that delays `run` by a
 * time or until the test releases it, to hold proofs back; and a digest of what ordering
 * fixed in a tick (its record without the proof).
 */
import { createHash } from 'node:crypto';
import type { Piscina } from 'piscina';
import type { Tick } from '../../src/core/types.js';
import { encodeArchiveRecord } from '../../src/store/archive.js';

/** A tick's archived record with the proof left out: what ordering fixed. */
export function orderDigest(t: Tick): string {
  return createHash('sha256')
    .update(encodeArchiveRecord({ ...t, vdfProof: { ...t.vdfProof, proof: new Uint8Array(256) } }))
    .digest('hex');
}

export function slowPool(pool: Piscina, delayMs: number): Piscina {
  return new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop !== 'run') return Reflect.get(target, prop, receiver) as unknown;
      return (task: unknown, options?: unknown) =>
        new Promise((resolve, reject) => {
          setTimeout(() => {
            (target.run as (t: unknown, o?: unknown) => Promise<unknown>)
              .call(target, task, options)
              .then(resolve, reject);
          }, delayMs);
        });
    },
  });
}

/**
 * The real pool with every task held until `release()` (then run in the order they came,
 * and later ones at once): proofs stay back for exactly as long as a test needs, however
 * slow the machine is.
 */
export function heldPool(pool: Piscina): { pool: Piscina; release(): void } {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop !== 'run') return Reflect.get(target, prop, receiver) as unknown;
      return (task: unknown, options?: unknown) =>
        gate.then(() => (target.run as (t: unknown, o?: unknown) => Promise<unknown>).call(target, task, options));
    },
  });
  return { pool: held, release };
}
