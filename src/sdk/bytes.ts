/**
 * Byte helpers shared by the SDK and the server: hex, Base58 (bs58, browser-safe),
 * constant-time equality. No node:* imports, so the SDK bundles for a browser.
 */
import bs58 from 'bs58';

const HEX = '0123456789abcdef';
const HEX_RE = /^[0-9a-fA-F]*$/;

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    out += HEX[b >> 4]! + HEX[b & 15]!;
  }
  return out;
}

/** Strict hex decoding: even length, hex digits only (no 0x prefix); throws on anything else. */
export function fromHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !HEX_RE.test(hex)) throw new TypeError('not a hex string');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function toBase58(bytes: Uint8Array): string {
  return bs58.encode(bytes);
}

/** Base58 decoding; throws on characters outside the Bitcoin alphabet. */
export function fromBase58(text: string): Uint8Array {
  return bs58.decode(text);
}

/** Base58 that must decode to exactly 32 bytes (public keys, mints); throws otherwise. */
export function fromBase58Key(text: string, what = 'key'): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(text);
  } catch {
    throw new TypeError(`${what} is not valid Base58`);
  }
  if (bytes.length !== 32) throw new TypeError(`${what} must decode to 32 bytes, got ${bytes.length}`);
  return bytes;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
