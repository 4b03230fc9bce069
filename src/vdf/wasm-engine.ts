/**
 * The WASM-backed VdfEngine (docs/vdf.md), environment-neutral: built from a compiled
 * WebAssembly.Module (Node loader: node.ts; browser: browser.ts). Same construction and
 * same validation as the BigInt reference (reference.ts); the arithmetic runs in
 * assembly/index.ts with operands kept in WASM memory.
 */
import { bigIntToBytes, bytesEqual } from './bytes.js';
import { ELEMENT_BYTES, MAX_ITERATIONS, TRIVIAL_PROOF_MAX_T } from './constants.js';
import { VdfError, isVdfError } from './errors.js';
import { multiExp } from './exp.js';
import { hashToPrime } from './hashing.js';
import type { BatchTickError, BatchVerdict, VdfEngine, VdfEvaluator, VdfTickInput } from './interface.js';
import { bisect } from './bisect.js';
import { modPow } from './primes.js';
import {
  CHECKPOINT_BITS,
  MAX_CHECKPOINTS,
  cheapestWidth,
  checkpointsFor,
  longDivisionCost,
  proveByLongDivision,
  proveFromCheckpoints,
  quotientDigits,
} from './proof.js';
import { randomExponents } from './random.js';
import { SlotAllocator } from './slots.js';
import { checkBatchHash, checkElement, checkIterations, checkTickNumber, checkTickShape } from './validate.js';
import { WasmArith } from './wasm-arith.js';

/** The identity element's canonical bytes: the trivial proof. */
export const ONE_BYTES: Uint8Array = bigIntToBytes(1n, ELEMENT_BYTES);

/** Non-trivial ticks per random-exponent combination (bounds WASM memory: 3 slots a tick, ~8 MB). */
export const BATCH_CHUNK = 8192;

/** Checkpoint storage grows in chunks of this many slots. */
const CHUNK = 4096;

/** Squaring with checkpoints C_i = x^(2^(K*i)), shared by the evaluator and prove(). */
class CheckpointedSquarer {
  private readonly chunks: number[] = [];
  cur: number;
  count = 0;
  keepCheckpoints = true;

  constructor(
    private readonly arith: WasmArith,
    private readonly slots: SlotAllocator,
  ) {
    this.cur = slots.alloc(2);
  }

  /** Slot of the segment input x. */
  get xSlot(): number {
    return this.cur + 1;
  }

  /** Start from x; `from` is a slot already holding x (skips the load). */
  start(x: Uint8Array, from?: number): void {
    if (from === undefined) this.arith.load(this.cur, x);
    else this.arith.copy(this.cur, from);
    this.arith.copy(this.xSlot, this.cur);
    this.count = 0;
    this.keepCheckpoints = true;
    this.saveCheckpoint();
  }

  cp(i: number): number {
    return this.chunks[Math.floor(i / CHUNK)] + (i % CHUNK);
  }

  private saveCheckpoint(): void {
    const i = this.count / CHECKPOINT_BITS;
    if (i >= MAX_CHECKPOINTS) {
      this.keepCheckpoints = false;
      return;
    }
    const chunk = Math.floor(i / CHUNK);
    while (this.chunks.length <= chunk) this.chunks.push(this.slots.alloc(CHUNK));
    this.arith.copy(this.cp(i), this.cur);
  }

  square(k: number): void {
    let left = k;
    while (left > 0) {
      const toNext = this.keepCheckpoints ? CHECKPOINT_BITS - (this.count % CHECKPOINT_BITS) : left;
      const step = Math.min(left, toNext);
      this.arith.sqrn(this.cur, step);
      this.count += step;
      left -= step;
      if (this.keepCheckpoints && this.count % CHECKPOINT_BITS === 0) this.saveCheckpoint();
    }
  }

  /**
   * Raw checkpoint slots C_0 .. C_(k-1), k = checkpointsFor(count), for proving on another
   * thread (proveFromCheckpoints); undefined when this segment did not keep them.
   */
  exportCheckpoints(into?: Uint8Array): Uint8Array | undefined {
    const k = checkpointsFor(this.count);
    if (!this.keepCheckpoints || k === 0 || k > MAX_CHECKPOINTS) return undefined;
    const bytes = k * this.arith.slotSize;
    const out = into !== undefined && into.length >= bytes ? into.subarray(0, bytes) : new Uint8Array(bytes);
    for (let c = 0; c * CHUNK < k; c++) {
      const n = Math.min(CHUNK, k - c * CHUNK);
      this.arith.exportSlotsInto(this.chunks[c]!, n, out, c * CHUNK * this.arith.slotSize);
    }
    return out;
  }

