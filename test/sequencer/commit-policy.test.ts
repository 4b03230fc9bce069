/**
 * When held ticks are written (src/sequencer/commit-policy.ts): at once with transactions,
 * with their proofs when those are in hand, after HOLD_EMPTY_MS at the latest, and at once
 * when stopping.
 */
import { expect } from 'chai';
import { HOLD_EMPTY_MS, writeHeldNow } from '../../src/sequencer/commit-policy.js';

describe('sequencer/commit-policy', () => {
  const base = { count: 1, carryTransactions: false, waitingForProof: 1, heldForMs: 0, stopping: false };

  it('nothing held: nothing to write', () => {
    expect(writeHeldNow({ ...base, count: 0, carryTransactions: true })).to.equal(false);
  });

  it('a tick with transactions is written at once, with the empty ticks before it', () => {
    expect(writeHeldNow({ ...base, count: 2, carryTransactions: true })).to.equal(true);
  });

  it('an empty tick waits for its proof, up to HOLD_EMPTY_MS', () => {
    expect(writeHeldNow(base)).to.equal(false);
    expect(writeHeldNow({ ...base, waitingForProof: 0 })).to.equal(true);
    expect(writeHeldNow({ ...base, heldForMs: HOLD_EMPTY_MS - 1 })).to.equal(false);
    expect(writeHeldNow({ ...base, heldForMs: HOLD_EMPTY_MS })).to.equal(true);
  });

  it('stopping writes everything held', () => {
    expect(writeHeldNow({ ...base, stopping: true })).to.equal(true);
  });
});
