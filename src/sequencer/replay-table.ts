/**
 * One index of the replay window (replay.ts): an open-addressing hash table (linear
 * probing) from a key's fingerprint to the window slot that holds the key, in one
 * preallocated Int32Array. Each position holds the slot number + 1 (0: empty) and the
 * fingerprint's low word, which both picks the home position and rejects most other keys
 * without touching the slot; the caller confirms a candidate against the slot's high word
 * and bytes. It never grows: sized for `maxEntries` at a load of at most 2/3.
 *
 * Removal shifts the following entries of the run back (no tombstones), so a window that
 * turns over forever keeps its runs as short as a fresh one's.
 *
 * The home position is the low word mixed with a seed (random per table unless given):
 * fingerprints are a public function of the keys (fingerprint.ts), so without it a client
 * could pick keys whose fingerprints fill one run. The seed only moves entries between
 * positions; no verdict depends on it. What it does not do: compare keys, or know what a
 * slot holds.
 */
export class SlotTable {
  private readonly entries: Int32Array; // [2p] slot + 1, [2p + 1] fingerprint low word
  private readonly mask: number;

  constructor(
    maxEntries: number,
    private readonly seed: number = randomSeed(),
  ) {
    let size = 16;
    while (size < maxEntries * 1.5) size *= 2;
    this.entries = new Int32Array(size * 2);
    this.mask = size - 1;
  }

  /** Positions (a power of two). */
  get capacity(): number {
    return this.mask + 1;
  }

  /** Where a key with this fingerprint low word starts its run. */
  home(lo: number): number {
    let h = lo ^ this.seed;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) & this.mask;
  }

  /** The position after `pos` in a run. */
  next(pos: number): number {
    return (pos + 1) & this.mask;
  }

  /** The slot at `pos`, or -1 where the position is empty (the run ends there). */
  slotAt(pos: number): number {
    return this.entries[pos * 2]! - 1;
  }

  /** The fingerprint low word at `pos` (an occupied position). */
  loAt(pos: number): number {
    return this.entries[pos * 2 + 1]!;
  }

  /** Put `slot` at `pos` (an empty position of its run, or one whose key it replaces). */
  put(pos: number, slot: number, lo: number): void {
    this.entries[pos * 2] = slot + 1;
    this.entries[pos * 2 + 1] = lo;
  }

  /** Where `slot` sits, its key's low word being `lo`; -1 if it is not in the table. */
  find(slot: number, lo: number): number {
    for (let pos = this.home(lo); ; pos = (pos + 1) & this.mask) {
      const s = this.entries[pos * 2]! - 1;
      if (s === slot) return pos;
      if (s < 0) return -1;
    }
  }

  /** Empty `pos`, moving back the entries after it that may stand nearer their home. */
  remove(pos: number): void {
    const e = this.entries;
    const mask = this.mask;
    let hole = pos;
    for (let j = (pos + 1) & mask; e[j * 2] !== 0; j = (j + 1) & mask) {
      const home = this.home(e[j * 2 + 1]!);
      // The entry at j may fill the hole unless its home lies after the hole, up to j.
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        e[hole * 2] = e[j * 2]!;
        e[hole * 2 + 1] = e[j * 2 + 1]!;
        hole = j;
      }
    }
    e[hole * 2] = 0;
    e[hole * 2 + 1] = 0;
  }
}

function randomSeed(): number {
  return globalThis.crypto.getRandomValues(new Int32Array(1))[0]!;
}
