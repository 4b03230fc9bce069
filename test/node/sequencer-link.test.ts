/**
 * The sequencer across a thread boundary (src/node/sequencer-link.ts): a real sequencer
 * (LevelDB, clock worker, pool) hosted on one end of a MessageChannel, a SequencerProxy on
 * the other. What the proxy answers must be what the sequencer answers: results, refusals
 * with their codes, ticks ordered and then proven (with the real proof), reads in chunks,
 * recent ticks beyond the proxy's mirror, and the status.
 */
import { expect } from 'chai';
import { MessageChannel } from 'node:worker_threads';
import type { Tick, TickSummary } from '../../src/core/types.js';
import { hostSequencer } from '../../src/node/sequencer-host.js';
import { SequencerProxy } from '../../src/node/sequencer-proxy.js';
import { SubmitError } from '../../src/sequencer/interface.js';
import { DiskTickStore } from '../../src/store/index.js';
import { startHarness, tx, waitFor, type Harness } from '../sequencer/harness.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('sequencer link: the sequencer seen from another thread', function () {
  this.timeout(60_000);
  let h: Harness;
  let proxy: SequencerProxy;
  let stopHost: () => void;
  let channel: MessageChannel;

  let reading: SequencerProxy; // the same link, reading ticks itself (a window of 8, then disk)
  let stopSecond: () => void;

  beforeEach(async () => {
    h = await startHarness({ idleTickMs: 5 });
    channel = new MessageChannel();
    const host = hostSequencer(h.seq, channel.port1);
    stopHost = host.stop;
    proxy = new SequencerProxy(channel.port2, host.seed);
    const second = new MessageChannel();
    stopSecond = hostSequencer(h.seq, second.port1).stop;
    reading = new SequencerProxy(second.port2, host.seed, {
      disk: new DiskTickStore(h.db),
      first: 1,
      windowTicks: 8,
      windowBytes: 1 << 20,
      warm: [],
    });
    second.port1.unref();
  });
  afterEach(async () => {
    stopHost();
    stopSecond();
    channel.port1.close();
    await h.close();
  });

  it('answers submissions as the sequencer does: results, duplicates and coded refusals', async () => {
    const t = tx();
    const first = await proxy.submit(t);
    expect(first.sequenceNumber).to.equal(1);
    expect(await proxy.submit(t), 'the same transaction again').to.deep.equal(first);
    try {
      await proxy.submit({ ...tx(), txId: t.txId });
      expect.fail('a reused tx_id must be refused');
    } catch (err) {
      expect(err).to.be.instanceOf(SubmitError);
      expect((err as SubmitError).code).to.equal('ALREADY_EXISTS');
    }
    const batch = await proxy.submitBatch([tx(), { ...tx(), txId: '' }, tx()]);
    expect((batch[0] as { sequenceNumber: number }).sequenceNumber).to.equal(2);
    expect(batch[1]).to.be.instanceOf(SubmitError);
    expect((batch[1] as SubmitError).code).to.equal('INVALID_ARGUMENT');
    expect((batch[2] as { sequenceNumber: number }).sequenceNumber).to.equal(3);
  });

  it('delivers each tick ordered, then proven with the proof the sequencer stored', async () => {
    const ordered: Tick[] = [];
    const proven: Tick[] = [];
    proxy.orderedTicks().onTick((t) => ordered.push(t));
    proxy.onTick((t) => proven.push(t));
    const results = await Promise.all(Array.from({ length: 20 }, () => proxy.submit(tx())));
    const last = Math.max(...results.map((r) => r.expectedTick));
    await waitFor(() => proven.some((t) => t.tickNumber >= last), 'the last transaction proven');
    const carried = proven.flatMap((t) => t.transactions.map((o) => o.sequenceNumber));
    expect(carried).to.include.members(results.map((r) => r.sequenceNumber));
    for (const t of proven) {
      const stored = (await h.seq.getTick(t.tickNumber))!;
      expect(hex(t.vdfProof.proof), `tick ${t.tickNumber}'s proof`).to.equal(hex(stored.vdfProof.proof));
      expect(t.transactions.length).to.equal(stored.transactions.length);
      const early = ordered.find((o) => o.tickNumber === t.tickNumber);
      if (early) expect(hex(early.batchHash)).to.equal(hex(t.batchHash));
    }
    expect(proxy.status().totalTransactions).to.equal(h.seq.status().totalTransactions);
    // Found by hash, the same whether the proxy asks the sequencer or reads the store itself.
    const hash8 = results[0]!.txHash;
    await waitFor(() => reading.status().currentTick >= last, 'the reading proxy caught up');
    const found = await reading.findTransactions(hash8);
    expect(found.map((f) => f.tickNumber)).to.deep.equal(
      (await proxy.findTransactions(hash8)).map((f) => f.tickNumber),
    );
    expect(found.map((f) => f.transaction.sequenceNumber)).to.deep.equal([results[0]!.sequenceNumber]);
  });

  it('reads ticks in chunks (more than one round trip) and recent ticks as the sequencer has them', async () => {
    await waitFor(() => h.seq.status().currentTick >= 300, '300 ticks');
    const to = h.seq.status().currentTick;
    const read: number[] = [];
    for await (const t of proxy.readTicks(1, to)) read.push(t.tickNumber);
    expect(read).to.deep.equal(Array.from({ length: to }, (_, i) => i + 1));
    // Reading itself: from its window and from disk, the same ticks byte for byte.
    await waitFor(() => reading.status().currentTick >= to, 'the reading proxy caught up');
    const mine: Tick[] = [];
    for await (const t of reading.readTicks(1, to)) mine.push(t);
    expect(mine.map((t) => t.tickNumber)).to.deep.equal(read);
    for (const n of [1, Math.floor(to / 2), to]) {
      const a = (await reading.getTick(n))!;
      const b = (await h.seq.getTick(n))!;
      expect(hex(a.vdfProof.output), `tick ${n}`).to.equal(hex(b.vdfProof.output));
      expect(hex(a.vdfProof.proof), `tick ${n}'s proof`).to.equal(hex(b.vdfProof.proof));
      expect(hex(a.previousOutput)).to.equal(hex(b.previousOutput));
    }
    expect(await reading.getTick(reading.status().currentTick + 1000), 'not shown yet').to.equal(undefined);
    // Ticks keep coming (a heartbeat every 5 ms): the page is the sequencer's as of the call.
    const before = h.seq.status().currentTick;
    const page = (await proxy.recentTicks(10, 40)).map((s) => s.tickNumber);
    const after = h.seq.status().currentTick;
    expect(page[0]).to.be.within(before - 40, after - 40);
    expect(page).to.deep.equal(
      Array.from({ length: 10 }, (_, i) => page[0]! - i),
      'newest first',
    );
    await waitFor(() => proxy.status().currentTick >= to, 'the status caught up');
  });

  it('a proxy started on stored ticks lists recent ticks from its own window at once, as the sequencer does, with no gap after them', async () => {
    await waitFor(() => h.seq.status().currentTick >= 200, '200 ticks');
    const link = new MessageChannel();
    const host = hostSequencer(h.seq, link.port1);
    const disk = new DiskTickStore(h.db);
    const seedTick = host.seed.status.currentTick;
    const warm = await disk.readLast(100, Infinity, seedTick);
    const late = new SequencerProxy(link.port2, host.seed, {
      disk,
      first: 1,
      windowTicks: 1000,
      windowBytes: 1 << 22,
      warm,
    });
    try {
      const page = late.recentTicks(20, 0) as TickSummary[];
      expect(page.map((t) => t.tickNumber)).to.deep.equal(Array.from({ length: 20 }, (_, i) => seedTick - i));
      const theirs = await h.seq.recentTicks(20, h.seq.status().currentTick - seedTick);
      expect(page).to.deep.equal(theirs.filter((t) => t.tickNumber <= seedTick));
      // Then the ticks handed over continue the window: 60 newest, consecutive across the seed's tick.
      await waitFor(() => late.status().currentTick >= seedTick + 30, '30 more ticks handed over');
      const newest = (late.recentTicks(130, 0) as TickSummary[]).map((t) => t.tickNumber);
      expect(newest.length).to.equal(130);
      expect(newest).to.deep.equal(Array.from({ length: 130 }, (_, i) => newest[0]! - i));
      expect(newest[0]).to.be.greaterThan(seedTick + 29);
    } finally {
      host.stop();
      link.port1.close();
      link.port2.close();
    }
  });
});

