/**
 * The replay window's hash table of slot numbers (src/sequencer/replay-table.ts) alone:
 * entries whose home is the last position wrap to the first, and removal by backward
 * shift keeps every remaining entry findable from its home whatever the order of removals
 * (a randomized run against a plain Map, with a tiny table and few distinct fingerprints).
 */
import { expect } from 'chai';
import { SlotTable } from '../../src/sequencer/replay-table.js';

/** Insert `slot` at the first empty position of its run, as the replay window does. */
function insert(t: SlotTable, slot: number, lo: number): void {
  let pos = t.home(lo);
  while (t.slotAt(pos) >= 0) pos = t.next(pos);
  t.put(pos, slot, lo);
}

describe('sequencer/replay-table', () => {
  it('sizes itself at a load of at most 2/3, in a power of two', () => {
    expect(new SlotTable(100_000, 1).capacity).to.equal(262_144);
    expect(new SlotTable(3, 1).capacity).to.equal(16);
    expect(new SlotTable(11, 1).capacity).to.equal(32);
  });

  it('wraps a run past the last position and shifts it back on removal', () => {
    const t = new SlotTable(10, 5);
    let lo = 0;
    while (t.home(lo) !== t.capacity - 1) lo++;
    for (let slot = 0; slot < 4; slot++) insert(t, slot, lo);
    // The run: the last position, then 0, 1, 2.
    expect([t.slotAt(t.capacity - 1), t.slotAt(0), t.slotAt(1), t.slotAt(2)]).to.deep.equal([0, 1, 2, 3]);
    t.remove(t.find(1, lo));
    expect([t.find(0, lo), t.find(2, lo), t.find(3, lo), t.find(1, lo)]).to.deep.equal([t.capacity - 1, 0, 1, -1]);
    expect(t.slotAt(2)).to.equal(-1);
    t.remove(t.find(0, lo));
    expect([t.find(2, lo), t.find(3, lo)]).to.deep.equal([t.capacity - 1, 0]);
  });

  it('agrees with a Map over 100,000 inserts and removals (few fingerprints, runs wrapping)', () => {
    const t = new SlotTable(10, 99);
    const live = new Map<number, number>(); // slot -> lo
    let x = 4242;
    const rnd = (n: number): number => {
      x = (x * 1103515245 + 12345) >>> 0;
      return (x >>> 8) % n;
    };
    let nextSlot = 0;
    for (let i = 0; i < 100_000; i++) {
      if (live.size < 10 && (live.size === 0 || rnd(2) === 0)) {
        const lo = rnd(5) - 2; // negative words too, as fingerprints are int32
        insert(t, nextSlot, lo);
        live.set(nextSlot++, lo);
      } else {
        const slots = [...live.keys()];
        const slot = slots[rnd(slots.length)]!;
        const lo = live.get(slot)!;
        t.remove(t.find(slot, lo));
        live.delete(slot);
        if (t.find(slot, lo) !== -1) expect.fail(`step ${i}: removed slot ${slot} still found`);
      }
      for (const [slot, lo] of live) {
        if (t.find(slot, lo) < 0) expect.fail(`step ${i}: slot ${slot} lost`);
      }
      let occupied = 0;
      for (let pos = 0; pos < t.capacity; pos++) if (t.slotAt(pos) >= 0) occupied++;
      if (occupied !== live.size) expect.fail(`step ${i}: ${occupied} occupied, ${live.size} live`);
    }
  });
});
