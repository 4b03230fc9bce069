/**
 * Single-producer single-consumer ring queue of fixed-size slots in a
 * SharedArrayBuffer: how transactions reach the clock worker and finished ticks leave
 * it without a postMessage per item (design.md "Threads").
 *
 * Layout of the buffer: a 64-byte header of Int32 words, then `slots * slotBytes` data.
 *   word 0  head: slots ever published by the producer (wraps modulo 2^32)
 *   word 1  tail: slots ever released by the consumer (wraps modulo 2^32)
 *   word 2  slot count (a power of two), word 3  slot size in bytes
 * Only the producer writes head and only the consumer writes tail; both are read and
 * written with Atomics, which orders the plain slot writes before them (a consumer
 * that sees head move also sees the slot bytes). The producer notifies on head so a
 * consumer can sleep in `Atomics.wait` / `Atomics.waitAsync`.
 *
 * Slot access is zero-copy: `writeOffset(k)` / `readOffset(k)` give the byte offset
 * (into `bytes` / `view`) of the k-th free / filled slot; `publish(n)` / `release(n)`
 * hand them over. `tryPush` / `tryShift` are copying conveniences.
 */

/** `Atomics.waitAsync` (Node >= 16); typed here because the project's lib is ES2022. */
type WaitAsyncResult =
  | { async: false; value: 'not-equal' | 'timed-out' }
  | { async: true; value: Promise<'ok' | 'timed-out'> };
const waitAsync = (
  Atomics as unknown as { waitAsync(a: Int32Array, index: number, value: number, timeout?: number): WaitAsyncResult }
).waitAsync.bind(Atomics);

/**
 * A pending Atomics.waitAsync does not keep Node's event loop alive: if nothing else
 * does (the other thread just exited), the process would end mid-await. A timer does;
 * it outlasts the wait's own timeout (which fires as a V8 task, possibly a little after
 * a timer of the same length) and is cleared as soon as the wait ends.
 */
async function keepAlive<T>(wait: Promise<T>, timeoutMs: number): Promise<T> {
  const timer = setTimeout(() => {}, Number.isFinite(timeoutMs) ? timeoutMs + 1000 : 2 ** 31 - 1);
  try {
    return await wait;
  } finally {
    clearTimeout(timer);
  }
}

const HEADER_BYTES = 64;
const HEAD = 0;
const TAIL = 1;
const SLOTS = 2;
const SLOT_BYTES = 3;

export class RingQueue {
  readonly buffer: SharedArrayBuffer;
  readonly slots: number;
  readonly slotBytes: number;
  /** The data region (all slots). */
  readonly bytes: Uint8Array;
  /** The data region as a DataView, for numeric fields inside slots. */
  readonly view: DataView;
  private readonly header: Int32Array;
  private readonly mask: number;

  /** Allocate a ring of `slots` (rounded up to a power of two) slots of `slotBytes` bytes. */
  static create(slots: number, slotBytes: number): RingQueue {
    if (!Number.isInteger(slots) || slots < 1 || slots > 1 << 30) throw new RangeError(`bad slot count ${slots}`);
    if (!Number.isInteger(slotBytes) || slotBytes < 1) throw new RangeError(`bad slot size ${slotBytes}`);
    let n = 1;
    while (n < slots) n *= 2;
    const size = Math.ceil(slotBytes / 8) * 8;
    const buffer = new SharedArrayBuffer(HEADER_BYTES + n * size);
    const header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    header[SLOTS] = n;
    header[SLOT_BYTES] = size;
    return new RingQueue(buffer);
  }

  /** Attach to a ring created elsewhere (e.g. in another thread). */
  static attach(buffer: SharedArrayBuffer): RingQueue {
    return new RingQueue(buffer);
  }

  private constructor(buffer: SharedArrayBuffer) {
    this.buffer = buffer;
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.slots = this.header[SLOTS]!;
    this.slotBytes = this.header[SLOT_BYTES]!;
    if (this.slots < 1 || (this.slots & (this.slots - 1)) !== 0 || this.slotBytes < 1) {
      throw new Error('not a ring buffer');
    }
    this.mask = this.slots - 1;
    this.bytes = new Uint8Array(buffer, HEADER_BYTES, this.slots * this.slotBytes);
    this.view = new DataView(buffer, HEADER_BYTES, this.slots * this.slotBytes);
  }

