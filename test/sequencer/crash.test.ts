/**
 * kill -9 under load, then restart (issue 3's fault test, durability half): a child
 * process runs a sequencer under continuous submissions; the parent kills it with
 * SIGKILL mid-flight, reopens the same database in-process and checks that every tick
 * the child reported comes back byte-identical and every transaction it acknowledged
 * is in a tick (after the restart ticks out the write-ahead queue), with sequence and
 * tick numbers continuing.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeArchiveRecord } from '../../src/store/archive.js';
import { sideBySide } from '../support/side-by-side.js';
import { startHarness, tx, waitFor, type Harness } from './harness.js';
import { spawnReporting } from './reporting-child.js';

describe('sequencer crash (kill -9 under load)', function () {
  this.timeout(180_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
  });

  it('keeps every seen tick byte-identical and every acknowledged transaction', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
    const ticks = new Map<number, string>();
    const acked = new Map<number, { hash: string; txId: string }>();
    const { child, exited, checkAlive } = spawnReporting('./crash-child.js', dir, ([kind, a, b, c]) => {
      if (kind === 'T') ticks.set(Number(a), b!);
      else if (kind === 'A') acked.set(Number(a), { hash: b!, txId: c! });
    });
    await waitFor(
      () => {
        checkAlive();
        return ticks.size >= 30 && acked.size >= 3000;
      },
      'child under load',
      60_000,
    );
    child.kill('SIGKILL');
    expect(await exited).to.equal('SIGKILL');

    h = await startHarness({}, dir);
    const seq = h.seq;
    const maxSeen = Math.max(...ticks.keys());
    expect(seq.status().currentTick).to.be.at.least(maxSeen);
    for (const [n, digest] of ticks) {
      const t = await seq.getTick(n);
      expect(t, `tick ${n}`).to.not.equal(undefined);
      expect(createHash('sha256').update(encodeArchiveRecord(t!)).digest('hex'), `tick ${n}`).to.equal(digest);
    }
    const maxAcked = Math.max(...acked.keys());
    await waitFor(() => seq.status().totalTransactions >= maxAcked, 'write-ahead transactions ticked', 60_000);
    // Every acknowledged transaction looked up by its hash: the lookups are reads of the
    // reopened database that change nothing, so they run 32 at a time (one after another,
    // the ~10,000 the child reports took most of this test's time); each is checked alone.
    const entries = [...acked];
    const lookups = await sideBySide(entries, ([, { hash }]) => seq.findTransactions(hash), 32);
    entries.forEach(([sequence, { txId }], i) => {
      const hit = lookups[i]!.find((l) => l.transaction.sequenceNumber === sequence);
      expect(hit, `acknowledged #${sequence}`).to.not.equal(undefined);
      expect(hit!.transaction.transaction.txId).to.equal(txId);
    });
    // Numbers continue after the crash.
    const next = await seq.submit(tx());
    expect(next.sequenceNumber).to.be.greaterThan(maxAcked);
    await waitFor(
      () => seq.status().totalTransactions >= next.sequenceNumber,
      `new transaction #${next.sequenceNumber} ticked (${JSON.stringify(seq.status())})`,
      60_000,
    );
    const loc = await seq.findTransactions(next.txHash);
    expect(loc.find((l) => l.transaction.sequenceNumber === next.sequenceNumber)!.tickNumber).to.be.greaterThan(
      maxSeen,
    );
  });
});
