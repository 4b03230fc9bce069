/**
 * Base58 (the Bitcoin alphabet, bs58: browser-safe), the text form of keys, mints and owners in
 * the order book API (spec/2), with decoding bounded in length (Base58 decoding costs time
 * quadratic in the text) and a cache of the 32-byte keys seen last. No node:* imports: the
 * node and the SDK share it.
 */
import bs58 from 'bs58';
import { bytesToHex } from './hex.js';

export function toBase58(bytes: Uint8Array): string {
  return bs58.encode(bytes);
}

/**
 * Base58 decoding costs time quadratic in the length of the text, so every decode checks the
 * length first: a 32-byte key is 32..44 characters (32 '1's for 32 zero bytes, at most 44 for
 * any value), and general decoding takes at most `maxLength` characters.
 */
export const BASE58_KEY_MIN_CHARS = 32;
export const BASE58_KEY_MAX_CHARS = 44;

/** Base58 decoding of at most `maxLength` characters; throws on longer text and on characters outside the Bitcoin alphabet. */
export function fromBase58(text: string, maxLength = 256): Uint8Array {
  if (text.length > maxLength) throw new TypeError(`Base58 text longer than ${maxLength} characters`);
  return bs58.decode(text);
}

/** Base58 that must decode to exactly 32 bytes (public keys, mints); throws otherwise, in time bounded by 44 characters. */
export function fromBase58Key(text: string, what = 'key'): Uint8Array {
  if (text.length < BASE58_KEY_MIN_CHARS || text.length > BASE58_KEY_MAX_CHARS) {
    throw new TypeError(
      `${what} must be ${BASE58_KEY_MIN_CHARS}..${BASE58_KEY_MAX_CHARS} Base58 characters (a 32-byte key), got ${text.length}`,
    );
  }
  const known = KEY_CACHE.get(text);
  if (known !== undefined) return known.slice();
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(text);
  } catch {
    throw new TypeError(`${what} is not valid Base58`);
  }
  if (bytes.length !== 32) throw new TypeError(`${what} must decode to 32 bytes, got ${bytes.length}`);
  if (KEY_CACHE.size >= KEY_CACHE_MAX) KEY_CACHE.clear();
  KEY_CACHE.set(text, bytes.slice());
  return bytes;
}

/**
 * Base58 of 32-byte keys, both ways, for the keys seen last (a server decodes the same owners
 * and mints on every order and encodes them again in every receipt). A 32-byte value has one
 * Base58 text and back, so a hit returns exactly what decoding or encoding would; decoded
 * bytes are handed out as copies, so a caller may change them.
 */
const KEY_CACHE_MAX = 4096;
const KEY_CACHE = new Map<string, Uint8Array>();
const KEY_TEXT_CACHE = new Map<string, string>();

/** toBase58 of a 32-byte key, from the cache when it was encoded recently. */
export function toBase58Key(bytes: Uint8Array): string {
  if (bytes.length !== 32) return bs58.encode(bytes);
  const id = bytesToHex(bytes);
  let text = KEY_TEXT_CACHE.get(id);
  if (text === undefined) {
    text = bs58.encode(bytes);
    if (KEY_TEXT_CACHE.size >= KEY_CACHE_MAX) KEY_TEXT_CACHE.clear();
    KEY_TEXT_CACHE.set(id, text);
  }
  return text;
}
