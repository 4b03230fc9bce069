/**
 * Inclusion proofs from a real sequencer (in process, real LevelDB, real clock and pool):
 * batches of 1, 3, 5 and 7 transactions are ticked; for every transaction, its tick as the
 * REST face serves GET /api/v1/tick/{n} (a real HTTP request) and the stored tick give a
 * proof that verifies with the browser module's tick verifier, chained to the newest tick;
 * a tampered one fails. Also: proofs of ticks read back from disk after they left memory.
 */
import { expect } from 'chai';
import { shortHash } from '../../src/core/tx-hash.js';
import type { Tick } from '../../src/core/types.js';
import { buildInclusionProof, verifyInclusion } from '../../src/proofs/index.js';
import { restFace } from '../support/front-ends.js';
import { startHarness, tx, waitFor, type Harness } from '../sequencer/harness.js';
import { flipHex, tickVerifier } from './support/verifier.js';

describe('proofs: inclusion from a real sequencer', function () {
  this.timeout(120_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('every transaction of batches of 1, 3, 5 and 7 proves against the served tick, chained to the newest', async () => {
    h = await startHarness({ retainTicks: 4 }); // a small memory window: older ticks come from disk
    const face = await restFace(h.seq);
    try {
      const v = await tickVerifier();
      const hashes: string[] = [];
      for (const k of [1, 3, 5, 7]) {
        const results = await h.seq.submitBatch(Array.from({ length: k }, () => tx()));
        for (const r of results) {
          if (r instanceof Error) throw r;
          hashes.push(r.txHash);
        }
        const last = hashes[hashes.length - 1]!;
        await waitFor(async () => (await h!.seq.findTransactions(last)).length > 0, `batch of ${k} in a proven tick`);
      }
      const served = async (n: number): Promise<unknown> => {
        const res = await fetch(`http://${face.address}/api/v1/tick/${n}`);
        expect(res.status).to.equal(200);
        return res.json();
      };
      // Let the memory window (4 ticks) move past the first batches' ticks.
      const firstTick = (await h.seq.findTransactions(hashes[0]!))[0]!.tickNumber;
      await waitFor(() => h!.seq.status().currentTick > firstTick + 8, 'heartbeats');
      const newest = h.seq.status().currentTick;
      let proofs = 0;
      const counts = new Set<number>();
      for (const hash of hashes) {
        const [loc] = await h.seq.findTransactions(hash);
        const tick = (await h.seq.getTick(loc!.tickNumber)) as Tick;
        const index = loc!.transaction.sequenceNumber - tick.transactions[0]!.sequenceNumber;
        const proof = JSON.parse(JSON.stringify(buildInclusionProof(tick, index, await served(tick.tickNumber))));
        counts.add(proof.transaction_count);
        const later: unknown[] = [];
        for (let n = tick.tickNumber + 1; n <= newest; n++) later.push(await served(n));
        const newestTick = (await h.seq.getTick(newest))!;
        const r = verifyInclusion(proof, {
          tickVerifier: v,
          expectedHash: hash,
          chain: { ticks: later, trustedOutput: Buffer.from(newestTick.vdfProof.output).toString('hex') },
        });
        expect(r.ok, JSON.stringify(r)).to.equal(true);
        if (r.ok) {
          expect(shortHash(Buffer.from(r.tx_hash, 'hex'))).to.equal(hash);
          expect(r.sequence_number).to.equal(loc!.transaction.sequenceNumber);
          expect(r.chained_to).to.equal(newest);
        }
        const bad = { ...proof, tx: flipHex(proof.tx, 12) };
        const rb = verifyInclusion(bad, { tickVerifier: v });
        expect(rb.ok === false && rb.step).to.equal('audit_path');
        proofs++;
      }
      expect(proofs).to.equal(16);
      expect([...counts].some((c) => c > 1)).to.equal(true);
    } finally {
      await face.close();
    }
  });
});
