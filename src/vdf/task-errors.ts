/**
 * Carrying VdfError across worker threads: structured clone keeps an Error's message but
 * not its class or `code`, so the worker encodes `VdfError[CODE]: message` and the
 * caller's side decodes it back into a VdfError.
 */
import { VdfError, type VdfErrorCode, isVdfError } from './errors.js';

const PREFIX = /^VdfError\[([A-Z_]+)\]: ([\s\S]*)$/;

export function encodeTaskError(e: unknown): Error {
  if (isVdfError(e)) return new Error(`VdfError[${e.code}]: ${e.message}`);
  if (e instanceof Error) return e;
  return new Error(String(e));
}

export function decodeTaskError(e: unknown): unknown {
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : undefined;
  if (message === undefined) return e;
  const m = PREFIX.exec(message);
  return m ? new VdfError(m[1] as VdfErrorCode, m[2]) : e;
}
