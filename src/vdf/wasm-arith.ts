/**
 * Thin, environment-neutral wrapper over the AssemblyScript module (assembly/index.ts):
 * numbered registers ("slots") of Montgomery-form elements kept in WASM linear memory,
 * and the few primitive operations on them (mul, sqr, k squarings, load/store of
 * 256-byte canonical elements). Higher algorithms (exponentiation, multi-exponentiation,
 * proofs) are written in TypeScript on top of these: a call costs ~20 ns against ~2 us
 * of arithmetic. No Node built-ins: the browser verifier uses this file as is.
 */
import { DOMAIN_HASH_TO_GROUP, ELEMENT_BYTES, HALF_N, N } from './constants.js';
import { VdfError } from './errors.js';
import { MR_BASES, millerRabin, passesTrialDivision } from './primes.js';

interface VdfExports {
  memory: WebAssembly.Memory;
  SLOT_BYTES: WebAssembly.Global;
  ptrN(): number;
  ptrNRev(): number;
  ptrR2(): number;
  ptrHalf(): number;
  ptrIO(): number;
  ptrC2048(): number;
  load320(dst: number): void;
  heapBase(): number;
  setN0Inv(v: number): void;
  mul(dst: number, a: number, b: number): void;
  sqr(dst: number, a: number): void;
  sqrn(x: number, k: number): void;
  copy(dst: number, src: number): void;
  load256(dst: number): void;
  store256(src: number): void;
  one(dst: number): void;
  ptrMR(): number;
  mrRound(base: number): number;
  mrSetup(): void;
  ptrH2GTag(): number;
  setH2GTagLength(n: number): void;
  hashToGroup(dst: number, tickHi: number, tickLo: number): void;
}

const LIMB_BITS = 28n;
const LIMBS = 74;
const R = 1n << (LIMB_BITS * BigInt(LIMBS));

function limbs(v: bigint): Uint32Array {
  const out = new Uint32Array(LIMBS);
  let x = v;
  for (let i = 0; i < LIMBS; i++) {
    out[i] = Number(x & 0xfffffffn);
    x >>= LIMB_BITS;
  }
  return out;
}

/** -N^-1 mod 2^28 by Newton iteration. */
function negInverse28(): number {
  const m = 1n << LIMB_BITS;
  const n0 = N % m;
  let inv = 1n;
  for (let i = 0; i < 6; i++) inv = (inv * (2n - n0 * inv)) % m;
  return Number((m - ((inv + m) % m)) % m);
}

export class WasmArith {
  private readonly ex: VdfExports;
  private readonly base: number;
  private readonly slotBytes: number;
  private readonly io: number;
  private slots = 0;

  constructor(module: WebAssembly.Module) {
    let instance: WebAssembly.Instance;
    try {
      instance = new WebAssembly.Instance(module, {
        env: {
          abort: () => {
            throw new VdfError('ENGINE', 'WASM abort');
          },
        },
      });
    } catch (e) {
      throw new VdfError('ENGINE', `cannot instantiate the VDF WASM module: ${(e as Error).message}`);
    }
    this.ex = instance.exports as unknown as VdfExports;
    this.slotBytes = this.ex.SLOT_BYTES.value as number;
    this.base = this.ex.heapBase();
    this.io = this.ex.ptrIO();
    const mem = new Uint32Array(this.ex.memory.buffer);
    mem.set(limbs(N), this.ex.ptrN() >>> 2);
    mem.set(limbs(N).reverse(), this.ex.ptrNRev() >>> 2);
    mem.set(limbs((R * R) % N), this.ex.ptrR2() >>> 2);
    mem.set(limbs(HALF_N), this.ex.ptrHalf() >>> 2);
    mem.set(limbs(((1n << 2048n) * R * R) % N), this.ex.ptrC2048() >>> 2);
    this.ex.setN0Inv(negInverse28());
    const tag = new TextEncoder().encode(DOMAIN_HASH_TO_GROUP);
    new Uint8Array(this.ex.memory.buffer, this.ex.ptrH2GTag(), tag.length).set(tag);
    this.ex.setH2GTagLength(tag.length);
  }

  /** Make sure slots 0..count-1 exist (grows linear memory; new memory is zero). */
  ensure(count: number): void {
    if (count <= this.slots) return;
    const need = this.base + (count + 1) * this.slotBytes;
    const have = this.ex.memory.buffer.byteLength;
    if (need > have) this.ex.memory.grow(Math.ceil((need - have) / 65536));
    this.slots = count;
  }

