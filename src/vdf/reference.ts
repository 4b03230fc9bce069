/**
 * Plain-BigInt reference implementation of the whole VDF construction (docs/vdf.md).
 * Deliberately simple and independent of the WASM engine, so tests can cross-check the
 * WASM arithmetic and the construction against it. Not fast: ~9 us per squaring.
 *
 * - evaluate: y = |x^(2^T) mod N| by T squarings;
 * - prove: Wesolowski pi = |x^floor(2^T / l)| by the on-the-fly long division of 2^T by l;
 *   for T < 128 (trivial proofs) pi = 1 and no prime is derived;
 * - verify: x must equal hash-to-group(tick, prev, batch); trivial: pi == 1 and y == x^(2^T)
 *   recomputed; otherwise |pi^l * x^(2^T mod l)| == y;
 * - verifyBatch: random-exponent combination of the non-trivial checks (64-bit exponents
 *   from crypto randomness), bisection to name bad ticks.
 */
import { bigIntToBytes } from './bytes.js';
import { ELEMENT_BYTES, MAX_ITERATIONS, N, TRIVIAL_PROOF_MAX_T } from './constants.js';
import { VdfError, isVdfError } from './errors.js';
import { hashToGroupBigInt, hashToPrime } from './hashing.js';
import type { BatchVerdict, VdfClaim, VdfEngine, VdfEvaluator, VdfTickInput } from './interface.js';
import { modPow } from './primes.js';
import { randomExponents } from './random.js';
import { checkIterations, checkTickInput, decodeElement, type DecodedClaim } from './validate.js';
import { bisect } from './bisect.js';

const canon = (v: bigint): bigint => (v > N - v ? N - v : v);
const enc = (v: bigint): Uint8Array => bigIntToBytes(canon(v), ELEMENT_BYTES);

function squareTimes(x: bigint, t: number): bigint {
  let v = x;
  for (let i = 0; i < t; i++) v = (v * v) % N;
  return v;
}

/** Wesolowski proof by long division: pi = x^floor(2^T / l) mod N. */
function proveBigInt(x: bigint, t: number, l: bigint): bigint {
  let pi = 1n;
  let r = 1n;
  for (let i = 0; i < t; i++) {
    const r2 = 2n * r;
    const b = r2 >= l ? 1n : 0n;
    r = r2 - b * l;
    pi = (pi * pi) % N;
    if (b) pi = (pi * x) % N;
  }
  return pi;
}

/** Non-trivial check value v = pi^l * x^(2^T mod l) mod N (to compare with ±y). */
function wesolowskiLhs(c: DecodedClaim, l: bigint): bigint {
  const r = modPow(2n, BigInt(c.t), l);
  return (modPow(c.pi, l, N) * modPow(c.x, r, N)) % N;
}

const sameElement = (v: bigint, y: bigint): boolean => v === y || v === N - y;

interface Prepared {
  index: number;
  claim: DecodedClaim;
  l: bigint; // 0n for trivial claims
}

export class ReferenceVdfEngine implements VdfEngine {
  hashToGroup(tickNumber: number, previousOutput: Uint8Array, batchHash: Uint8Array): Uint8Array {
    return bigIntToBytes(hashToGroupBigInt(tickNumber, previousOutput, batchHash), ELEMENT_BYTES);
  }

  evaluate(x: Uint8Array, iterations: number): Uint8Array {
    const xv = decodeElement(x, 'input');
    return enc(squareTimes(xv, checkIterations(iterations)));
  }

  prove(x: Uint8Array, y: Uint8Array, iterations: number): Uint8Array {
    const xv = decodeElement(x, 'input');
    const yv = decodeElement(y, 'output');
    const t = checkIterations(iterations);
    if (canon(squareTimes(xv, t)) !== yv) throw new VdfError('OUTPUT_MISMATCH', 'output is not input^(2^iterations)');
    if (t <= TRIVIAL_PROOF_MAX_T) return enc(1n);
    return enc(proveBigInt(xv, t, hashToPrime(x, y, t)));
  }

