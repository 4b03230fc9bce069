/**
 * What crosses between the main thread and the clock worker, byte by byte:
 *
 * - Transaction ring (main -> batcher), one slot per transaction: only what the batch
 *   needs (bodies stay on the main thread):
 *     0 f64 sequence number | 8 f64 ingestion timestamp (us) | 16 [32] full hash  (48 bytes)
 * - Batch ring (batcher -> clock), ONE slot: the next tick's ready batch, formed and
 *   hashed by the batcher thread while the clock squares the current tick, so the clock
 *   does no per-transaction work (issue 8):
 *     0 f64 first sequence | 8 u32 transaction count | 12 u32 reserved
 *    16 f64 last ingestion timestamp | 24 [32] batch hash | 56 [32] ingestion digest
 *                                                                    (88 bytes)
 *   (the ingestion digest and the header it goes into: src/vdf/binding.ts)
 *   One slot means at most one batch waits for the clock: under load the next batch grows
 *   while the clock squares, instead of the clock taking one-transaction ticks.
 * - Tick ring (clock -> main), one slot per closed tick:
 *     0 f64 tick number | 8 f64 iterations | 16 f64 timestamp (us) | 24 f64 first sequence
 *    32 u32 transaction count | 36 u32 flags | 40 [32] batch hash
 *    72 [256] input x | 328 [256] output y | 584 [256] proof pi
 *   840 [32] ingestion digest                                      (872 bytes)
 *   The timestamp is the tick's START: the header that x derives from binds it.
 *   flag PROOF_PENDING: the segment is too long for an inline proof; the main thread
 *   gets pi from the worker pool before the tick is stored.
 *   flag CHECKPOINTS: the clock posted the segment's checkpoints (a `checkpoints`
 *   message on the worker port, sent before the tick is published), so the pool proves
 *   from them instead of re-running the segment.
 * - Control block (SharedArrayBuffer of BigInt64 words): stop request, clock state and
 *   the number of the tick being squared (for expected_tick).
 * All numbers are little-endian.
 */
import type { RingQueue } from './ring.js';

export const TX_SLOT_BYTES = 48;
export const BATCH_SLOT_BYTES = 88;
export const TICK_SLOT_BYTES = 872;
export const ELEMENT_BYTES = 256;
export const HASH_BYTES = 32;

export const FLAG_PROOF_PENDING = 1;
export const FLAG_CHECKPOINTS = 2;

/** A closed tick as the clock reports it (bodies not included). */
export interface ClockTick {
  tickNumber: number;
  iterations: number;
  timestamp: number;
  firstSequence: number;
  txCount: number;
  proofPending: boolean;
  hasCheckpoints?: boolean; // the segment's checkpoints were posted for the pool proof
  batchHash: Uint8Array;
  ingestionDigest: Uint8Array;
  input: Uint8Array;
  output: Uint8Array;
  proof: Uint8Array;
}

/** Producer side of the transaction ring: write the k-th free slot. */
export function writeTxSlot(
  ring: RingQueue,
  k: number,
  sequence: number,
  ingestionTimestamp: number,
  fullHash: Uint8Array,
): void {
  const off = ring.writeOffset(k);
  ring.view.setFloat64(off, sequence, true);
  ring.view.setFloat64(off + 8, ingestionTimestamp, true);
  ring.bytes.set(fullHash, off + 16);
}

export function readTxSequence(ring: RingQueue, k: number): number {
  return ring.view.getFloat64(ring.readOffset(k), true);
}

export function readTxIngestion(ring: RingQueue, k: number): number {
  return ring.view.getFloat64(ring.readOffset(k) + 8, true);
}

/** View (no copy) of the k-th filled slot's hash; valid until released. */
export function readTxHashView(ring: RingQueue, k: number): Uint8Array {
  const off = ring.readOffset(k) + 16;
  return ring.bytes.subarray(off, off + HASH_BYTES);
}

/** A batch ready for the clock: what one tick carries, already hashed. */
export interface ReadyBatch {
  firstSequence: number; // 0 for an empty batch
  txCount: number;
  lastIngestion: number; // the latest ingestion timestamp in it (0 when empty)
  batchHash: Uint8Array; // Merkle root of the full transaction hashes (crypto/merkle.ts)
  ingestionDigest: Uint8Array; // src/vdf/binding.ts ingestionDigest of its ingestion timestamps
}

export function writeBatchSlot(ring: RingQueue, k: number, b: ReadyBatch): void {
  const off = ring.writeOffset(k);
  ring.view.setFloat64(off, b.firstSequence, true);
  ring.view.setUint32(off + 8, b.txCount, true);
  ring.view.setUint32(off + 12, 0, true);
  ring.view.setFloat64(off + 16, b.lastIngestion, true);
  ring.bytes.set(b.batchHash, off + 24);
  ring.bytes.set(b.ingestionDigest, off + 56);
}

