/**
 * follow.lag_ms (src/follow/lag-clock.ts, docs/full-node.md "Lag and status"): the time
 * since this node learned the leader had the first tick it has not stored, with sub-second
 * resolution; 0 once caught up; a later head does not make the first unstored tick younger;
 * bounded memory under a long lag.
 */
import { expect } from 'chai';
import { LagClock } from '../../src/follow/lag-clock.js';

describe('follow: lag in milliseconds', () => {
  it('is the age of the first tick not stored yet, 0 when caught up', () => {
    const c = new LagClock();
    expect(c.lagMs(0, 1000)).to.equal(0); // nothing known beyond the stored tick
    c.known(1, 1000); // tick 1 arrives at t = 1000 ms
    c.known(2, 1040);
    c.known(3, 1080);
    expect(c.lagMs(0, 1100)).to.equal(100); // tick 1: known since 1000
    expect(c.lagMs(1, 1100)).to.equal(60); // tick 2: known since 1040
    expect(c.lagMs(2, 1100)).to.equal(20);
    expect(c.lagMs(3, 1100)).to.equal(0);
    c.known(3, 1200); // the same head again (GetStatus): nothing new
    expect(c.lagMs(3, 1300)).to.equal(0);
  });

  it('counts a tick known only from the leader status from when the status named it', () => {
    const c = new LagClock();
    c.known(10, 500); // GetStatus: the leader is at tick 10; this node has 4
    c.known(5, 520); // tick 5 then arrives on the stream: it was known since 500
    expect(c.lagMs(4, 700)).to.equal(200);
    expect(c.lagMs(9, 700)).to.equal(200); // tick 10, known since 500
    c.known(11, 650);
    expect(c.lagMs(10, 700)).to.equal(50);
  });

  it("keeps bounded memory when the leader runs far ahead, never understating the first tick's lag", () => {
    const c = new LagClock();
    for (let t = 1; t <= 100_000; t++) c.known(t, t);
    expect(c.lagMs(0, 100_000)).to.equal(99_999); // tick 1, known at 1 ms
    expect(c.lagMs(99_000, 100_000)).to.be.at.least(0);
    expect(c.lagMs(100_000, 100_001)).to.equal(0);
  });
});
