/**
 * A market's id is derived from its pair, so every node that replays the market's
 * creation gets the same id and a client can compute it without asking:
 *
 *   h = SHA-256("SVC_DEX_MARKET:" || base_mint || quote_mint)
 *   market_id = h[0..16] as a UUID, with version nibble 8 (RFC 9562 "custom") and the
 *               RFC 4122 variant bits, in lowercase text.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '../crypto/browser-safe.js';

const PREFIX = new TextEncoder().encode('SVC_DEX_MARKET:');

export function marketIdOf(
  baseMint: Uint8Array,
  quoteMint: Uint8Array,
  hash: (d: Uint8Array) => Uint8Array = sha256,
): string {
  const buf = new Uint8Array(PREFIX.length + 64);
  buf.set(PREFIX);
  buf.set(baseMint, PREFIX.length);
  buf.set(quoteMint, PREFIX.length + 32);
  const b = hash(buf).slice(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = bytesToHex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
