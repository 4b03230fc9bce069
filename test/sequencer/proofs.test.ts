/**
 * Proofs in flight (src/sequencer/proofs.ts): a proof starts startDelayMs after its tick is
 * handed over, settled proofs are taken in any order, and a failed proof is reported once
 * taken.
 */
import { expect } from 'chai';
import type { ClockTick } from '../../src/clock/protocol.js';
import { ProofsInFlight } from '../../src/sequencer/proofs.js';

const tick = (n: number): ClockTick => ({ tickNumber: n }) as ClockTick;

describe('sequencer/proofs', () => {
  it('starts each proof startDelayMs after it is handed over, and hands out settled proofs', async () => {
    const startedAt: number[] = [];
    const t0 = performance.now();
    const proofs = new ProofsInFlight(async (t) => {
      startedAt.push(performance.now() - t0);
      return new Uint8Array(256).fill(t.tickNumber);
    }, 40);
    proofs.start(tick(7));
    proofs.start(tick(8));
    expect(proofs.size).to.equal(2);
    await new Promise((r) => setTimeout(r, 20));
    expect(startedAt, 'nothing started before the delay').to.deep.equal([]);
    while (proofs.takeSettled().length === 0 && performance.now() - t0 < 2000) await proofs.nextSettled();
    expect(startedAt.every((ms) => ms >= 39)).to.equal(true);
  });

  it('a failed proof is thrown by takeSettled, naming the tick', async () => {
    const proofs = new ProofsInFlight(() => Promise.reject(new Error('pool down')));
    proofs.start(tick(3));
    await proofs.nextSettled();
    expect(() => proofs.takeSettled()).to.throw(/tick 3 failed: pool down/);
  });
});
