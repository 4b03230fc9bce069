/**
 * Transaction and event ids (design.md): `{height:016x}-{batch:04x}-{index:04x}`,
 * lowercase hexadecimal groups, zero-padded to 16, 4 and 4 digits (a batch index or a
 * transaction index above 0xffff simply has more digits). Parsing accepts exactly the
 * canonical text (upper case is folded to lower case), so every id has one spelling.
 *
 * Store keys use fixed widths instead (16, 8 and 8 hex digits), so that their byte order
 * is the order of (height, batch, index), which is also continuum_sequence order.
 */
import { clip } from '../../wire/index.js';

export const MAX_HEIGHT = Number.MAX_SAFE_INTEGER;
const ID_RE = /^([0-9a-f]{16})-([0-9a-f]{4,8})-([0-9a-f]{4,8})$/;

export interface IdParts {
  height: number;
  batch: number;
  index: number;
}

export function formatId(height: number, batch: number, index: number): string {
  return `${height.toString(16).padStart(16, '0')}-${batch.toString(16).padStart(4, '0')}-${index.toString(16).padStart(4, '0')}`;
}

/** Parse an id; an error message for anything that is not a canonical id. */
export function parseId(text: string, what = 'id'): IdParts | string {
  if (text.length > 34) return `${what} is too long: expected {height:016x}-{batch:04x}-{index:04x}`;
  const m = ID_RE.exec(text.toLowerCase());
  if (!m)
    return `${what} must look like 0000000000000001-0000-0000 (16, 4 and 4 hexadecimal digits), got '${clip(text)}'`;
  const height = parseInt(m[1]!, 16);
  const batch = parseInt(m[2]!, 16);
  const index = parseInt(m[3]!, 16);
  if (!Number.isSafeInteger(height) || height > MAX_HEIGHT) return `${what}: height ${m[1]} is too large`;
  if (height === 0) return `${what}: heights start at 1`;
  if (formatId(height, batch, index) !== m[0])
    return `${what} is not in canonical form (groups zero-padded to exactly 16, 4 and 4 digits unless longer is needed)`;
  return { height, batch, index };
}

/** Store key of a transaction or event: fixed-width hex, ordered like (height, batch, index). */
export function recordKey(height: number, batch: number, index: number): string {
  return `${height.toString(16).padStart(16, '0')}${batch.toString(16).padStart(8, '0')}${index.toString(16).padStart(8, '0')}`;
}

/** Store key of a height. */
export function heightKey(height: number): string {
  return height.toString(16).padStart(16, '0');
}

/** Store key of a u64 (continuum_sequence, ordinals). */
export function u64Key(value: bigint | number): string {
  return value.toString(16).padStart(16, '0');
}
