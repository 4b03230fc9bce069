/**
 * JSON text -> value with every integer exact: the node's channel messages carry u64 values
 * (prices, quantities, order ids, continuum sequences) as plain JSON integers, which
 * JSON.parse rounds above 2^53. `parseExactJson` gives an integer as a number when it is a
 * safe integer and as a bigint otherwise; everything else as JSON.parse does. Browser-safe.
 *
 * How: one pass over the text outside strings wraps each integer literal that is not a safe
 * integer in a marked string, then JSON.parse's reviver turns the marked strings into
 * bigints. Throws SyntaxError on text that is not JSON, like JSON.parse.
 */

export type U64 = number | bigint;

const MARK = '\u0000u64:';

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function parseExactJson(text: string): unknown {
  let out: string[] | undefined;
  let from = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // a string: skip to its closing quote
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 45 || isDigit(c)) {
      const start = i;
      i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      const next = text.charCodeAt(i);
      const integer = next !== 46 && next !== 101 && next !== 69; // no '.', 'e', 'E'
      if (!integer) {
        while (i < n && /[0-9eE+\-.]/.test(text[i]!)) i++;
        continue;
      }
      const literal = text.slice(start, i);
      if (literal.length > 15 && !Number.isSafeInteger(Number(literal))) {
        out ??= [];
        out.push(text.slice(from, start), `"\\u0000u64:${literal}"`); // JSON.parse reads it as MARK + digits
        from = i;
      }
      continue;
    }
    i++;
  }
  if (out === undefined) return JSON.parse(text);
  out.push(text.slice(from));
  return JSON.parse(out.join(''), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(MARK) ? BigInt(value.slice(MARK.length)) : value,
  );
}
