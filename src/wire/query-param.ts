/**
 * An integer query parameter of a REST request (a limit, an offset), parsed strictly:
 * decimal digits only, given once, within bounds, or a clear error message naming it.
 * Shared by every REST face; the parse of each face's own parameters stays with the face.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(error: string): Parsed<T> => ({ ok: false, error });

/** An optional integer query parameter within [min, max] (decimal digits, leading zeros allowed). */
export function parseIntegerParam(
  name: string,
  raw: string | string[] | undefined,
  defaultValue: number,
  min: number,
  max: number,
): Parsed<number> {
  if (raw === undefined) return ok(defaultValue);
  if (Array.isArray(raw)) return fail(`${name} is given ${raw.length} times; give it once`);
  if (!/^\d+$/.test(raw)) return fail(`${name} must be an integer in ${min}..${max}, got '${clip(raw)}'`);
  // Bounded by value: leading zeros do not count (0000000000000000020 is 20).
  const digits = raw.replace(/^0+(?=\d)/, '');
  const n = Number(digits);
  if (digits.length > 16 || n < min || n > max)
    return fail(`${name} must be an integer in ${min}..${max}, got ${clip(raw)}`);
  return ok(n);
}

/** A client's value as it is quoted back in a refusal's message: at most 40 characters. */
export function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}
