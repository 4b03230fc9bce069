/**
 * Node loader for the WASM engine: reads build/vdf.wasm once per thread (synchronously,
 * so it works at module load in the clock worker and in pool workers), compiles it once,
 * and gives each loadVdfEngine() call an independent instance.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { VdfError } from './errors.js';
import type { VdfEngine } from './interface.js';
import { WasmVdfEngine } from './wasm-engine.js';

/** Absolute path of build/vdf.wasm (from dist/src/vdf/ or src/vdf/). */
export function wasmPath(): string {
  return fileURLToPath(new URL('../../../build/vdf.wasm', import.meta.url));
}

let compiled: WebAssembly.Module | undefined;

export function vdfWasmModule(): WebAssembly.Module {
  if (!compiled) {
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(readFileSync(wasmPath()));
    } catch (e) {
      throw new VdfError('ENGINE', `cannot read ${wasmPath()} (run npm run build:wasm): ${(e as Error).message}`);
    }
    compiled = new WebAssembly.Module(bytes);
  }
  return compiled;
}

/** A fresh WASM VDF engine (own memory); synchronous. */
export function loadVdfEngine(): VdfEngine {
  return new WasmVdfEngine(vdfWasmModule());
}

/** Same, typed as the concrete class (benchmarks and tests reach its arithmetic). */
export function loadWasmVdfEngine(): WasmVdfEngine {
  return new WasmVdfEngine(vdfWasmModule());
}
