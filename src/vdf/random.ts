/**
 * Batch-check randomness: independent uniform 64-bit exponents from the platform's
 * cryptographic generator (globalThis.crypto.getRandomValues: Node 20 and browsers).
 * Verification must not be predictable by whoever produced the ticks.
 */
import { BATCH_RANDOM_BITS } from './constants.js';

export function randomExponents(count: number): bigint[] {
  const words = BATCH_RANDOM_BITS / 32;
  const out: bigint[] = new Array(count);
  const buf = new Uint32Array(Math.max(1, count * words));
  // getRandomValues fills at most 65536 bytes per call.
  for (let off = 0; off < buf.length; off += 16384) {
    globalThis.crypto.getRandomValues(buf.subarray(off, Math.min(buf.length, off + 16384)));
  }
  for (let i = 0; i < count; i++) {
    let v = 0n;
    for (let w = 0; w < words; w++) v = (v << 32n) | BigInt(buf[i * words + w]);
    out[i] = v;
  }
  return out;
}
