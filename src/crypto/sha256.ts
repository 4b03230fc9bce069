/**
 * SHA-256 through node:crypto's one-shot `hash()` (no Hash object per call), the
 * cheapest way to hash small inputs in Node 20; every hot path (transaction hashes,
 * Merkle trees) goes through here.
 */
import { hash } from 'node:crypto';

/** SHA-256 of `data`, 32 bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  return hash('sha256', data, 'buffer');
}
