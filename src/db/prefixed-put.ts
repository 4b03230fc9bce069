/**
 * Puts that store a sublevel's bytes through its parent database: the key is the sublevel's
 * prefix (e.g. `!chain-tx!`) and the key as one utf8 string, the value is in the encoding
 * the sublevel gives it (utf8 text, or a binary view). An operation aimed at a sublevel
 * (`{ sublevel, key, value }`) makes abstract-level's batch() resolve, prefix and encode
 * it per operation on the calling thread; one in the parent's own terms skips most of that
 * and stores the same bytes (docs/architecture.md "What a busy tick costs", item 4); reads
 * through the sublevel find it as before.
 *
 * Such a put goes to the database the sublevel was made from: the prefix is the local one,
 * relative to that parent. Only puts, only sublevels with utf8 keys (every one of the
 * node's): deletions and ranges stay with the sublevels.
 */

/** A put on a sublevel's parent database with the bytes the sublevel would write. */
export type PrefixedPut =
  | { type: 'put'; key: string; value: string; keyEncoding: 'utf8'; valueEncoding: 'utf8' }
  | { type: 'put'; key: string; value: Uint8Array; keyEncoding: 'utf8'; valueEncoding: 'view' };

/** What a put needs of a sublevel (abstract-level's AbstractSublevel), by its value type. */
export interface PrefixingSublevel<V> {
  prefixKey(key: string, keyFormat: 'utf8', local?: boolean): string;
  /** Only for the type: text and binary sublevels are told apart by what they store. */
  get(key: string): Promise<V | undefined>;
}

/** The put of `value` under `key` in a sublevel with utf8 values. */
export function textPut(sublevel: PrefixingSublevel<string>, key: string, value: string): PrefixedPut {
  return { type: 'put', key: sublevel.prefixKey(key, 'utf8', true), value, keyEncoding: 'utf8', valueEncoding: 'utf8' };
}

/** The put of `value` under `key` in a sublevel with binary (view) values. */
export function binaryPut(sublevel: PrefixingSublevel<Uint8Array>, key: string, value: Uint8Array): PrefixedPut {
  return { type: 'put', key: sublevel.prefixKey(key, 'utf8', true), value, keyEncoding: 'utf8', valueEncoding: 'view' };
}
