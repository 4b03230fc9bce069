/**
 * --snapshot-ticks: a chain with no order book transactions is still snapshotted every N
 * ticks, so a restart replays at most about N ticks (before, such a chain replayed from
 * genesis: 5.2 s for 20,000 empty ticks on a follower).
 */
import { expect } from 'chai';
import { defaultFaces } from '../../src/node/faces.js';
import { runtimeProbe, startChainNode } from './support/node.js';

describe('chain: snapshots every --snapshot-ticks ticks', function () {
  this.timeout(60_000);

  it('snapshots a chain without order book transactions every N ticks (restarts load the latest: test/chain/e2e.test.ts)', async () => {
    const probe = runtimeProbe();
    const n = await startChainNode({
      args: ['--idle-tick-ms', '2', '--snapshot-ticks', '40'],
      faces: [...defaultFaces(), probe.face],
    });
    const seen = new Set<number>();
    try {
      const until = Date.now() + 30_000;
      while (seen.size < 3 && Date.now() < until) {
        const snap = await probe.runtime().chain.store.loadSnapshot();
        if (snap) seen.add(snap.tick);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await n.close();
    }
    const ticks = [...seen].sort((a, b) => a - b);
    expect(ticks.length, 'three snapshots while running').to.be.at.least(3);
    // Every snapshot comes 40 ticks after the one before (its own tick counted from the last).
    for (const t of ticks) expect(t % 40, `snapshot at tick ${t}`).to.equal(0);
  });
});
