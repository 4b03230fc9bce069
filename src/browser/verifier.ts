/**
 * The standalone browser verifier of ticks (the bundle dist/browser/svc-vdf.js is built from
 * this folder's door). No Node built-ins anywhere in its imports.
 *
 *   const v = await createVerifier(new URL('svc-vdf.wasm', import.meta.url));
 *   v.verifyTick(await (await fetch('/api/v1/ticks/42')).json());   // { ok, tickNumber, ... }
 *   v.verifyTicks(arrayOfTickJson);                                 // batch + chaining
 *   verifyInclusion(proofJson, { tickVerifier: v });                // docs/proofs.md
 *   verifyOrderState(proofJson, { trustedBlock, inclusion: { tickVerifier: v } });
 *
 * verifyTick/verifyTicks never throw on bad tick data: malformed ticks come back invalid
 * with a typed error code. A batch also checks chaining (chain.ts): a tick's previous_output
 * must be the output of the tick numbered one less, tick 1's must be the genesis output, and
 * the tick numbers must have no holes: verifyTicks([t41, t43]) fails t43 with CHAIN_GAP and
 * lists tick 42 in `gaps`.
 */
import { checkChain, type ChainGap } from '../vdf/browser-safe.js';
import { VdfError, isVdfError } from '../vdf/browser-safe.js';
import type { VdfTickInput } from '../vdf/index.js';
import { parseRestTick } from '../vdf/browser-safe.js';
import { WasmVdfEngine } from '../vdf/browser-safe.js';

/** Why a tick failed: a VdfError code, or one of the verifier's own. */
export type TickFailure = string; // VdfErrorCode | 'INVALID_PROOF' | ChainFailureCode (BAD_GENESIS, DUPLICATE_TICK, CHAIN_BREAK, CHAIN_GAP)

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
  /** Tick numbers missing between the given ticks (each fails the tick after it with CHAIN_GAP). */
  gaps: ChainGap[];
}

export interface VerifyTicksOptions {
  /**
   * 'fail' (default): a hole between the given ticks fails the tick after it (CHAIN_GAP), so
   * `ok` means one proven, linked range. 'report': the holes are only listed in `gaps`, for
   * callers that verify a sparse set on purpose (the ticks behind a block, say).
   */
  gaps?: 'fail' | 'report';
}

export interface BrowserVerifier {
  verifyTick(json: unknown): TickVerdict;
  verifyTicks(json: unknown[], options?: VerifyTicksOptions): TicksVerdict;
  readonly engine: WasmVdfEngine;
}

async function compile(
  source: string | URL | ArrayBuffer | Uint8Array | WebAssembly.Module,
): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer) return WebAssembly.compile(source);
  // A copy of exactly the view: a Node Buffer's .slice() is a view whose .buffer may be a larger pool.
  if (source instanceof Uint8Array) return WebAssembly.compile(new Uint8Array(source));
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

export async function createVerifier(
  wasm: string | URL | ArrayBuffer | Uint8Array | WebAssembly.Module,
): Promise<BrowserVerifier> {
  const engine = new WasmVdfEngine(await compile(wasm));

  return {
    engine,
    verifyTick(json: unknown): TickVerdict {
      let tick: VdfTickInput;
      try {
        tick = parseRestTick(json);
      } catch (e) {
        return failure(tickNumberOf(json), e);
      }
      const genesis = checkChain([tick]).broken[0]; // tick 1 must start from genesis
      if (genesis) return { ok: false, tickNumber: genesis.tickNumber, code: genesis.code, message: genesis.message };
      try {
        return engine.verify(tick)
          ? { ok: true, tickNumber: tick.tickNumber }
          : { ok: false, tickNumber: tick.tickNumber, code: 'INVALID_PROOF', message: 'the VDF claim does not verify' };
      } catch (e) {
        return failure(tick.tickNumber, e);
      }
    },
    verifyTicks(json: unknown[], options: VerifyTicksOptions = {}): TicksVerdict {
      if (!Array.isArray(json)) throw new VdfError('BAD_TYPE', 'verifyTicks: expected an array of tick objects');
      const verdicts: TickVerdict[] = json.map((j) => ({ ok: true, tickNumber: tickNumberOf(j) }));
      const parsed: (VdfTickInput | null)[] = json.map((j, i) => {
        try {
          return parseRestTick(j);
        } catch (e) {
          verdicts[i] = failure(tickNumberOf(j), e);
          return null;
        }
      });
      // Genesis, duplicates, chaining and gaps (chain.ts); a gap is judged after the proofs.
      const chain = checkChain(parsed);
      for (const f of chain.broken)
        verdicts[f.index] = { ok: false, tickNumber: f.tickNumber, code: f.code, message: f.message };
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
          : {
              ok: false,
              tickNumber: batch[k].tickNumber,
              code: 'INVALID_PROOF',
              message: 'the VDF claim does not verify',
            };
      }
      for (const f of options.gaps === 'report' ? [] : chain.gaps) {
        if (verdicts[f.index].ok)
          verdicts[f.index] = {
            ok: false,
            tickNumber: f.tickNumber,
            code: f.code,
            message: `its proof verifies, but ${f.message}`,
          };
      }
      const invalid = verdicts.flatMap((x, i) => (x.ok ? [] : [i]));
      return { ok: invalid.length === 0, invalid, ticks: verdicts, gaps: chain.missing };
    },
  };
}
