/**
 * The bisection logic on its own (a stand-in exact combined check): it names exactly the
 * bad items for any pattern, and its combined-check work stays within the budget even
 * when every item is bad.
 */
import { expect } from 'chai';
import { bisect } from '../../src/vdf/bisect.js';

describe('vdf: bisection', () => {
  const run = (n: number, badSet: Set<number>): { found: number[]; work: number; singles: number } => {
    let work = 0;
    let singles = 0;
    const items = Array.from({ length: n }, (_, i) => i);
    const found = bisect(
      items,
      (set) => {
        work += set.length;
        return set.every((i) => !badSet.has(i));
      },
      (i) => {
        singles++;
        return !badSet.has(i);
      },
    );
    return { found: found.sort((a, b) => a - b), work, singles };
  };

  it('names exactly the bad items for many patterns', () => {
    for (const n of [1, 2, 3, 7, 64, 1000]) {
      for (const pattern of [
        [],
        [0],
        [n - 1],
        [0, n - 1],
        Array.from({ length: n }, (_, i) => i).filter((i) => i % 7 === 3),
      ]) {
        const badSet = new Set(pattern.filter((i) => i < n));
        expect(run(n, badSet).found).to.deep.equal([...badSet].sort((a, b) => a - b));
      }
    }
  });

  it('one bad item among 1024 costs about 3n of combined work and at most two single checks', () => {
    const r = run(1024, new Set([517]));
    expect(r.found).to.deep.equal([517]);
    expect(r.work).to.be.at.most(3 * 1024);
    expect(r.singles).to.be.at.most(2);
  });

  it('an all-bad batch stays within the work budget (then checks items one by one)', () => {
    const n = 4096;
    const r = run(n, new Set(Array.from({ length: n }, (_, i) => i)));
    expect(r.found.length).to.equal(n);
    expect(r.work).to.be.at.most(4 * n + n);
    expect(r.singles).to.equal(n);
  });
});
