/**
 * JSON writing for REST responses: like JSON.stringify, but bigint values (client u64s
 * such as nonce) are written as exact JSON integers instead of throwing or losing precision.
 */
const MARK = '\u0000bigint:';
const MARKED = /"\\u0000bigint:(\d+)"/g;

export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? MARK + v.toString() : v)).replace(MARKED, '$1');
}
