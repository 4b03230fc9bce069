/**
 * Hex for the whole tree: bytes -> lowercase hex, and a strict digit table. Browser-safe
 * (no Node built-ins): the VDF verifier bundle and the SDK import it. Callers that parse
 * user input wrap `decodeHex` with their own error type and message.
 */

const HEX = '0123456789abcdef';
const BYTE_HEX: string[] = Array.from({ length: 256 }, (_, i) => HEX[i >> 4]! + HEX[i & 15]!);

/** Lowercase hex of `bytes`. */
export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += BYTE_HEX[bytes[i]!];
  return s;
}

/** Value of a hex digit's char code (either case), -1 for anything else. */
export function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** Decode an even-length string of hex digits (no prefix); undefined if it is not one. */
export function decodeHex(s: string): Uint8Array | undefined {
  if (s.length % 2 !== 0) return undefined;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexDigit(s.charCodeAt(2 * i));
    const lo = hexDigit(s.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return undefined;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

const HEX_RE = /^[0-9a-fA-F]*$/;

/** Strict hex decoding: even length, hex digits only (no 0x prefix); throws on anything else. */
export function fromHex(hex: string): Uint8Array {
  const out = HEX_RE.test(hex) ? decodeHex(hex) : undefined;
  if (!out) throw new TypeError('not a hex string');
  return out;
}