/** Copy the k-th filled batch slot out of the ring (a fixed size: nothing per transaction). */
export function readBatchSlot(ring: RingQueue, k: number): ReadyBatch {
  const off = ring.readOffset(k);
  return {
    firstSequence: ring.view.getFloat64(off, true),
    txCount: ring.view.getUint32(off + 8, true),
    lastIngestion: ring.view.getFloat64(off + 16, true),
    batchHash: ring.bytes.slice(off + 24, off + 56),
    ingestionDigest: ring.bytes.slice(off + 56, off + 88),
  };
}

export function writeTickSlot(ring: RingQueue, k: number, t: ClockTick): void {
  const off = ring.writeOffset(k);
  const v = ring.view;
  v.setFloat64(off, t.tickNumber, true);
  v.setFloat64(off + 8, t.iterations, true);
  v.setFloat64(off + 16, t.timestamp, true);
  v.setFloat64(off + 24, t.firstSequence, true);
  v.setUint32(off + 32, t.txCount, true);
  v.setUint32(off + 36, (t.proofPending ? FLAG_PROOF_PENDING : 0) | (t.hasCheckpoints ? FLAG_CHECKPOINTS : 0), true);
  ring.bytes.set(t.batchHash, off + 40);
  ring.bytes.set(t.input, off + 72);
  ring.bytes.set(t.output, off + 328);
  ring.bytes.set(t.proof, off + 584);
  ring.bytes.set(t.ingestionDigest, off + 840);
}

/** Copy the k-th filled tick slot out of the ring. */
export function readTickSlot(ring: RingQueue, k: number): ClockTick {
  const off = ring.readOffset(k);
  const v = ring.view;
  const b = ring.bytes;
  return {
    tickNumber: v.getFloat64(off, true),
    iterations: v.getFloat64(off + 8, true),
    timestamp: v.getFloat64(off + 16, true),
    firstSequence: v.getFloat64(off + 24, true),
    txCount: v.getUint32(off + 32, true),
    proofPending: (v.getUint32(off + 36, true) & FLAG_PROOF_PENDING) !== 0,
    hasCheckpoints: (v.getUint32(off + 36, true) & FLAG_CHECKPOINTS) !== 0,
    batchHash: b.slice(off + 40, off + 72),
    input: b.slice(off + 72, off + 328),
    output: b.slice(off + 328, off + 584),
    proof: b.slice(off + 584, off + 840),
    ingestionDigest: b.slice(off + 840, off + 872),
  };
}

const STOP = 0;
const STATE = 1;
const CURRENT_TICK = 2;
const PROOFS_BEHIND = 3;
const CONTROL_WORDS = 4;

/** How far the pool's proofs lag (ClockControl.setProofsBehind). */
export const PROOFS_ON_TIME = 0;
export const PROOFS_LAGGING = 1;
export const PROOFS_FAR_BEHIND = 2;
export type ProofsLevel = typeof PROOFS_ON_TIME | typeof PROOFS_LAGGING | typeof PROOFS_FAR_BEHIND;

export const CLOCK_STARTING = 0;
export const CLOCK_RUNNING = 1;
export const CLOCK_DONE = 2;
export const CLOCK_FAILED = 3;

/** Shared control words between the main thread and the clock. */
export class ClockControl {
  readonly buffer: SharedArrayBuffer;
  private readonly words: BigInt64Array;

  constructor(buffer?: SharedArrayBuffer) {
    this.buffer = buffer ?? new SharedArrayBuffer(CONTROL_WORDS * 8);
    this.words = new BigInt64Array(this.buffer);
  }

  requestStop(): void {
    Atomics.store(this.words, STOP, 1n);
  }
  stopRequested(): boolean {
    return Atomics.load(this.words, STOP) !== 0n;
  }
  setState(state: number): void {
    Atomics.store(this.words, STATE, BigInt(state));
  }
  state(): number {
    return Number(Atomics.load(this.words, STATE));
  }
  setCurrentTick(n: number): void {
    Atomics.store(this.words, CURRENT_TICK, BigInt(n));
  }
  /** The tick the clock is squaring now (its transactions were fixed when it started). */
  currentTick(): number {
    return Number(Atomics.load(this.words, CURRENT_TICK));
  }
  /**
   * Set by the main thread from the pool proofs in flight (clock-loop.ts): PROOFS_BEHIND, the
   * clock makes proof work less often; PROOFS_FAR_BEHIND, it makes none until the pool catches up.
   */
  setProofsBehind(level: ProofsLevel): void {
    Atomics.store(this.words, PROOFS_BEHIND, BigInt(level));
  }
  proofsBehind(): ProofsLevel {
    return Number(Atomics.load(this.words, PROOFS_BEHIND)) as ProofsLevel;
  }
}
