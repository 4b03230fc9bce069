/**
 * Order state proofs from a busy real engine: the chain tests' deterministic flow (400
 * ticks, two markets, six owners, crossing orders, cancels, refusals) plus a third market
 * whose book grows past 64 slots (the tree doubles to 256). Every resting order of every
 * market proves against the engine's state root; orders that rested and left prove as not
 * resting by their old slot; used-id paths at many places of a tree of odd size.
 */
import { expect } from 'chai';
import { OrderBookEngine } from '../../src/dex/engine/index.js';
import { buildOrderStateProof, usedIdLeaf, usedIdMemberFromLeaves, verifyOrderState } from '../../src/proofs/index.js';
import { applyAll, checkSignature, keyOf, makeTicks, marketTx, orderTx, tickOf } from '../chain/support/flow.js';

const ANCHOR = 'ab'.repeat(32); // the block's last_tick_output_hash (no ticks behind this engine flow)

describe('proofs: order state over a busy engine', function () {
  this.timeout(120_000);

  it('every resting order proves; orders that left prove by their old slot', () => {
    const engine = new OrderBookEngine();
    const leaves: Uint8Array[] = [];
    const rested = new Map<string, { marketId: string; owner: Uint8Array; orderId: bigint; slot: number }>();
    const ticks = makeTicks(400, 11);
    const t0 = ticks[ticks.length - 1]!.timestamp + 1000;
    const whale = keyOf(9);
    ticks.push(
      tickOf(401, t0, [
        marketTx(9, 10, 'DEEP/BOOK'),
        ...Array.from({ length: 150 }, (_, i) => orderTx(whale, 1 + i, 'Buy', 1 + i, 1, 9, 10)),
      ]),
    );
    applyAll(engine, ticks, checkSignature, {
      visit: (r) => {
        for (const a of r.txs) {
          if (!a.outcome.ok || a.outcome.kind !== 'order') continue;
          const o = a.outcome.order;
          leaves.push(usedIdLeaf(o.owner, o.orderId));
          if (o.open)
            rested.set(`${o.ownerKey}:${o.orderId}`, {
              marketId: o.marketId,
              owner: o.owner,
              orderId: o.orderId,
              slot: o.slot,
            });
        }
      },
    });
    const state = engine.state;
    const root = Buffer.from(engine.stateRoot()).toString('hex');
    const block = { height: 7, state_root: root, last_tick: 401 };
    expect(leaves.length).to.equal(state.usedIdCount);
    const sizes = new Set<number>();
    let resting = 0;
    let sampled = 0;
    for (const market of state.marketList()) {
      sizes.add(market.book.tree.size);
      for (const o of market.book.restingOrders()) {
        const usedId = resting % 25 === 0 ? usedIdMemberFromLeaves(leaves, o.owner, o.orderId) : undefined;
        if (usedId) sampled++;
        const p = buildOrderStateProof(state, {
          marketId: market.info.marketId,
          owner: o.owner,
          orderId: o.orderId,
          blockHeight: 7,
          tickNumber: 401,
          lastTickOutputHash: ANCHOR,
          usedId,
        });
        const r = verifyOrderState(JSON.parse(JSON.stringify(p)), { trustedBlock: block });
        expect(r.ok, JSON.stringify(r)).to.equal(true);
        if (r.ok) expect(r.order?.remaining).to.equal(o.remaining.toString());
        resting++;
      }
    }
    expect(sizes.has(256), `book sizes ${[...sizes]}`).to.equal(true);
    expect(resting).to.be.greaterThan(150);
    expect(sampled).to.be.greaterThan(5);
    let left = 0;
    for (const r of rested.values()) {
      const now = state.findOrder(r.owner, r.orderId);
      if (!now || now.open || left >= 30) continue;
      const p = buildOrderStateProof(state, {
        marketId: r.marketId,
        owner: r.owner,
        orderId: r.orderId,
        blockHeight: 7,
        tickNumber: 401,
        lastTickOutputHash: ANCHOR,
        usedId: usedIdMemberFromLeaves(leaves, r.owner, r.orderId),
        restedInSlot: r.slot,
        end: 'filled',
      }); // end: the node's word, unchecked without ended_by
      const v = verifyOrderState(JSON.parse(JSON.stringify(p)), { trustedBlock: block });
      expect(v.ok && v.state === 'not_resting' && v.absence, JSON.stringify(v)).to.equal('slot');
      left++;
    }
    expect(left).to.equal(30);
  });
});
