/**
 * The VDF engine's contract: what the clock worker, the worker pool, the node and the
 * browser verifier rely on. The construction itself (encodings, hash-to-group,
 * hash-to-prime, genesis, batch check) is specified byte by byte in docs/vdf.md.
 *
 * Group elements travel as 256-byte big-endian canonical signed residues
 * (|x| = min(x, N - x)); hex forms are lowercase without `0x`.
 */

/** One tick's VDF claim: y = x^(2^iterations), with Wesolowski proof pi. */
export interface VdfClaim {
  input: Uint8Array; // x, 256 bytes
  output: Uint8Array; // y, 256 bytes
  proof: Uint8Array; // pi, 256 bytes
  iterations: number; // T >= 1
}

/** What a verifier needs to re-derive a tick's input and check its claim. */
export interface VdfTickInput {
  tickNumber: number;
  previousOutput: Uint8Array; // y of tick - 1 (the genesis output for tick 1), 256 bytes
  header: Uint8Array; // header_n (binding.ts): the 32 bytes x_n is derived from, 32 bytes
  claim: VdfClaim;
}

/** Result of verifying many ticks: which ones failed, if any (found by bisection). */
export interface BatchVerdict {
  ok: boolean;
  /** Indexes (into the input array) of the ticks that failed; empty when ok. */
  invalid: number[];
  /** Malformed ticks (also listed in `invalid`) with the typed error that rejected them. */
  errors?: BatchTickError[];
}

/** A tick rejected as malformed inside a batch (VdfError code and message). */
export interface BatchTickError {
  index: number;
  code: string;
  message: string;
}

/**
 * Incremental evaluator used by the clock: squares in small chunks so the caller can
 * look at its queues between chunks without ever pausing the chain.
 */
export interface VdfEvaluator {
  /** Start a new segment from input x (256 bytes). Resets the iteration count. */
  start(x: Uint8Array): void;
  /** Run k more squarings. */
  square(k: number): void;
  /** Squarings run since start(). */
  readonly iterations: number;
  /** Current value x^(2^iterations) as a canonical 256-byte element. */
  output(): Uint8Array;
  /** Wesolowski proof for the current segment; cheap when iterations is small (trivial proof). */
  prove(): Uint8Array;
  /**
   * Engine-specific proving material (the WASM engine's raw checkpoints) so that another
   * thread can prove this segment without re-running it; undefined when not available.
   * Written at the start of `into` (the result a view of it) when it is long enough, else
   * into a new array.
   */
  exportCheckpoints?(into?: Uint8Array): Uint8Array | undefined;
}

/** Synchronous per-thread engine (WASM-backed; a BigInt reference implements the same). */
export interface VdfEngine {
  hashToGroup(tickNumber: number, previousOutput: Uint8Array, header: Uint8Array): Uint8Array;
  evaluate(x: Uint8Array, iterations: number): Uint8Array;
  prove(x: Uint8Array, y: Uint8Array, iterations: number): Uint8Array;
  verify(tick: VdfTickInput): boolean;
  verifyBatch(ticks: VdfTickInput[]): BatchVerdict;
  evaluator(): VdfEvaluator;
}
export { DEFAULT_BUSY_ITERATIONS } from './constants.js';
