/** The existing tick verifier (the browser module's createVerifier over build/vdf.wasm), shared by the proof tests. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createVerifier, type BrowserVerifier } from '../../../src/browser/index.js';

export function repoFile(rel: string): string {
  return fileURLToPath(new URL(`../../../../${rel}`, import.meta.url));
}

let verifier: Promise<BrowserVerifier> | undefined;

export function tickVerifier(): Promise<BrowserVerifier> {
  verifier ??= createVerifier(readFileSync(repoFile('build/vdf.wasm')));
  return verifier;
}

/** A deep copy through JSON, as a client holds a proof. */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Flip the lowest bit of hex digit `at` (from the end when negative). */
export function flipHex(h: string, at = -1): string {
  const i = at < 0 ? h.length + at : at;
  const d = parseInt(h[i]!, 16) ^ 1;
  return h.slice(0, i) + d.toString(16) + h.slice(i + 1);
}
