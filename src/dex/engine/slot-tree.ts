/**
 * The incremental Merkle commitment over one market's book.
 *
 * Every resting order occupies a slot (0, 1, 2, ...). A freed slot is reused last-in
 * first-out, so slot assignment is a pure function of the applied transactions. The tree
 * has a power-of-two capacity C (64, doubled when full); its root is exactly the RFC 6962
 * Merkle Tree Hash (src/crypto/merkle.ts) of the C leaf entries, where an occupied slot's
 * entry is the order's leaf record (docs/dex-api.md "State root") and an empty slot's
 * entry is the empty byte string.
 *
 * Updates only mark a slot dirty (O(1)); `root()` rehashes the dirty leaves and their
 * ancestors, so a root after every order costs about (changed slots x log2 C) hashes, and
 * a root taken once per tick costs less.
 */
import { leafHash, nodeHash } from '../../crypto/index.js';
import { sha256 } from '../../crypto/index.js';

const EMPTY = new Uint8Array(0);
const EMPTY_LEAF = leafHash(EMPTY);
// Scratch buffers: 0x00 || leaf data and 0x01 || left || right, hashed without allocating
// a buffer per node (the same bytes as merkle.ts leafHash / nodeHash).
const nodeScratch = new Uint8Array(65);
nodeScratch[0] = 0x01;
let leafScratch = new Uint8Array(128);

function hashLeaf(data: Uint8Array): Uint8Array {
  if (data.length + 1 > leafScratch.length) leafScratch = new Uint8Array(data.length + 1);
  leafScratch[0] = 0x00;
  leafScratch.set(data, 1);
  return sha256(leafScratch.subarray(0, data.length + 1));
}

function hashNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  nodeScratch.set(left, 1);
  nodeScratch.set(right, 33);
  return sha256(nodeScratch);
}

export type LeafEncoder = (slot: number) => Uint8Array | undefined;

export class SlotTree {
  private capacity = 64;
  /** levels[0] = leaf hashes, levels[k] = hashes of height k; levels[top] has one node. */
  private levels: Uint8Array[][] = [];
  private dirty: number[] = [];
  private dirtyFlag = new Uint8Array(64);
  private readonly free: number[] = [];
  private next = 0;
  private static emptyByHeight: Uint8Array[] = [EMPTY_LEAF];

  constructor(private readonly encode: LeafEncoder) {
    this.levels = SlotTree.emptyLevels(this.capacity);
  }

  private static emptyAt(h: number): Uint8Array {
    const e = SlotTree.emptyByHeight;
    while (e.length <= h) e.push(nodeHash(e[e.length - 1]!, e[e.length - 1]!));
    return e[h]!;
  }

  private static emptyLevels(capacity: number): Uint8Array[][] {
    const levels: Uint8Array[][] = [];
    for (let h = 0, n = capacity; n >= 1; h++, n >>= 1) levels.push(new Array<Uint8Array>(n).fill(SlotTree.emptyAt(h)));
    return levels;
  }

  /** Take a slot for a new resting order (reusing the last freed one). */
  allocate(): number {
    const slot = this.free.length > 0 ? this.free.pop()! : this.next++;
    if (slot >= this.capacity) this.grow();
    this.touch(slot);
    return slot;
  }

  /** Give back a slot whose order left the book; its entry becomes empty. */
  release(slot: number): void {
    this.free.push(slot);
    this.touch(slot);
  }

  /** The order in this slot changed (e.g. its remaining quantity). */
  touch(slot: number): void {
    if (this.dirtyFlag[slot] === 0) {
      this.dirtyFlag[slot] = 1;
      this.dirty.push(slot);
    }
  }

  private grow(): void {
    const old = this.levels;
    const cap = this.capacity * 2;
    const levels = SlotTree.emptyLevels(cap);
    for (let h = 0; h < old.length; h++) {
      const src = old[h]!;
      const dst = levels[h]!;
      for (let i = 0; i < src.length; i++) dst[i] = src[i]!;
    }
    // The new top node = H(old root, empty subtree of the same height).
    const flag = new Uint8Array(cap);
    flag.set(this.dirtyFlag);
    this.dirtyFlag = flag;
    this.levels = levels;
    this.capacity = cap;
    const top = levels.length - 1;
    levels[top]![0] = nodeHash(levels[top - 1]![0]!, levels[top - 1]![1]!);
  }

  root(): Uint8Array {
    if (this.dirty.length > 0) this.flush();
    return this.levels[this.levels.length - 1]![0]!;
  }

  private flush(): void {
    let current = this.dirty;
    this.dirty = [];
    const leaves = this.levels[0]!;
    for (const slot of current) {
      this.dirtyFlag[slot] = 0;
      const data = this.encode(slot);
      leaves[slot] = data === undefined ? EMPTY_LEAF : hashLeaf(data);
    }
    for (let h = 1; h < this.levels.length; h++) {
      const below = this.levels[h - 1]!;
      const here = this.levels[h]!;
      const parents: number[] = [];
      let last = -1;
      current.sort((a, b) => a - b);
      for (const i of current) {
        const p = i >> 1;
        if (p === last) continue;
        last = p;
        parents.push(p);
        here[p] = hashNode(below[2 * p]!, below[2 * p + 1]!);
      }
      current = parents;
    }
  }

  /** Current capacity C (the number of leaf entries the root covers). */
  get size(): number {
    return this.capacity;
  }

  /** Slot allocation state, for snapshots: slots ever used, and the freed ones (a stack). */
  allocationState(): { next: number; free: readonly number[] } {
    return { next: this.next, free: this.free };
  }

  /**
   * Rebuild after a snapshot: the allocation state as exported, every occupied slot marked
   * dirty so the next root() hashes them (O(occupied x log C), once, at start).
   */
  restore(next: number, free: readonly number[], occupied: Iterable<number>): void {
    let capacity = 64;
    while (capacity < next) capacity *= 2;
    this.capacity = capacity;
    this.levels = SlotTree.emptyLevels(capacity);
    this.dirtyFlag = new Uint8Array(capacity);
    this.dirty = [];
    this.next = next;
    this.free.length = 0;
    for (const f of free) this.free.push(f);
    for (const slot of occupied) {
      if (slot < 0 || slot >= next) throw new Error(`snapshot: slot ${slot} outside 0..${next - 1}`);
      this.touch(slot);
    }
  }

  /**
   * For proofs (docs/proofs.md): the entry at `slot` (a copy; undefined for an empty slot)
   * and its RFC 6962 audit path to root(), leaf to root, over the current capacity.
   */
  member(slot: number): { entry: Uint8Array | undefined; path: Uint8Array[] } {
    if (!Number.isSafeInteger(slot) || slot < 0 || slot >= this.capacity)
      throw new RangeError(`slot ${slot} outside 0..${this.capacity - 1}`);
    this.root();
    const path: Uint8Array[] = [];
    for (let h = 0; h < this.levels.length - 1; h++) path.push(this.levels[h]![(slot >> h) ^ 1]!);
    return { entry: this.encode(slot)?.slice(), path };
  }
}
