/**
 * Byte-array helpers every layer shares: joining arrays. Browser-safe (no Node built-ins):
 * the SDK and the browser VDF verifier import it.
 */

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