  /** Proof slot for the current segment (caller frees 1 slot). */
  prove(l: bigint): number {
    const dst = this.slots.alloc(1);
    const usable = this.keepCheckpoints && checkpointsFor(this.count) <= MAX_CHECKPOINTS;
    const ds = usable ? quotientDigits(this.count, l) : undefined;
    // Whichever is cheaper: buckets over the checkpoints, or the long division from x.
    const buckets = ds && cheapestWidth(ds);
    if (ds && buckets && buckets.cost <= longDivisionCost(this.count)) {
      proveFromCheckpoints(this.arith, this.slots, dst, (i) => this.cp(i), ds, buckets.width);
    } else {
      proveByLongDivision(this.arith, dst, this.xSlot, this.count, l);
    }
    return dst;
  }
}

interface Prepared {
  index: number;
  base: number; // slots: base = pi, base+1 = x, base+2 = y
  l: bigint;
  r: bigint;
  y: Uint8Array;
}

export class WasmVdfEngine implements VdfEngine {
  readonly arith: WasmArith;
  private readonly slots: SlotAllocator;
  private readonly tmp: number;
  private squarer: CheckpointedSquarer | undefined;
  /** Whether slot tmp holds the last hashToGroup result (see checkTrivial). */
  private tmpHoldsInput = false;
  /** Bytes of the last hashToGroup result while slot tmp still holds it. */
  private lastInput: Uint8Array | undefined;
  /** Non-trivial ticks per combined check (tests lower it to exercise chunking). */
  batchChunk = BATCH_CHUNK;
  private readonly isPrime = (n: bigint): boolean => this.arith.millerRabin128(n);

  constructor(module: WebAssembly.Module) {
    this.arith = new WasmArith(module);
    this.slots = new SlotAllocator(this.arith);
    this.tmp = this.slots.alloc(4);
    this.warmUp();
  }

  /**
   * V8 first runs WASM on its baseline compiler (about half speed here) and re-compiles hot
   * functions in the background; a few hundred operations at load make the first real
   * ticks and the pool's first tasks run at full speed (~1-2 ms, once per engine).
   */
  private warmUp(): void {
    this.arith.one(this.tmp);
    this.arith.sqrn(this.tmp, 400);
    for (let i = 0; i < 200; i++) this.arith.mul(this.tmp + 1, this.tmp, this.tmp);
  }

  hashToGroup(tickNumber: number, previousOutput: Uint8Array, batchHash: Uint8Array): Uint8Array {
    checkTickNumber(tickNumber);
    checkElement(previousOutput, 'previous output');
    checkBatchHash(batchHash);
    this.arith.hashToGroup(this.tmp, tickNumber, previousOutput, batchHash);
    const x = this.arith.store(this.tmp);
    // x < 2 (probability ~2^-2040) is replaced by 2, as in the reference.
    let high = 0;
    for (let i = 0; i < ELEMENT_BYTES - 1; i++) high |= x[i];
    const substituted = high === 0 && x[ELEMENT_BYTES - 1] < 2;
    this.tmpHoldsInput = !substituted;
    this.lastInput = substituted ? undefined : x;
    return substituted ? bigIntToBytes(2n, ELEMENT_BYTES) : x.slice();
  }

  evaluate(x: Uint8Array, iterations: number): Uint8Array {
    checkElement(x, 'input');
    const t = checkIterations(iterations);
    this.tmpHoldsInput = false;
    this.lastInput = undefined;
    this.arith.load(this.tmp, x);
    this.arith.sqrn(this.tmp, t);
    return this.arith.store(this.tmp);
  }

  prove(x: Uint8Array, y: Uint8Array, iterations: number): Uint8Array {
    checkElement(x, 'input');
    checkElement(y, 'output');
    const t = checkIterations(iterations);
    const sq = (this.squarer ??= new CheckpointedSquarer(this.arith, this.slots));
    sq.start(x);
    sq.square(t);
    if (!bytesEqual(this.arith.store(sq.cur), y))
      throw new VdfError('OUTPUT_MISMATCH', 'output is not input^(2^iterations)');
    if (t <= TRIVIAL_PROOF_MAX_T) return ONE_BYTES.slice();
    const p = sq.prove(hashToPrime(x, y, t, this.isPrime));
    const out = this.arith.store(p);
    this.slots.free(p, 1);
    return out;
  }

