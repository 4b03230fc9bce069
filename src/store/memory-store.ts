/**
 * The in-memory window of recent ticks (`--retain-ticks`): packed records (./packed.ts)
 * appended into large chunk buffers, a Uint32Array of record offsets per chunk, and
 * whole chunks dropped once every tick in them has left the window. So a retained tick
 * costs its packed bytes plus 4, there is no per-tick JS object, and eviction is O(1).
 *
 * A chunk holds at most ceil(retainTicks / 8) ticks, so at most 1/8 more than
 * `retainTicks` ticks stay in memory. The first record of each chunk carries its
 * previous output inline; the others take it from the record before them.
 *
 * `retainBytes` (--retain-bytes) bounds the same window by memory: chunks are at most
 * retainBytes / 8 bytes, and whole old chunks are dropped while the allocated bytes exceed
 * retainBytes, so at most 1/8 more than `retainBytes` stays allocated (a single tick larger
 * than a chunk gets a chunk of its own; the newest chunk always stays). Whichever bound is
 * reached first evicts.
 */
import type { Tick, TickSummary } from '../core/index.js';
import {
  outputView,
  packedSize,
  readPacked,
  readSummary,
  recordLength,
  type PackInput,
  writePacked,
} from './packed.js';

const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;

interface Chunk {
  buf: Uint8Array;
  view: DataView;
  used: number;
  firstTick: number;
  count: number;
  offsets: Uint32Array;
}

export class MemoryTickStore {
  private chunks: Chunk[] = [];
  private readonly ticksPerChunk: number;
  private readonly chunkBytes: number;
  private latestTick = 0;
  private allocated = 0;

  constructor(
    readonly retainTicks: number,
    chunkBytes = DEFAULT_CHUNK_BYTES,
    readonly retainBytes = Number.POSITIVE_INFINITY,
  ) {
    if (!Number.isInteger(retainTicks) || retainTicks < 1) throw new RangeError('retainTicks must be an integer >= 1');
    if (!(retainBytes > 0)) throw new RangeError('retainBytes must be > 0');
    this.ticksPerChunk = Math.max(1, Math.ceil(retainTicks / 8));
    this.chunkBytes = Math.min(chunkBytes, Math.max(4096, Math.floor(retainBytes / 8)));
  }

  /** Latest tick held (0 when empty). */
  latest(): number {
    return this.latestTick;
  }

  /** Oldest tick held (0 when empty). */
  oldest(): number {
    return this.chunks.length > 0 ? this.chunks[0]!.firstTick : 0;
  }

  /** Ticks held. */
  size(): number {
    let n = 0;
    for (const c of this.chunks) n += c.count;
    return n;
  }

  /** Bytes allocated for records and offsets. */
  allocatedBytes(): number {
    return this.allocated;
  }

  has(tickNumber: number): boolean {
    return this.locate(tickNumber) !== undefined;
  }

  /**
   * Append the next tick. Ticks must come in order; a gap (e.g. after a restart that
   * preloaded only part of the history) starts a fresh chunk.
   */
  append(input: PackInput): void {
    const n = input.tick.tickNumber;
    if (this.latestTick !== 0 && n <= this.latestTick) throw new Error(`tick ${n} appended after ${this.latestTick}`);
    let chunk = this.chunks[this.chunks.length - 1];
    if (
      !chunk ||
      n !== this.latestTick + 1 ||
      chunk.count >= this.ticksPerChunk ||
      chunk.used + packedSize(input, false) > chunk.buf.length
    ) {
      chunk = this.newChunk(n, packedSize(input, true));
      this.chunks.push(chunk);
    }
    const prevInline = chunk.count === 0;
    const off = chunk.used;
    chunk.used += writePacked(chunk.buf, chunk.view, off, input, prevInline);
    if (chunk.count === chunk.offsets.length) {
      const grown = new Uint32Array(Math.min(this.ticksPerChunk, chunk.offsets.length * 2));
      grown.set(chunk.offsets);
      this.allocated += grown.byteLength - chunk.offsets.byteLength;
      chunk.offsets = grown;
    }
    chunk.offsets[chunk.count++] = off;
    this.latestTick = n;
    this.evict();
  }

  private newChunk(firstTick: number, minBytes: number): Chunk {
    const want = Math.min(this.chunkBytes, this.ticksPerChunk * 1024);
    const bytes = Math.max(want, minBytes, 4096);
    const buf = new Uint8Array(bytes);
    const offsets = new Uint32Array(Math.min(this.ticksPerChunk, 1024));
    this.allocated += buf.byteLength + offsets.byteLength;
    return { buf, view: new DataView(buf.buffer), used: 0, firstTick, count: 0, offsets };
  }

  /** Drop whole old chunks outside the tick window or while over the byte bound (never the newest). */
  private evict(): void {
    const oldestWanted = this.latestTick - this.retainTicks + 1;
    while (this.chunks.length > 0) {
      const c = this.chunks[0]!;
      const overBytes = this.allocated > this.retainBytes && this.chunks.length > 1;
      if (c.firstTick + c.count - 1 >= oldestWanted && !overBytes) break;
      this.chunks.shift();
      this.allocated -= c.buf.byteLength + c.offsets.byteLength;
    }
  }

  private locate(tickNumber: number): { chunk: Chunk; index: number } | undefined {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = chunks[mid]!;
      if (tickNumber < c.firstTick) hi = mid - 1;
      else if (tickNumber >= c.firstTick + c.count) lo = mid + 1;
      else return { chunk: c, index: tickNumber - c.firstTick };
    }
    return undefined;
  }

  /** Decode a held tick; undefined if it is not in memory. */
  get(tickNumber: number): Tick | undefined {
    const at = this.locate(tickNumber);
    if (!at) return undefined;
    const { chunk, index } = at;
    const off = chunk.offsets[index]!;
    const prev = index > 0 ? outputView(chunk.buf, chunk.offsets[index - 1]!) : undefined;
    return readPacked(chunk.buf, chunk.view, off, prev);
  }

  /** Newest first, skipping `offset`, at most `limit`. */
  recent(limit: number, offset: number): TickSummary[] {
    const out: TickSummary[] = [];
    let skip = offset;
    for (let ci = this.chunks.length - 1; ci >= 0 && out.length < limit; ci--) {
      const c = this.chunks[ci]!;
      if (skip >= c.count) {
        skip -= c.count;
        continue;
      }
      for (let i = c.count - 1 - skip; i >= 0 && out.length < limit; i--) out.push(readSummary(c.view, c.offsets[i]!));
      skip = 0;
    }
    return out;
  }

  /** Packed bytes of a held record (for tests and the memory benchmark). */
  recordBytes(tickNumber: number): number | undefined {
    const at = this.locate(tickNumber);
    return at ? recordLength(at.chunk.view, at.chunk.offsets[at.index]!) : undefined;
  }
}
