/**
 * The arrival line's queue (src/intake/fifo.ts): items come out in the order they went in,
 * indexed from the front, across bulk drops from the front and the compaction that follows
 * many of them; dropping more than is queued is refused.
 */
import { expect } from 'chai';
import { Fifo } from '../../src/intake/index.js';

describe('intake/fifo', () => {
  it('keeps push order across drops and compactions', () => {
    const q = new Fifo<number>();
    let next = 0; // the next number to push
    let front = 0; // the number that should be at the front
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 300; i++) q.push(next++);
      // Most of the queue: the dead head outgrows the live part, so the array compacts.
      const n = q.length - 1 - ((round * 37) % 60);
      q.drop(n);
      front += n;
      expect(q.length).to.equal(next - front);
      expect(q.at(0)).to.equal(front);
      expect(q.at(q.length - 1)).to.equal(next - 1);
    }
    for (let i = 0; i < q.length; i++) expect(q.at(i)).to.equal(front + i);
  });

  it('refuses to drop more than it holds, and stays as it was', () => {
    const q = new Fifo<string>();
    q.push('a');
    q.push('b');
    expect(() => q.drop(3)).to.throw(RangeError, 'dropping more items than queued');
    expect(q.length).to.equal(2);
    q.drop(2);
    expect(q.length).to.equal(0);
  });
});