  verify(tick: VdfTickInput): boolean {
    const t = checkTickShape(tick);
    if (!bytesEqual(this.hashToGroup(tick.tickNumber, tick.previousOutput, tick.header), tick.claim.input))
      return false;
    if (t <= TRIVIAL_PROOF_MAX_T) return this.checkTrivial(tick);
    const l = hashToPrime(tick.claim.input, tick.claim.output, t, this.isPrime);
    const base = this.slots.alloc(3);
    try {
      const p = this.prepare(tick, 0, base, l);
      return this.single(p);
    } finally {
      this.slots.free(base, 3);
    }
  }

  /**
   * Wesolowski proof of y = x^(2^T) from the raw checkpoints another instance's evaluator
   * exported (exportCheckpoints): ~T/8 + 512 multiplications (T/4 + 68 for short segments) instead of re-running the T
   * squarings. The checkpoints come from outside this thread, so the proof is checked
   * (pi^l x^r == y) before it is returned; bad checkpoints give a VdfError, never a bad proof.
   */
  proveFromCheckpoints(x: Uint8Array, y: Uint8Array, iterations: number, checkpoints: Uint8Array): Uint8Array {
    checkElement(x, 'input');
    checkElement(y, 'output');
    const t = checkIterations(iterations);
    if (t <= TRIVIAL_PROOF_MAX_T) return ONE_BYTES.slice();
    const k = checkpointsFor(t);
    if (!(checkpoints instanceof Uint8Array) || k > MAX_CHECKPOINTS || checkpoints.length !== k * this.arith.slotSize) {
      throw new VdfError('BAD_LENGTH', `checkpoints: expected ${k} slots of ${this.arith.slotSize} bytes for T = ${t}`);
    }
    const l = hashToPrime(x, y, t, this.isPrime);
    const base = this.slots.alloc(k);
    const check = this.slots.alloc(3);
    try {
      this.arith.importSlots(base, checkpoints);
      proveFromCheckpoints(this.arith, this.slots, check, (i) => base + i, quotientDigits(t, l));
      const proof = this.arith.store(check);
      const claim = { input: x, output: y, proof, iterations: t };
      const p = this.prepare({ tickNumber: 1, previousOutput: y, header: new Uint8Array(32), claim }, 0, check, l);
      if (!this.single(p)) throw new VdfError('OUTPUT_MISMATCH', 'checkpoints do not prove this output');
      return proof;
    } finally {
      this.slots.free(check, 3);
      this.slots.free(base, k);
    }
  }

  /** Slot tmp when it still holds exactly x (the last hashToGroup result), else undefined. */
  inputSlotFor(x: Uint8Array): number | undefined {
    return this.tmpHoldsInput && this.lastInput !== undefined && bytesEqual(this.lastInput, x) ? this.tmp : undefined;
  }

  /** Trivial claim check; call right after hashToGroup matched the input (slot reuse). */
  private checkTrivial(tick: VdfTickInput): boolean {
    if (!bytesEqual(tick.claim.proof, ONE_BYTES)) return false;
    // The slot still holds x from hashToGroup (Montgomery form): no reload needed.
    if (!this.tmpHoldsInput) this.arith.load(this.tmp, tick.claim.input);
    this.tmpHoldsInput = false;
    this.lastInput = undefined;
    this.arith.sqrn(this.tmp, tick.claim.iterations);
    return bytesEqual(this.arith.store(this.tmp), tick.claim.output);
  }

  private prepare(tick: VdfTickInput, index: number, base: number, l: bigint): Prepared {
    this.arith.load(base, tick.claim.proof);
    this.arith.load(base + 1, tick.claim.input);
    this.arith.load(base + 2, tick.claim.output);
    return { index, base, l, r: modPow(2n, BigInt(tick.claim.iterations), l), y: tick.claim.output };
  }

  /** Exact single check: |pi^l * x^r| == y. */
  private single(p: Prepared): boolean {
    multiExp(this.arith, this.slots, this.tmp + 1, [p.base, p.base + 1], [p.l, p.r]);
    return bytesEqual(this.arith.store(this.tmp + 1), p.y);
  }

  /** Random-exponent combination: prod (pi^l x^r)^rho == prod y^rho (as signed residues). */
  private combined(set: Prepared[]): boolean {
    const rho = randomExponents(set.length);
    const lhsBases: number[] = [];
    const lhsExps: bigint[] = [];
    const rhsBases: number[] = [];
    set.forEach((p, i) => {
      lhsBases.push(p.base, p.base + 1);
      lhsExps.push(rho[i] * p.l, rho[i] * p.r);
      rhsBases.push(p.base + 2);
    });
    multiExp(this.arith, this.slots, this.tmp + 2, lhsBases, lhsExps);
    multiExp(this.arith, this.slots, this.tmp + 3, rhsBases, rho);
    return bytesEqual(this.arith.store(this.tmp + 2), this.arith.store(this.tmp + 3));
  }

