/**
 * An order ended by a mass cancel proves `end: "cancelled"` with the mass cancel as its
 * `ended_by` (docs/proofs.md), on the proof fixture's chain with dave's mass cancel in tick
 * 4: the proof verifies (no book entry is the order, the ending transaction is included in
 * tick 4); a mass cancel of another owner, or a cancel of another order,
 * does not pass as what ended it.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { verifyOrderState, type OrderStateProof } from '../../src/proofs/index.js';
import type { BrowserVerifier } from '../../src/browser/index.js';
import { alice, dave, makeFixture, type Fixture } from './support/fixture.js';
import { orderProofOf } from './support/vectors.js';
import { clone, tickVerifier } from './support/verifier.js';

describe('proofs: an order ended by a mass cancel', function () {
  this.timeout(60_000);
  let f: Fixture;
  let v: BrowserVerifier;
  before(async () => {
    f = makeFixture(true);
    v = await tickVerifier();
  });

  const verify = (p: unknown) =>
    verifyOrderState(p, {
      trustedBlock: {
        height: 1,
        state_root: [...f.state.stateRoot()],
        last_tick: 4,
        last_tick_output_hash: createHash('sha256').update(f.ticks[3]!.vdfProof.output).digest('hex'),
      },
      inclusion: { tickVerifier: v },
    });

  it('proves cancelled, ended_by the mass cancel, for each order it ended (whole book: none rests)', () => {
    expect(f.state.openOrdersOf(dave.publicKey)).to.deep.equal([]);
    expect(f.explorer.get((4n << 32n) | 5n)).to.deep.include({
      kind: 'cancel_all',
      cancelled_order_ids: [1n, 2n, 3n, 4n, 5n, 6n],
    });
    for (const id of [1, 4]) {
      const r = verify(orderProofOf(f, dave, id, { end: 'cancelled', endedBy: [4, 5], wholeBook: true }));
      expect(r.ok && r.state, JSON.stringify(r)).to.equal('not_resting');
      if (r.ok) {
        expect(r.absence).to.equal('book');
        expect(r.ended_by?.tick_number).to.equal(4);
      }
    }
  });

  it("refuses a mass cancel of another owner, or another order's cancel, as what ended it", () => {
    const other = verify(orderProofOf(f, alice, 2, { end: 'cancelled', endedBy: [4, 5] }));
    expect(other.ok === false && [other.step, other.message], JSON.stringify(other)).to.deep.equal([
      'ended_by',
      'the ending mass cancel names another owner or market',
    ]);
    const p: OrderStateProof = orderProofOf(f, dave, 1, { end: 'cancelled', endedBy: [2, 0] });
    const r = verify(clone(p));
    expect(r.ok === false && r.step).to.equal('ended_by');
  });
});