describe('sequencer link: what the node thread has not applied counts toward the queue capacity', function () {
  this.timeout(60_000);

  it('refuses with RESOURCE_EXHAUSTED once ordered, unapplied transactions fill it, and accepts again once applied', async () => {
    let backlog = () => 0;
    const h = await startHarness({ idleTickMs: 5, queueCapacity: 40, backlog: () => backlog() });
    const channel = new MessageChannel();
    const host = hostSequencer(h.seq, channel.port1);
    backlog = host.backlog;
    const proxy = new SequencerProxy(channel.port2, host.seed);
    try {
      // Started, having applied every tick ordered so far (so the 30 land in later ticks,
      // whatever the machine's load), and then applying nothing.
      await waitFor(() => h.seq.orderedTicks().status().currentTick >= 2, 'a first tick ordered');
      proxy.markApplied(h.seq.orderedTicks().status().currentTick);
      const first = await Promise.all(Array.from({ length: 30 }, () => proxy.submit(tx())));
      const last = Math.max(...first.map((r) => r.expectedTick));
      await waitFor(() => proxy.orderedTicks().status().currentTick >= last, 'the 30 ordered and handed over');
      expect(host.backlog()).to.equal(30);
      const more = await proxy.submitBatch(Array.from({ length: 20 }, () => tx()));
      const refused = more.filter((r) => r instanceof SubmitError) as SubmitError[];
      expect(refused.length, 'beyond 40 in all').to.be.at.least(10);
      for (const r of refused) {
        expect(r.code).to.equal('RESOURCE_EXHAUSTED');
        expect(r.message).to.match(/waiting for a tick or to be applied/);
      }
      proxy.markApplied(h.seq.orderedTicks().status().currentTick);
      expect(host.backlog(), 'all applied').to.equal(0);
      expect((await proxy.submit(tx())).sequenceNumber).to.be.greaterThan(30);
    } finally {
      host.stop();
      channel.port1.close();
      await h.close();
    }
  });
});