  verifyBatch(ticks: VdfTickInput[]): BatchVerdict {
    if (!Array.isArray(ticks)) throw new VdfError('BAD_TYPE', 'verifyBatch: expected an array of ticks');
    const invalid: number[] = [];
    const errors: BatchTickError[] = [];
    const nontrivial: { index: number; tick: VdfTickInput; l: bigint }[] = [];
    ticks.forEach((tick, index) => {
      try {
        const t = checkTickShape(tick);
        if (!bytesEqual(this.hashToGroup(tick.tickNumber, tick.previousOutput, tick.header), tick.claim.input)) {
          invalid.push(index);
        } else if (t <= TRIVIAL_PROOF_MAX_T) {
          if (!this.checkTrivial(tick)) invalid.push(index);
        } else {
          nontrivial.push({ index, tick, l: hashToPrime(tick.claim.input, tick.claim.output, t, this.isPrime) });
        }
      } catch (e) {
        if (!isVdfError(e)) throw e;
        invalid.push(index);
        errors.push({ index, code: e.code, message: e.message });
      }
    });
    // Combined checks over chunks of at most BATCH_CHUNK ticks bound WASM memory (3 slots a
    // tick). Soundness is unchanged: accepting a batch needs every chunk holding a bad tick
    // to pass its own check, each with probability at most 2^-64.
    for (let off = 0; off < nontrivial.length; off += this.batchChunk) {
      const part = nontrivial.slice(off, off + this.batchChunk);
      const base = this.slots.alloc(3 * part.length);
      try {
        const prepared = part.map((n, i) => this.prepare(n.tick, n.index, base + 3 * i, n.l));
        for (const p of bisect(
          prepared,
          (s) => this.combined(s),
          (p) => this.single(p),
        ))
          invalid.push(p.index);
      } finally {
        this.slots.free(base, 3 * part.length);
      }
    }
    invalid.sort((a, b) => a - b);
    return errors.length ? { ok: invalid.length === 0, invalid, errors } : { ok: invalid.length === 0, invalid };
  }

  evaluator(): VdfEvaluator {
    const sq = new CheckpointedSquarer(this.arith, this.slots);
    let started = false;
    const arith = this.arith;
    const slots = this.slots;
    const isPrime = this.isPrime;
    const self = this;
    const need = (): void => {
      if (!started) throw new VdfError('BAD_TYPE', 'evaluator: call start() first');
    };
    return {
      start(x: Uint8Array): void {
        checkElement(x, 'input');
        // The clock starts each tick from hashToGroup's result: take it from WASM memory.
        sq.start(x, self.inputSlotFor(x));
        started = true;
      },
      square(k: number): void {
        need();
        if (!Number.isInteger(k) || k < 0 || sq.count + k > MAX_ITERATIONS) {
          throw new VdfError(
            'BAD_ITERATIONS',
            `square(k): k must be a non-negative integer keeping the segment within ${MAX_ITERATIONS} iterations, got ${String(k)}`,
          );
        }
        sq.square(k);
      },
      get iterations(): number {
        return sq.count;
      },
      output(): Uint8Array {
        need();
        return arith.store(sq.cur);
      },
      exportCheckpoints(into?: Uint8Array): Uint8Array | undefined {
        need();
        return sq.exportCheckpoints(into);
      },
      prove(): Uint8Array {
        need();
        const t = checkIterations(sq.count);
        if (t <= TRIVIAL_PROOF_MAX_T) return ONE_BYTES.slice();
        const x = arith.store(sq.xSlot);
        const y = arith.store(sq.cur);
        const p = sq.prove(hashToPrime(x, y, t, isPrime));
        const out = arith.store(p);
        slots.free(p, 1);
        return out;
      },
    };
  }
}

/**
 * An independent engine over the VDF WASM, given as a compiled module or as the .wasm bytes
 * (synchronous compile; fine for the ~5 KB module). Works in Node, workers and browsers.
 */
export function createWasmVdfEngine(wasm: WebAssembly.Module | Uint8Array): WasmVdfEngine {
  const module = wasm instanceof WebAssembly.Module ? wasm : new WebAssembly.Module(wasm.slice());
  return new WasmVdfEngine(module);
}
