/**
 * Byte helpers shared by every engine: hex <-> bytes (lowercase out, optional `0x` and
 * either case in), big-endian bytes <-> bigint, u64/u32 big-endian encodings.
 * No Node built-ins: the browser verifier imports this file.
 */
import { bytesToHex, hexDigit } from '../crypto/browser-safe.js';
import { VdfError } from './errors.js';

export { bytesToHex };
/** Byte equality (src/crypto/browser-safe.ts), re-exported for the VDF code and its public surface. */
export { bytesEqual } from '../crypto/browser-safe.js';

/**
 * Parse hex (optional `0x`); when `expectedBytes` is given the length must match exactly.
 * Throws VdfError BAD_TYPE / BAD_HEX / BAD_LENGTH.
 */
export function hexToBytes(hex: string, expectedBytes?: number, what = 'hex'): Uint8Array {
  if (typeof hex !== 'string') throw new VdfError('BAD_TYPE', `${what}: expected a hex string`);
  const s = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (s.length % 2 !== 0) throw new VdfError('BAD_LENGTH', `${what}: odd number of hex digits (${s.length})`);
  if (expectedBytes !== undefined && s.length !== expectedBytes * 2) {
    throw new VdfError('BAD_LENGTH', `${what}: expected ${expectedBytes * 2} hex digits, got ${s.length}`);
  }
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexDigit(s.charCodeAt(2 * i));
    const lo = hexDigit(s.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) throw new VdfError('BAD_HEX', `${what}: non-hex character near position ${2 * i}`);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

export function bytesToBigInt(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  return BigInt(`0x${bytesToHex(bytes)}`);
}

/** Big-endian, left-padded to `length` bytes; throws if the value does not fit. */
export function bigIntToBytes(value: bigint, length: number): Uint8Array {
  if (value < 0n) throw new VdfError('OUT_OF_RANGE', 'negative value cannot be encoded');
  const hex = value.toString(16);
  if (hex.length > length * 2) throw new VdfError('OUT_OF_RANGE', `value does not fit in ${length} bytes`);
  return hexToBytes(hex.padStart(length * 2, '0'));
}

export function u64be(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

export function u32be(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value >>> 0);
  return out;
}
