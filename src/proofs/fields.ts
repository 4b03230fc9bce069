/**
 * Strict readers of a proof's JSON fields, shared by the verifiers. A reader that meets a
 * malformed field throws StepFailure naming the verification step it belongs to; the
 * verifiers catch it (and anything else) and answer {ok: false, step, message}, so hostile
 * input never makes a verifier throw. Browser-safe.
 */
import { decodeHex } from '../crypto/browser-safe.js';

export class StepFailure<S extends string> extends Error {
  constructor(
    readonly step: S,
    message: string,
  ) {
    super(message);
    this.name = 'StepFailure';
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Hex (either case, optional 0x) of exactly `bytes` bytes when given. */
export function hexField<S extends string>(step: S, what: string, v: unknown, bytes?: number): Uint8Array {
  if (typeof v !== 'string') throw new StepFailure(step, `${what}: expected a hex string`);
  if (bytes !== undefined && v.length > 2 * bytes + 2)
    throw new StepFailure(step, `${what}: expected ${bytes} bytes of hex`);
  const out = decodeHex(v.startsWith('0x') || v.startsWith('0X') ? v.slice(2) : v);
  if (!out) throw new StepFailure(step, `${what}: not hex`);
  if (bytes !== undefined && out.length !== bytes)
    throw new StepFailure(step, `${what}: expected ${bytes} bytes, got ${out.length}`);
  return out;
}

export function intField<S extends string>(
  step: S,
  what: string,
  v: unknown,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
    throw new StepFailure(step, `${what}: expected an integer in ${min}..${max}`);
  return v;
}

const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** A u64 as a decimal string (or a safe JSON integer). */
export function u64Field<S extends string>(step: S, what: string, v: unknown): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v !== 'string' || !/^(0|[1-9][0-9]{0,19})$/.test(v) || BigInt(v) > U64_MAX)
    throw new StepFailure(step, `${what}: expected a u64 as a decimal string`);
  return BigInt(v);
}

/** A list of 32-byte hashes in hex, at most `max` long. */
export function pathField<S extends string>(step: S, what: string, v: unknown, max = 64): Uint8Array[] {
  if (!Array.isArray(v)) throw new StepFailure(step, `${what}: expected a list of hex hashes`);
  if (v.length > max) throw new StepFailure(step, `${what}: ${v.length} elements is more than any tree here needs`);
  return v.map((h, i) => hexField(step, `${what}[${i}]`, h, 32));
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i]! ^ b[i]!;
  return d === 0;
}

/** Turn whatever a verifier body threw into a failure of the step it was in. */
export function failureOf<S extends string>(e: unknown, current: S): { ok: false; step: S; message: string } {
  if (e instanceof StepFailure) return { ok: false, step: e.step as S, message: e.message };
  return { ok: false, step: current, message: e instanceof Error ? e.message : String(e) };
}
