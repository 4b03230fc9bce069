import { expect } from 'chai';
import { buildOrderBody, toBase58, verifyReceipt, type OrderIntent } from '../../src/sdk/index.js';
import { DexRefusal } from '../../src/dex/errors.js';
import type { Transaction } from '../../src/core/types.js';
import { parsePlaceOrder } from '../../src/dex/validate.js';
import { FakeSequencer } from '../support/fake-sequencer.js';
import { mint, seeded } from './support/orders.js';
import { startTestDex, type TestDex } from './support/server.js';

const alice = seeded(11);

function intent(orderId: bigint): OrderIntent {
  return {
    orderId,
    owner: alice.publicKey,
    side: 'Buy',
    price: 10n + orderId,
    quantity: 1n,
    expiry: 0n,
    baseMint: mint(1),
    quoteMint: mint(2),
  };
}

describe('dex: orders of one turn go to the sequencer as one batch', () => {
  let t: TestDex;
  let seq: FakeSequencer;
  const batches: number[] = [];

  before(async () => {
    seq = new FakeSequencer({ tickMs: 300, queueCapacity: 100_000 });
    const submitBatch = seq.submitBatch.bind(seq);
    seq.submitBatch = (txs: Transaction[]) => {
      batches.push(txs.length);
      return submitBatch(txs);
    };
    t = await startTestDex({ sequencer: seq });
    await t.dex.service.createMarket(mint(1), mint(2), 'ONE/TWO', 'Spot');
  });
  after(async () => t.close());

  it('submits concurrent orders in one submitBatch; a refused item gets its own error, the others their receipts', async () => {
    batches.length = 0;
    seq.capacity = 3; // the fake refuses past 3 pending transactions: RESOURCE_EXHAUSTED
    const orders = [1n, 2n, 3n, 4n, 5n].map((id) =>
      parsePlaceOrder(JSON.parse(JSON.stringify(buildOrderBody(intent(id), alice.secretKey)))),
    );
    const results = await Promise.allSettled(orders.map((o) => t.dex.service.placeOrder(o.intent, o.signature)));
    seq.capacity = 100_000;
    expect(batches).to.deep.equal([5]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).to.have.length(3);
    expect(refused).to.have.length(2);
    for (const r of refused) {
      expect(r.reason).to.be.instanceOf(DexRefusal);
      expect((r.reason as DexRefusal).code).to.equal('QUEUE_FULL');
    }
    const health = t.dex.service.key;
    for (const r of ok) {
      const receipt = (r as PromiseFulfilledResult<Awaited<ReturnType<typeof t.dex.service.placeOrder>>>).value.receipt;
      expect(receipt.owner).to.equal(toBase58(alice.publicKey));
      expect(verifyReceipt(receipt, health.publicKey)).to.equal(true);
    }
    // The refused order ids are free again: the same signed orders go through now.
    const again = await Promise.all(
      results.flatMap((r, i) =>
        r.status === 'rejected' ? [t.dex.service.placeOrder(orders[i]!.intent, orders[i]!.signature)] : [],
      ),
    );
    expect(again).to.have.length(2);
    for (const a of again) expect(verifyReceipt(a.receipt, health.publicKey)).to.equal(true);
  });
});
