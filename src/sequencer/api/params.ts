/**
 * Pure parsers for request parameters shared by gRPC and REST: tick numbers, 8-hex
 * transaction hashes and the 8- or 64-hex hashes of proof requests (a limit or an offset
 * is a plain integer parameter: src/wire). Each returns a value or a clear error message.
 */
import { clip, type Parsed } from '../../wire/index.js';

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(error: string): Parsed<T> => ({ ok: false, error });

/** A tick number as text (REST path): digits only, 1..2^53-1. */
export function parseTickNumberText(text: string): Parsed<number> {
  if (!/^\d+$/.test(text)) return fail(`tick number must be a positive integer, got '${clip(text)}'`);
  return checkTickNumber(text);
}

/** A tick number from the wire (uint64 as decimal text from proto-loader). */
export function checkTickNumber(decimal: string, name = 'tick number'): Parsed<number> {
  const trimmed = decimal.replace(/^0+(?=\d)/, '');
  if (trimmed.length > 16 || Number(trimmed) > Number.MAX_SAFE_INTEGER) {
    return fail(`${name} ${clip(decimal)} is too large (at most ${Number.MAX_SAFE_INTEGER})`);
  }
  const n = Number(trimmed);
  if (n === 0) return fail(`${name} must be at least 1 (tick 0 is genesis)`);
  return ok(n);
}

/** An 8-hex transaction hash, case-insensitive; returned lowercase. */
export function parseTxHash(text: string): Parsed<string> {
  if (text.length !== 8) return fail(`tx_hash must be 8 hexadecimal characters, got ${text.length} characters`);
  if (!/^[0-9a-fA-F]{8}$/.test(text)) return fail(`tx_hash must be hexadecimal (0-9, a-f), got '${clip(text)}'`);
  return ok(text.toLowerCase());
}

/** A transaction hash for a proof: the 8-hex short hash or the 64-hex full SHA-256, case-insensitive; returned lowercase. */
export function parseProofHash(text: string): Parsed<string> {
  if (text.length !== 8 && text.length !== 64) {
    return fail(
      `tx_hash must be 8 or 64 hexadecimal characters (the short or the full hash), got ${text.length} characters`,
    );
  }
  if (!/^[0-9a-fA-F]+$/.test(text)) return fail(`tx_hash must be hexadecimal (0-9, a-f), got '${clip(text)}'`);
  return ok(text.toLowerCase());
}
