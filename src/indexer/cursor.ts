/**
 * Keyset cursors of the history lists: the last key of a page, as opaque base64url text
 * of its decimal parts joined by ':'. Decoding is strict (the exact text this module would
 * write for that key), so a cursor is either one the indexer gave or a 400.
 */
export const HISTORY_LIMIT = { default: 100, max: 1000 };

export function encodeCursor(parts: ReadonlyArray<string | number | bigint>): string {
  return Buffer.from(parts.map(String).join(':'), 'utf8').toString('base64url');
}

/** The decimal parts of `text` (exactly `count` of them, each at most 20 digits), or an error message. */
export function decodeCursor(text: string, count: number): bigint[] | string {
  const bad = `cursor is not one this indexer gave (pass back a next_cursor as it came), got '${text.length > 40 ? `${text.slice(0, 40)}...` : text}'`;
  if (text.length === 0 || text.length > 80 || !/^[A-Za-z0-9_-]+$/.test(text)) return bad;
  const plain = Buffer.from(text, 'base64url').toString('utf8');
  const parts = plain.split(':');
  if (parts.length !== count || !parts.every((p) => /^(0|[1-9]\d{0,19})$/.test(p))) return bad;
  const values = parts.map((p) => BigInt(p));
  if (values.some((v) => v >= 1n << 64n) || encodeCursor(values) !== text) return bad;
  return values;
}
