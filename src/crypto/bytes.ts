/**
 * Byte-array helpers every layer shares: joining and comparing arrays. Browser-safe (no
 * Node built-ins): the SDK and the browser VDF verifier import it.
 */

/** Same length and bytes; the time taken does not depend on where two equal-length arrays differ. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** The arrays' bytes one after another, in a new array. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
