/**
 * A tiny allocator of WASM slots (registers) for the algorithms in TypeScript: blocks of
 * contiguous slots are taken with alloc(n) and returned with free(); freed blocks are
 * reused by later requests of the same or smaller size, so long-running engines (the
 * clock, pool workers) do not grow their memory without bound.
 */
import type { WasmArith } from './wasm-arith.js';

export class SlotAllocator {
  private next = 0;
  private readonly freeBlocks: { base: number; size: number }[] = [];

  constructor(private readonly arith: WasmArith) {}

  alloc(size: number): number {
    let best = -1;
    for (let i = 0; i < this.freeBlocks.length; i++) {
      const b = this.freeBlocks[i];
      if (b.size >= size && (best < 0 || b.size < this.freeBlocks[best].size)) best = i;
    }
    if (best >= 0) {
      const b = this.freeBlocks[best];
      this.freeBlocks.splice(best, 1);
      if (b.size > size) this.freeBlocks.push({ base: b.base + size, size: b.size - size });
      return b.base;
    }
    const base = this.next;
    this.next += size;
    this.arith.ensure(this.next);
    return base;
  }

  free(base: number, size: number): void {
    if (size > 0) this.freeBlocks.push({ base, size });
  }
}
