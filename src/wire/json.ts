/**
 * The one bigint-safe JSON of the tree. Writing: like JSON.stringify on plain data, but
 * bigint values (u64 fields that can pass 2^53: a chain record's price, quantity, order_id,
 * continuum_sequence, ...; a REST answer's nonce) are written as exact JSON integers, and it
 * is a plain recursive walk (no replacer), which matters on the hot path (every stored
 * transaction is rendered once). Keys are written as they are (svc's keys are identifiers).
 * Reading back: JSON.parse would round those integers to doubles, so the known u64 keys of
 * the chain's records are quoted before parsing and turned into bigints. This is safe on
 * JSON we wrote: inside a JSON string every `"` is escaped, so `"price":` can only be a real key.
 */

export function encodeJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + encodeJson(value[i]);
        return `${out}]`;
      }
      let out = '{';
      let first = true;
      for (const k in value as Record<string, unknown>) {
        const v = (value as Record<string, unknown>)[k];
        if (v === undefined) continue;
        out += `${(first ? '"' : ',"') + k}":${encodeJson(v)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return 'null';
  }
}

/** Keys whose values are u64 (possibly above 2^53) in the chain's records. */
const BIG_KEYS = [
  'price',
  'quantity',
  'order_id',
  'continuum_sequence',
  'expiry',
  'filled_quantity',
  'cancelled_quantity',
];
const BIG_SCALAR = new RegExp(`"(${BIG_KEYS.join('|')})":(-?\\d+)`, 'g');
/** Keys whose values are arrays of u64. */
const BIG_ARRAY_KEYS = ['continuum_sequences', 'cancelled_order_ids'];
const BIG_ARRAY = new RegExp(`"(${BIG_ARRAY_KEYS.join('|')})":\\[([-\\d,]*)\\]`, 'g');

/** Parse a record this module wrote, with its u64 fields as bigint. */
export function parseRecordJson<T>(text: string): T {
  const quoted = text
    .replace(BIG_SCALAR, '"$1":"$2"')
    .replace(BIG_ARRAY, (_m, key: string, list: string) => `"${key}":[${quoteAll(list)}]`);
  return JSON.parse(quoted, (key: string, v: unknown) => {
    if (typeof v === 'string' && BIG_KEYS.includes(key)) return BigInt(v);
    if (BIG_ARRAY_KEYS.includes(key) && Array.isArray(v)) return v.map((d) => BigInt(d as string));
    return v;
  }) as T;
}

/** `1,2,3` -> `"1","2","3"` (empty stays empty). */
function quoteAll(list: string): string {
  return list === ''
    ? ''
    : list
        .split(',')
        .map((d) => `"${d}"`)
        .join(',');
}
