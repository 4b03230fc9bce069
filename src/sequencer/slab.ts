/**
 * Bump allocator of small byte ranges out of 256 KiB slabs. Each accepted transaction
 * keeps one range (its Borsh bytes, which also hold its payload, signature and public
 * key); with a slab per few thousand transactions instead of an ArrayBuffer per field,
 * the garbage collector tracks far fewer external buffers. Transactions leave in FIFO
 * order, so a slab is freed soon after its last transaction is ticked.
 */
const SLAB_BYTES = 256 * 1024;

export class SlabAllocator {
  private slab = new Uint8Array(SLAB_BYTES);
  private pos = 0;

  alloc(n: number): Uint8Array {
    if (n > SLAB_BYTES / 4) return new Uint8Array(n);
    if (this.pos + n > this.slab.length) {
      this.slab = new Uint8Array(SLAB_BYTES);
      this.pos = 0;
    }
    const out = this.slab.subarray(this.pos, this.pos + n);
    this.pos += (n + 7) & ~7;
    return out;
  }
}
