/**
 * Cadence on the real sequencer (real clock and batcher threads, LevelDB, pool): an
 * isolated transaction on an idle node is ticked at once and costs at most a handful of
 * ticks (docs/sequencer.md "Cadence", issue 8): the heartbeat it interrupts, its own tick
 * and LINGER_TICKS trivially-proven empty ticks; then heartbeats resume. Before issue 8
 * one transaction was followed by about 2,650 empty ticks.
 */
import { expect } from 'chai';
import { EMPTY_COMMIT_GAP_MS, LINGER_TICKS } from '../../src/sequencer/sequencer.js';
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

  it('one transaction in an idle period creates at most LINGER_TICKS + 2 ticks besides the heartbeats', async () => {
    h = await startHarness({ idleTickMs: 100 });
    const seq = h.seq;
    await waitFor(() => seq.status().currentTick >= 3, 'three heartbeats');
    const before = seq.status().currentTick;
    const result = await seq.submit(tx());
    const seen: Tick[] = [];
    seq.onTick((t) => seen.push(t));
    await waitFor(() => seq.status().pendingTransactions === 0 && seq.status().totalTransactions >= 1, 'the transaction ticked');
    let carried: Tick | undefined;
    for await (const t of seq.readTicks(before, seq.status().currentTick - 1)) if (t.transactions.length > 0) carried = t;
    // Wait for two heartbeats after it, then read everything since the idle period.
    await waitFor(
      () => seen.filter((t) => t.tickNumber > carried!.tickNumber && t.vdfProof.iterations > TRIVIAL_PROOF_MAX_T).length >= 2,
      'two heartbeats after the transaction',
    );
    const ticks: Tick[] = [];
    for await (const t of seq.readTicks(before, seq.status().currentTick - 1)) ticks.push(t);
    expect(carried!.transactions[0]!.sequenceNumber).to.equal(result.sequenceNumber);
    // Every tick besides heartbeats (long segments, proven on the pool) is one the
    // transaction caused: its own and the short empty ones after it (and the heartbeat it
    // cut, if it arrived right as that one started).
    const short = ticks.filter((t) => t.vdfProof.iterations <= TRIVIAL_PROOF_MAX_T);
    expect(short.length, `short ticks: ${short.map((t) => `${t.tickNumber}:${t.vdfProof.iterations}`).join(' ')}`).to.be.at.most(LINGER_TICKS + 2);
    expect(short.filter((t) => t.transactions.length > 0)).to.have.length(1);
    const hearts = ticks.filter((t) => t.vdfProof.iterations > TRIVIAL_PROOF_MAX_T);
    expect(hearts.every((t) => t.transactions.length === 0)).to.equal(true);
    // The whole period: heartbeats about every 100 ms, plus at most LINGER_TICKS + 2.
    const spanMs = (ticks[ticks.length - 1]!.timestamp - ticks[0]!.timestamp) / 1000;
    expect(ticks.length).to.be.at.most(Math.ceil(spanMs / 100) + 1 + LINGER_TICKS + 2);
  });

  it('steady traffic: linger ticks are written several per commit, and no more than one commit per EMPTY_COMMIT_GAP_MS of empty ticks', async () => {
    h = await startHarness({ idleTickMs: 1000 });
    const seq = h.seq;
    await waitFor(() => seq.status().currentTick >= 1, 'the first tick');
    const tick0 = seq.status().currentTick;
    const commits0 = seq.commitCount();
    const t0 = performance.now();
    // A transaction every 20 ms for 400 ms: steady traffic, so empty ticks close trivially
    // (about every 0.3 ms) between the busy ones.
    const acks: Array<Promise<unknown>> = [];
    for (let i = 0; i < 20; i++) {
      acks.push(seq.submit(tx()));
      await new Promise((r) => setTimeout(r, 20));
    }
    await Promise.all(acks);
    await waitFor(() => seq.status().pendingTransactions === 0, 'every transaction ticked');
    const ms = performance.now() - t0;
    const ticks = seq.status().currentTick - tick0;
    const commits = seq.commitCount() - commits0;
    // Busy ticks are committed at once (20 of them at most); the empty ones between them
    // at most once per EMPTY_COMMIT_GAP_MS.
    if (process.env.SVC_TEST_DEBUG) console.log({ ticks, commits, ms });
    expect(ticks, `${ticks} ticks in ${Math.round(ms)} ms`).to.be.greaterThan(100);
    expect(commits, `${commits} commits for ${ticks} ticks in ${Math.round(ms)} ms`).to.be.at.most(Math.ceil(ms / EMPTY_COMMIT_GAP_MS) + 20 + 5);
    // Where ticks came at least 3 per gap (a machine not starved), most empty ones shared
    // a write: at most one commit per 2 ticks, besides the busy ticks' own.
    if (ticks / ms >= 3 / EMPTY_COMMIT_GAP_MS) expect(commits, `${commits} commits for ${ticks} ticks`).to.be.at.most(ticks / 2 + 20);
  });
});