  verify(tick: VdfTickInput): boolean {
    const c = checkTickInput(tick);
    if (hashToGroupBigInt(tick.tickNumber, tick.previousOutput, tick.header) !== c.x) return false;
    return this.checkClaim(c, tick.claim);
  }

  private checkClaim(c: DecodedClaim, claim: VdfClaim): boolean {
    if (c.t <= TRIVIAL_PROOF_MAX_T) return c.pi === 1n && canon(squareTimes(c.x, c.t)) === c.y;
    return sameElement(wesolowskiLhs(c, hashToPrime(claim.input, claim.output, c.t)), c.y);
  }

  verifyBatch(ticks: VdfTickInput[]): BatchVerdict {
    if (!Array.isArray(ticks)) throw new VdfError('BAD_TYPE', 'verifyBatch: expected an array of ticks');
    const invalid: number[] = [];
    const errors: { index: number; code: string; message: string }[] = [];
    const pending: Prepared[] = [];
    ticks.forEach((tick, index) => {
      try {
        const c = checkTickInput(tick);
        if (hashToGroupBigInt(tick.tickNumber, tick.previousOutput, tick.header) !== c.x) {
          invalid.push(index);
        } else if (c.t <= TRIVIAL_PROOF_MAX_T) {
          // Trivial proofs: direct recomputation (exact, and cheaper than a combination).
          if (!(c.pi === 1n && canon(squareTimes(c.x, c.t)) === c.y)) invalid.push(index);
        } else {
          pending.push({ index, claim: c, l: hashToPrime(tick.claim.input, tick.claim.output, c.t) });
        }
      } catch (e) {
        if (!isVdfError(e)) throw e;
        invalid.push(index);
        errors.push({ index, code: e.code, message: e.message });
      }
    });
    const combined = (set: Prepared[]): boolean => {
      const rho = randomExponents(set.length);
      let lhs = 1n;
      let rhs = 1n;
      set.forEach((p, i) => {
        lhs = (lhs * modPow(wesolowskiLhs(p.claim, p.l), rho[i], N)) % N;
        // Each factor is only defined up to sign (signed residues); so is the product.
        rhs = (rhs * modPow(p.claim.y, rho[i], N)) % N;
      });
      return sameElement(lhs, rhs);
    };
    const single = (p: Prepared): boolean => sameElement(wesolowskiLhs(p.claim, p.l), p.claim.y);
    for (const p of bisect(pending, combined, single)) invalid.push(p.index);
    invalid.sort((a, b) => a - b);
    return errors.length ? { ok: invalid.length === 0, invalid, errors } : { ok: invalid.length === 0, invalid };
  }

  evaluator(): VdfEvaluator {
    let x = 0n;
    let v = 0n;
    let count = 0;
    let started = false;
    const self = this;
    return {
      start(input: Uint8Array): void {
        x = decodeElement(input, 'input');
        v = x;
        count = 0;
        started = true;
      },
      square(k: number): void {
        if (!started) throw new VdfError('BAD_TYPE', 'evaluator: start() first');
        if (!Number.isInteger(k) || k < 0 || count + k > MAX_ITERATIONS)
          throw new VdfError('BAD_ITERATIONS', `square(k): bad k ${String(k)}`);
        v = squareTimes(v, k);
        count += k;
      },
      get iterations(): number {
        return count;
      },
      output(): Uint8Array {
        if (!started) throw new VdfError('BAD_TYPE', 'evaluator: start() first');
        return enc(v);
      },
      prove(): Uint8Array {
        const t = checkIterations(count);
        if (t <= TRIVIAL_PROOF_MAX_T) return enc(1n);
        const xb = enc(x);
        return self.prove(xb, enc(v), t);
      },
    };
  }
}

export function referenceVdfEngine(): VdfEngine {
  return new ReferenceVdfEngine();
}