  /** Bytes of one slot (a Montgomery-form element with its padding). */
  get slotSize(): number {
    return this.slotBytes;
  }

  /**
   * Copy the raw bytes of slots first..first+count-1 into `into` at byte `offset`, to hand to
   * another instance of this module (one copy, no intermediate array).
   */
  exportSlotsInto(first: number, count: number, into: Uint8Array, offset: number): void {
    into.set(new Uint8Array(this.ex.memory.buffer, this.addr(first), count * this.slotBytes), offset);
  }

  /** Write raw slot bytes taken by exportSlotsInto() (of any instance of this module) at slot first. */
  importSlots(first: number, raw: Uint8Array): void {
    new Uint8Array(this.ex.memory.buffer, this.addr(first), raw.length).set(raw);
  }

  /** Address of slot i (callers ensure() first). */
  addr(i: number): number {
    return this.base + i * this.slotBytes;
  }

  mul(dst: number, a: number, b: number): void {
    this.ex.mul(this.addr(dst), this.addr(a), this.addr(b));
  }
  sqr(dst: number, a: number): void {
    this.ex.sqr(this.addr(dst), this.addr(a));
  }
  sqrn(x: number, k: number): void {
    if (k > 0) this.ex.sqrn(this.addr(x), k);
  }
  copy(dst: number, src: number): void {
    this.ex.copy(this.addr(dst), this.addr(src));
  }
  one(dst: number): void {
    this.ex.one(this.addr(dst));
  }

  /** Load 256 big-endian bytes (value must already be checked to be < N). */
  load(dst: number, bytes: Uint8Array): void {
    if (bytes.length !== ELEMENT_BYTES) throw new VdfError('BAD_LENGTH', 'element must be 256 bytes');
    new Uint8Array(this.ex.memory.buffer, this.io, ELEMENT_BYTES).set(bytes);
    this.ex.load256(this.addr(dst));
  }

  /** Load a 320-byte big-endian value reduced mod N (hash-to-group). */
  load320(dst: number, bytes: Uint8Array): void {
    if (bytes.length !== 320) throw new VdfError('BAD_LENGTH', 'wide value must be 320 bytes');
    new Uint8Array(this.ex.memory.buffer, this.io, 320).set(bytes);
    this.ex.load320(this.addr(dst));
  }

  /**
   * Hash-to-group into slot dst (arguments already validated): SHA-256 and the 2560-bit
   * reduction both in WASM.
   */
  hashToGroup(dst: number, tickNumber: number, previousOutput: Uint8Array, batchHash: Uint8Array): void {
    const io = new Uint8Array(this.ex.memory.buffer, this.io, 288);
    io.set(previousOutput, 0);
    io.set(batchHash, 256);
    this.ex.hashToGroup(this.addr(dst), Math.floor(tickNumber / 2 ** 32), tickNumber >>> 0);
  }

  /** Canonical signed residue of slot src as 256 big-endian bytes (a fresh copy). */
  store(src: number): Uint8Array {
    this.ex.store256(this.addr(src));
    return new Uint8Array(this.ex.memory.buffer, this.io, ELEMENT_BYTES).slice();
  }

  /**
   * The hash-to-prime primality test (primes.ts, same answers as isProbablePrime) for an
   * odd n with 2^127 < n < 2^128: trial division in JS, Miller-Rabin rounds in WASM.
   */
  isProbablePrime128(n: bigint): boolean {
    if ((n & 1n) === 0n || n >> 127n === 0n) throw new VdfError('OUT_OF_RANGE', 'expected an odd number above 2^127');
    if (!passesTrialDivision(n)) return false;
    return this.millerRabin128(n);
  }

  /** The 12 Miller-Rabin rounds of primes.ts for an odd n > 2^127 (BigInt beyond 2^128). */
  millerRabin128(n: bigint): boolean {
    if (n >> 128n !== 0n) return MR_BASES.every((a) => millerRabin(n, a));
    const io = new Uint32Array(this.ex.memory.buffer, this.ex.ptrMR(), 4);
    io[0] = Number(n & 0xffffffffn);
    io[1] = Number((n >> 32n) & 0xffffffffn);
    io[2] = Number((n >> 64n) & 0xffffffffn);
    io[3] = Number(n >> 96n);
    this.ex.mrSetup();
    for (const a of MR_BASES) if (this.ex.mrRound(Number(a)) !== 1) return false;
    return true;
  }
}
