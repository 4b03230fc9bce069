/**
 * Standalone browser verifier (bundled by scripts/build-browser.mjs into
 * dist/browser/svc-vdf.js + svc-vdf.wasm). No Node built-ins anywhere in its imports.
 *
 *   const v = await createVerifier(new URL('svc-vdf.wasm', import.meta.url));
 *   v.verifyTick(await (await fetch('/api/v1/ticks/42')).json());   // { ok, tickNumber, ... }
 *   v.verifyTicks(arrayOfTickJson);                                 // batch + chaining
 *
 * verifyTick/verifyTicks never throw on bad tick data: malformed ticks come back invalid
 * with a typed error code. A batch also checks chaining: a tick's previous_output must be
 * the output of the tick numbered one less when both are present, and tick 1's must be
 * the genesis output.
 */
import { bytesEqual, bytesToHex } from './bytes.js';
import { VdfError, isVdfError } from './errors.js';
import { GENESIS_OUTPUT } from './hashing.js';
import type { VdfTickInput } from './interface.js';
import { parseRestTick } from './rest-tick.js';
import { WasmVdfEngine } from './wasm-engine.js';

export { GENESIS_OUTPUT, bytesToHex, parseRestTick, VdfError, WasmVdfEngine };
export type { RestTick, RestTickLookup } from './rest-tick.js';

/** Why a tick failed: a VdfError code, or one of the verifier's own. */
export type TickFailure = string; // VdfErrorCode | 'INVALID_PROOF' | 'CHAIN_BREAK' | 'BAD_GENESIS' | 'DUPLICATE_TICK'

export interface TickVerdict {
  ok: boolean;
  tickNumber: number | null;
  code?: TickFailure;
  message?: string;
}

export interface TicksVerdict {
  ok: boolean;
  /** Indexes (into the given array) of the ticks that failed. */
  invalid: number[];
  /** One entry per input tick. */
  ticks: TickVerdict[];
}

export interface BrowserVerifier {
  verifyTick(json: unknown): TickVerdict;
  verifyTicks(json: unknown[]): TicksVerdict;
  readonly engine: WasmVdfEngine;
}

async function compile(source: string | URL | ArrayBuffer | Uint8Array | WebAssembly.Module): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer) return WebAssembly.compile(source);
  if (source instanceof Uint8Array) return WebAssembly.compile(source.slice().buffer);
  const res = await fetch(source);
  if (!res.ok) throw new VdfError('ENGINE', `cannot fetch ${String(source)}: HTTP ${res.status}`);
  return WebAssembly.compile(await res.arrayBuffer());
}

function failure(tickNumber: number | null, e: unknown): TickVerdict {
  if (isVdfError(e)) return { ok: false, tickNumber, code: e.code, message: e.message };
  throw e;
}

function tickNumberOf(json: unknown): number | null {
  if (typeof json !== 'object' || json === null) return null;
  const o = json as { tick_number?: unknown };
  return typeof o.tick_number === 'number' ? o.tick_number : null;
}

export async function createVerifier(wasm: string | URL | ArrayBuffer | Uint8Array | WebAssembly.Module): Promise<BrowserVerifier> {
  const engine = new WasmVdfEngine(await compile(wasm));

  const genesisCheck = (t: VdfTickInput): TickVerdict | null =>
    t.tickNumber === 1 && !bytesEqual(t.previousOutput, GENESIS_OUTPUT)
      ? { ok: false, tickNumber: 1, code: 'BAD_GENESIS', message: 'tick 1 must start from the genesis output' }
      : null;

  return {
    engine,
    verifyTick(json: unknown): TickVerdict {
      let tick: VdfTickInput;
      try {
        tick = parseRestTick(json);
      } catch (e) {
        return failure(tickNumberOf(json), e);
      }
      const g = genesisCheck(tick);
      if (g) return g;
      try {
        return engine.verify(tick)
          ? { ok: true, tickNumber: tick.tickNumber }
          : { ok: false, tickNumber: tick.tickNumber, code: 'INVALID_PROOF', message: 'the VDF claim does not verify' };
      } catch (e) {
        return failure(tick.tickNumber, e);
      }
    },
    verifyTicks(json: unknown[]): TicksVerdict {
      if (!Array.isArray(json)) throw new VdfError('BAD_TYPE', 'verifyTicks: expected an array of tick objects');
      const verdicts: TickVerdict[] = json.map((j) => ({ ok: true, tickNumber: tickNumberOf(j) }));
      const parsed: (VdfTickInput | null)[] = json.map((j, i) => {
        try {
          const t = parseRestTick(j);
          const g = genesisCheck(t);
          if (g) verdicts[i] = g;
          return t;
        } catch (e) {
          verdicts[i] = failure(tickNumberOf(j), e);
          return null;
        }
      });
      // Chaining and duplicates: by tick number.
      const byNumber = new Map<number, VdfTickInput>();
      parsed.forEach((t, i) => {
        if (!t) return;
        const seen = byNumber.get(t.tickNumber);
        if (seen && !bytesEqual(seen.claim.output, t.claim.output)) {
          verdicts[i] = { ok: false, tickNumber: t.tickNumber, code: 'DUPLICATE_TICK', message: `tick ${t.tickNumber} appears twice with different outputs` };
        } else if (!seen) byNumber.set(t.tickNumber, t);
      });
      parsed.forEach((t, i) => {
        if (!t || !verdicts[i].ok) return;
        const before = byNumber.get(t.tickNumber - 1);
        if (before && !bytesEqual(before.claim.output, t.previousOutput)) {
          verdicts[i] = {
            ok: false,
            tickNumber: t.tickNumber,
            code: 'CHAIN_BREAK',
            message: `previous_output of tick ${t.tickNumber} is not the output of tick ${t.tickNumber - 1}`,
          };
        }
      });
      const index: number[] = [];
      const batch: VdfTickInput[] = [];
      parsed.forEach((t, i) => {
        if (t && verdicts[i].ok) {
          index.push(i);
          batch.push(t);
        }
      });
      const v = engine.verifyBatch(batch);
      for (const k of v.invalid) {
        const err = v.errors?.find((e) => e.index === k);
        verdicts[index[k]] = err
          ? { ok: false, tickNumber: batch[k].tickNumber, code: err.code, message: err.message }
          : { ok: false, tickNumber: batch[k].tickNumber, code: 'INVALID_PROOF', message: 'the VDF claim does not verify' };
      }
      const invalid = verdicts.flatMap((x, i) => (x.ok ? [] : [i]));
      return { ok: invalid.length === 0, invalid, ticks: verdicts };
    },
  };
}