  /** Filled slots not yet released. */
  size(): number {
    return (Atomics.load(this.header, HEAD) - Atomics.load(this.header, TAIL)) >>> 0;
  }

  /** Free slots the producer may fill. */
  free(): number {
    return this.slots - this.size();
  }

  // ---- producer side ----

  /** Byte offset of the k-th free slot (k < free()). */
  writeOffset(k: number): number {
    return ((Atomics.load(this.header, HEAD) + k) & this.mask) * this.slotBytes;
  }

  /** Hand `n` written slots to the consumer and wake it. */
  publish(n: number): void {
    if (n <= 0) return;
    if (n > this.free()) throw new RangeError('publishing more slots than are free');
    Atomics.store(this.header, HEAD, (Atomics.load(this.header, HEAD) + n) | 0);
    Atomics.notify(this.header, HEAD);
  }

  /** Copy `data` (at most slotBytes) into the next slot; false when the ring is full. */
  tryPush(data: Uint8Array): boolean {
    if (data.length > this.slotBytes)
      throw new RangeError(`item of ${data.length} bytes exceeds slot size ${this.slotBytes}`);
    if (this.free() === 0) return false;
    this.bytes.set(data, this.writeOffset(0));
    this.publish(1);
    return true;
  }

  // ---- consumer side ----

  /** Byte offset of the k-th filled slot (k < size()). */
  readOffset(k: number): number {
    return ((Atomics.load(this.header, TAIL) + k) & this.mask) * this.slotBytes;
  }

  /** Give `n` read slots back to the producer. */
  release(n: number): void {
    if (n <= 0) return;
    if (n > this.size()) throw new RangeError('releasing more slots than are filled');
    Atomics.store(this.header, TAIL, (Atomics.load(this.header, TAIL) + n) | 0);
    Atomics.notify(this.header, TAIL);
  }

  /** Copy out and release the oldest slot; undefined when empty. */
  tryShift(): Uint8Array | undefined {
    if (this.size() === 0) return undefined;
    const off = this.readOffset(0);
    const out = this.bytes.slice(off, off + this.slotBytes);
    this.release(1);
    return out;
  }

  /**
   * Block the calling thread (a worker; the main thread may not block) until the ring
   * is non-empty or `timeoutMs` passes. Returns true if data is available.
   */
  waitForData(timeoutMs: number): boolean {
    const head = Atomics.load(this.header, HEAD);
    if ((head - Atomics.load(this.header, TAIL)) >>> 0 > 0) return true;
    Atomics.wait(this.header, HEAD, head, timeoutMs);
    return this.size() > 0;
  }

  /** Block (worker threads only) until a slot is free (true) or `timeoutMs` passed (false). */
  waitForSpace(timeoutMs: number): boolean {
    const tail = Atomics.load(this.header, TAIL);
    if ((Atomics.load(this.header, HEAD) - tail) >>> 0 < this.slots) return true;
    Atomics.wait(this.header, TAIL, tail, timeoutMs);
    return this.free() > 0;
  }

  /** Resolve once the ring is non-empty (true) or after `timeoutMs` (false); never blocks. */
  async waitForDataAsync(timeoutMs: number): Promise<boolean> {
    const head = Atomics.load(this.header, HEAD);
    if ((head - Atomics.load(this.header, TAIL)) >>> 0 > 0) return true;
    const res = waitAsync(this.header, HEAD, head, timeoutMs);
    if (res.async) await keepAlive(res.value, timeoutMs);
    return this.size() > 0;
  }

  /** Resolve once at least one slot is free (true) or after `timeoutMs` (false). */
  async waitForSpaceAsync(timeoutMs: number): Promise<boolean> {
    const tail = Atomics.load(this.header, TAIL);
    if (this.free() > 0) return true;
    const res = waitAsync(this.header, TAIL, tail, timeoutMs);
    if (res.async) await keepAlive(res.value, timeoutMs);
    return this.free() > 0;
  }
}
