/**
 * Commit's pure join (src/sequencer/join.ts): closed clock ticks + queued bodies ->
 * stored ticks, and refusal of what the clock must never claim.
 */
import { expect } from 'chai';
import type { ClockTick } from '../../src/clock/protocol.js';
import { transactionHash } from '../../src/core/tx-hash.js';
import { joinTicks } from '../../src/sequencer/join.js';
import type { WalEntry } from '../../src/store/wal.js';
import { makeEntry, makeTx } from '../store/fixtures.js';

const el = (b: number): Uint8Array => new Uint8Array(256).fill(b);
function clockTick(n: number, firstSequence: number, txCount: number): ClockTick {
  return {
    tickNumber: n,
    iterations: 20,
    timestamp: 1_000 + n,
    firstSequence,
    txCount,
    proofPending: false,
    batchHash: new Uint8Array(32).fill(n),
    ingestionDigest: new Uint8Array(32),
    input: el(n),
    output: el(100 + n),
    proof: el(1),
  };
}
const queue: WalEntry[] = [5, 6, 7].map((seq) => makeEntry(makeTx(seq), seq, 900 + seq));
const ctx = { previousOutput: el(99), head: { tick: 9, lastSequence: 4 }, sent: 3, queued: (i: number) => queue[i]! };

describe('sequencer/join', () => {
  it('joins bodies in order and chains previous outputs', () => {
    const j = joinTicks([clockTick(10, 5, 2), clockTick(11, 0, 0), clockTick(12, 7, 1)], ctx);
    expect(j.taken).to.equal(3);
    expect(j.lastSequence).to.equal(7);
    expect(j.lastOutput).to.deep.equal(el(112));
    expect(j.ticks.map((t) => t.transactions.map((o) => o.sequenceNumber))).to.deep.equal([[5, 6], [], [7]]);
    expect(j.ticks[0]!.previousOutput).to.deep.equal(el(99));
    expect(j.ticks[2]!.previousOutput).to.deep.equal(el(111));
    expect(j.ticks[0]!.transactions[1]!.txHash).to.equal(queue[1]!.fullHash);
    expect(j.ticks[0]!.transactions[1]!.txHash).to.deep.equal(transactionHash(queue[1]!.tx));
    expect(j.entries[2]![0]).to.equal(queue[2]);
  });

  it('refuses a tick number gap, unsent transactions and foreign sequence numbers', () => {
    expect(() => joinTicks([clockTick(11, 0, 0)], ctx)).to.throw(/expected 10/);
    expect(() => joinTicks([clockTick(10, 5, 3)], { ...ctx, sent: 2 })).to.throw(/never sent/);
    expect(() => joinTicks([clockTick(10, 6, 1)], ctx)).to.throw(/sequence 5 where 6/);
  });
});
