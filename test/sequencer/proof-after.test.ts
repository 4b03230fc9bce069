/**
 * Order first, proof after (issue 18 point 1, docs/sequencer.md): a tick is durable and
 * ordered as soon as the clock has its output; its Wesolowski proof is written when the
 * pool has it. What depends only on the order (orderedTicks: the order book) sees a
 * transaction's tick without waiting for the proof of the heartbeat it cut; the tick
 * reads and onTick serve ticks only with their proofs, in order; and a kill -9 between a
 * tick's durability and its proof loses nothing and changes nothing ordered: the restart
 * proves what is missing before it serves it.
 */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tick } from '../../src/core/types.js';
import { openDatabase } from '../../src/db/index.js';
import { createPool } from '../../src/pool/index.js';
import { TickSequencer } from '../../src/sequencer/sequencer.js';
import { vdfInputOfTick } from '../../src/vdf/binding.js';
import { GENESIS_OUTPUT, TRIVIAL_PROOF_MAX_T, referenceVdfEngine } from '../../src/vdf/index.js';
import { defaults, startHarness, tx, waitFor, type Harness } from './harness.js';
import { orderDigest, slowPool } from './proof-support.js';
import { spawnReporting } from './reporting-child.js';

const reference = referenceVdfEngine();

/** Every tick verifies (VDF proof) and chains from its predecessor. */
function expectVerified(ticks: Tick[], previous: Uint8Array): void {
  let prev = previous;
  for (const t of ticks) {
    expect(Buffer.from(t.previousOutput).equals(Buffer.from(prev)), `tick ${t.tickNumber} chains`).to.equal(true);
    expect(reference.verify({ ...vdfInputOfTick(t), previousOutput: prev }), `tick ${t.tickNumber} verifies`).to.equal(
      true,
    );
    prev = t.vdfProof.output;
  }
}

describe('sequencer: order first, proof after', function () {
  this.timeout(120_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("a transaction's tick is ordered before the proof of the heartbeat it cut; reads and onTick wait for proofs, in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proof-after-'));
    const db = await openDatabase(dir);
    const realPool = createPool({ threads: 1 });
    const seq = new TickSequencer({ ...defaults, idleTickMs: 100, db, pool: slowPool(realPool, 1_500) });
    await seq.start();
    try {
      const ordered: Tick[] = [];
      const shown: Tick[] = [];
      seq.orderedTicks().onTick((t) => ordered.push(t));
      seq.onTick((t) => shown.push(t));
      await waitFor(() => ordered.length >= 1, 'the first heartbeat ordered');
      const t0 = performance.now();
      const r = await seq.submit(tx());
      await waitFor(() => ordered.some((t) => t.transactions.length > 0), 'the transaction ordered');
      const orderedMs = performance.now() - t0;
      const mine = ordered.find((t) => t.transactions.length > 0)!;
      expect(mine.transactions[0]!.sequenceNumber).to.equal(r.sequenceNumber);
      // The heartbeat before it has no proof yet (the pool answers after 1.5 s), so the
      // transaction was ordered without waiting for it ...
      expect(orderedMs, 'ordered well before the cut heartbeat could be proven').to.be.below(1_000);
      const cut = ordered.find((t) => t.tickNumber === mine.tickNumber - 1)!;
      expect(cut.vdfProof.iterations).to.be.greaterThan(TRIVIAL_PROOF_MAX_T);
      // ... and nothing from the first unproven tick on is readable or shown yet.
      expect(seq.status().currentTick).to.be.below(cut.tickNumber);
      expect(await seq.getTick(mine.tickNumber)).to.equal(undefined);
      expect(shown.every((t) => t.tickNumber < cut.tickNumber)).to.equal(true);
      expect(seq.orderedTicks().status().currentTick).to.be.at.least(mine.tickNumber);
      // Once the proofs arrive, every ordered tick is shown with its proof, in order.
      await waitFor(
        () => shown.some((t) => t.tickNumber === mine.tickNumber),
        'the transaction shown with its proof',
        30_000,
      );
      expect(shown.map((t) => t.tickNumber)).to.deep.equal(shown.map((_, i) => i + 1));
      expectVerified(shown, GENESIS_OUTPUT);
      const read = await seq.getTick(mine.tickNumber);
      expect(read!.transactions[0]!.sequenceNumber).to.equal(r.sequenceNumber);
      // The order did not change: the ordered tick and the proven one are the same tick.
      expect(orderDigest(read!)).to.equal(orderDigest(mine));
    } finally {
      await seq.stop();
      await db.close();
      await realPool.destroy();
    }
  });

  it('kill -9 while proofs are missing: the restart proves them; every ordered tick and acknowledged transaction stays as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proof-after-crash-'));
    const ordered = new Map<number, string>();
    const acked = new Map<number, { hash: string; txId: string }>();
    let carried = 0;
    const { child, exited, checkAlive } = spawnReporting('./proof-after-child.js', dir, ([kind, a, b, c]) => {
      if (kind === 'O') {
        ordered.set(Number(a), c!);
        if (Number(b) > 0) carried++;
      } else if (kind === 'A') acked.set(Number(a), { hash: b!, txId: c! });
    });
    await waitFor(
      () => {
        checkAlive();
        return carried >= 5;
      },
      'five transactions ordered without proofs',
      60_000,
    );
    child.kill('SIGKILL');
    expect(await exited).to.equal('SIGKILL');

    h = await startHarness({ idleTickMs: 20 }, dir);
    const seq = h.seq;
    const maxOrdered = Math.max(...ordered.keys());
    // Start proved what the crash left unproven: everything ordered is readable at once.
    expect(seq.status().currentTick).to.be.at.least(maxOrdered);
    const ticks: Tick[] = [];
    for await (const t of seq.readTicks(1, maxOrdered)) ticks.push(t);
    expect(ticks.map((t) => t.tickNumber)).to.deep.equal(ticks.map((_, i) => i + 1));
    expectVerified(ticks, GENESIS_OUTPUT);
    for (const [n, digest] of ordered) expect(orderDigest(ticks[n - 1]!), `tick ${n} as ordered`).to.equal(digest);
    const maxAcked = Math.max(...acked.keys());
    await waitFor(() => seq.status().totalTransactions >= maxAcked, 'acknowledged transactions ticked');
    for (const [sequence, { hash, txId }] of acked) {
      const hit = (await seq.findTransactions(hash)).find((l) => l.transaction.sequenceNumber === sequence);
      expect(hit, `acknowledged #${sequence}`).to.not.equal(undefined);
      expect(hit!.transaction.transaction.txId).to.equal(txId);
    }
  });
});
