/**
 * docs/chain.md "Stored before shown", its one exception: a SubmitTx answer (and
 * GET /transactions/:id) shows a record once it is derived from its durable tick, without
 * waiting for the chain's write of it; everything else (StreamTx here) still waits for the
 * write. The chain's write is held back on the real store to make that moment long; the
 * record shown early must be byte for byte the one stored after. Across kill -9 (the record
 * answered before the write is derived again at restart): test/chain/e2e.test.ts.
 */
import { expect } from 'chai';
import { signedOrderRequest, type WireTxBatch } from '../../../src/chain/api/grpc/client.js';
import { defaultFaces } from '../../../src/node/faces.js';
import { keyOf, mintOf } from '../support/flow.js';
import { runtimeProbe, startChainNode, type ChainNode } from '../support/node.js';

const alice = keyOf(1);

describe('chain: a SubmitTx answer shows its record as derived, before the chain writes it', function () {
  this.timeout(60_000);
  let n: ChainNode | undefined;
  let release: () => void = () => undefined;

  afterEach(async () => {
    release(); // a failed case must not leave the chain's writes held
    await n?.close();
    n = undefined;
  });

  it('answers and serves GET /transactions/:id while the write is held; StreamTx waits; the stored bytes are the same', async () => {
    const probe = runtimeProbe();
    n = await startChainNode({ faces: [...defaultFaces(), probe.face] });
    const node = n;
    await node.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'A/B' } });

    // Hold every chain write from here until released.
    const store = probe.runtime().chain.store;
    const write = store.write.bind(store);
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = 0;
    store.write = (ops) => {
      held++;
      return gate.then(() => write(ops));
    };

    const live: WireTxBatch[] = [];
    const stream = node.client.stream(0);
    stream.on('data', (b: WireTxBatch) => live.push(b));
    stream.on('error', () => undefined);

    const answer = await node.client.submit(
      signedOrderRequest(
        {
          orderId: 1n,
          owner: alice.publicKey,
          side: 'Sell',
          price: 100n,
          quantity: 5n,
          expiry: 0n,
          baseMint: mintOf(1),
          quoteMint: mintOf(2),
        },
        alice.secretKey,
      ),
      10_000, // the answer must not wait for the held write
    );
    expect(held, 'the answer came while the chain write was held').to.be.greaterThan(0);
    const id = answer.transaction_id;
    expect(answer.transaction?.id).to.equal(id);
    expect(answer.transaction?.kind).to.equal('order');

    const early = await node.get(`/transactions/${id}`);
    expect(early.status, early.text).to.equal(200);
    expect((early.json as { continuum_sequence: number }).continuum_sequence).to.equal(
      Number(answer.continuum_sequence),
    );
    expect(await store.transactionJson(...idParts(id)), 'not written yet').to.equal(undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      live.flatMap((b) => b.transactions.map((t) => t.id)),
      'StreamTx shows only stored records',
    ).to.not.include(id);

    release();
    const until = Date.now() + 10_000;
    while ((await store.transactionJson(...idParts(id))) === undefined && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    expect(await store.transactionJson(...idParts(id)), 'the stored JSON is the one shown early').to.equal(early.text);
    expect((await node.get(`/transactions/${id}`)).text).to.equal(early.text);
    while (!live.some((b) => b.transactions.some((t) => t.id === id)) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    expect(live.flatMap((b) => b.transactions.map((t) => t.id))).to.include(id);
    stream.cancel();
  });
});

function idParts(id: string): [number, number, number] {
  const [h, b, i] = id.split('-').map((x) => parseInt(x, 16));
  return [h!, b!, i!];
}
