/**
 * Cadence on the real sequencer (real clock and batcher threads, LevelDB, pool): empty
 * ticks are heartbeats only (docs/sequencer.md "Clock cadence", issue 18). An isolated
 * transaction costs at most the heartbeat it interrupts and its own tick; steady traffic
 * costs at most two ticks per transaction besides the heartbeats. Before issue 18 any
 * traffic of 4 transactions a second kept ~3,700 trivially-proven empty ticks a second
 * going (and before issue 8 one transaction was followed by ~2,650 of them).
 */
import { expect } from 'chai';
import type { Tick } from '../../src/core/types.js';
import { TRIVIAL_PROOF_MAX_T } from '../../src/vdf/index.js';
import { startHarness, tx, waitFor, type Harness } from './harness.js';

describe('sequencer cadence', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('one transaction in an idle period creates at most 2 ticks besides the heartbeats', async () => {
    h = await startHarness({ idleTickMs: 100 });
    const seq = h.seq;
    await waitFor(() => seq.status().currentTick >= 3, 'three heartbeats');
    const before = seq.status().currentTick;
    const result = await seq.submit(tx());
    const seen: Tick[] = [];
    seq.onTick((t) => seen.push(t));
    await waitFor(
      () => seq.status().pendingTransactions === 0 && seq.status().totalTransactions >= 1,
      'the transaction ticked',
    );
    let carried: Tick | undefined;
    for await (const t of seq.readTicks(before, seq.status().currentTick)) if (t.transactions.length > 0) carried = t;
    // Wait for two heartbeats after it, then read everything since the idle period.
    await waitFor(
      () =>
        seen.filter((t) => t.tickNumber > carried!.tickNumber && t.vdfProof.iterations > TRIVIAL_PROOF_MAX_T).length >=
        2,
      'two heartbeats after the transaction',
    );
    const ticks: Tick[] = [];
    for await (const t of seq.readTicks(before, seq.status().currentTick - 1)) ticks.push(t);
    expect(carried!.transactions[0]!.sequenceNumber).to.equal(result.sequenceNumber);
    // Every tick besides heartbeats (long segments, proven on the pool) is one the
    // transaction caused: its own (and the heartbeat it cut, if it arrived right as that
    // one started). No empty ticks follow it.
    const short = ticks.filter((t) => t.vdfProof.iterations <= TRIVIAL_PROOF_MAX_T);
    expect(
      short.length,
      `short ticks: ${short.map((t) => `${t.tickNumber}:${t.vdfProof.iterations}`).join(' ')}`,
    ).to.be.at.most(2);
    expect(short.filter((t) => t.transactions.length > 0)).to.have.length(1);
    const hearts = ticks.filter((t) => t.vdfProof.iterations > TRIVIAL_PROOF_MAX_T);
    expect(hearts.every((t) => t.transactions.length === 0)).to.equal(true);
    // The whole period: heartbeats about every 100 ms, plus at most 2.
    const spanMs = (ticks[ticks.length - 1]!.timestamp - ticks[0]!.timestamp) / 1000;
    expect(ticks.length).to.be.at.most(Math.ceil(spanMs / 100) + 1 + 2);
  });

  it('steady traffic: at most 2 ticks per transaction besides the heartbeats, every one shown with its proof', async () => {
    h = await startHarness({ idleTickMs: 100 });
    const seq = h.seq;
    await waitFor(() => seq.status().currentTick >= 1, 'the first tick');
    const tick0 = seq.status().currentTick;
    const t0 = performance.now();
    // A transaction every 20 ms for 400 ms (50 a second): before issue 18 this kept
    // ~3,700 trivially proven empty ticks a second going.
    const acks: Array<Promise<unknown>> = [];
    for (let i = 0; i < 20; i++) {
      acks.push(seq.submit(tx()));
      await new Promise((r) => setTimeout(r, 20));
    }
    await Promise.all(acks);
    await waitFor(() => seq.status().pendingTransactions === 0, 'every transaction ticked');
    const ms = performance.now() - t0;
    const ticks: Tick[] = [];
    for await (const t of seq.readTicks(tick0 + 1, seq.status().currentTick)) ticks.push(t);
    const carrying = ticks.filter((t) => t.transactions.length > 0).length;
    const shape = ticks.map((t) => `${t.vdfProof.iterations}/${t.transactions.length}`).join(' ');
    if (process.env.SVC_TEST_DEBUG) console.log({ ticks: ticks.length, carrying, ms }, shape);
    // Heartbeats by the ticks' own clock: each but the last lasted idleTickMs or was cut by a
    // transaction (counted in 2 x carrying). The client's `ms` starts after tick0 began, so on
    // a loaded machine it can miss most of a heartbeat.
    const spanMs = (ticks[ticks.length - 1]!.timestamp - ticks[0]!.timestamp) / 1000;
    expect(
      ticks.length,
      `${ticks.length} ticks in ${Math.round(spanMs)} ms (iterations/transactions: ${shape})`,
    ).to.be.at.most(2 * carrying + Math.ceil(spanMs / 100) + 2);
  });
});
