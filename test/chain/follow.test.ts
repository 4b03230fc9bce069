/**
 * The ChainReader surface other consumers build on (the message-queue producer, the
 * explorer page): followTransactions / followBlocks deliver stored then live items in
 * order, without gaps or duplicates, at the pace of a slow handler; readTransactionsFrom
 * trims to its start; getTransaction finds what the REST serves.
 */
import { expect } from 'chai';
import { signedOrderRequest } from '../../src/chain/api/client/index.js';
import type { BlockDetail, ChainReader, TransactionBatch } from '../../src/chain/core/index.js';
import { defaultFaces } from '../../src/node/faces.js';
import { keyOf, mintOf } from './support/flow.js';
import { runtimeProbe, startChainNode, type ChainNode } from './support/node.js';

describe('chain: ChainReader follow and read', function () {
  this.timeout(120_000);
  let n: ChainNode;
  let chain: ChainReader;
  const alice = keyOf(1);
  let id = 0;
  const wave = (count: number) =>
    Promise.all(
      Array.from({ length: count }, () =>
        n.client.submit(
          signedOrderRequest(
            {
              orderId: BigInt(++id),
              owner: alice.publicKey,
              side: id % 2 ? 'Sell' : 'Buy',
              price: BigInt(100 + (id % 3)),
              quantity: 1n,
              expiry: 0n,
              baseMint: mintOf(1),
              quoteMint: mintOf(2),
            },
            alice.secretKey,
          ),
        ),
      ),
    );

  before(async () => {
    const probe = runtimeProbe();
    n = await startChainNode({ faces: [...defaultFaces(), probe.face] });
    chain = probe.runtime().chain;
    await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } });
    await wave(20);
  });
  after(async () => {
    await n?.close();
  });

  it('followTransactions: history then live, in order, no gaps or duplicates, with a slow handler', async () => {
    const got: bigint[] = [];
    const batches: TransactionBatch[] = [];
    const f = chain.followTransactions(1n, async (b) => {
      batches.push(b);
      for (const t of b.transactions) got.push(t.continuum_sequence);
      await new Promise((r) => setTimeout(r, 15)); // slower than the node
    });
    const more = [...(await wave(25)), ...(await wave(25))];
    const last = more.map((m) => BigInt(m.continuum_sequence)).reduce((a, b) => (a > b ? a : b)); // concurrent submissions: the highest, not the last sent
    const until = Date.now() + 60_000;
    while (!got.includes(last) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    f.stop();
    await f.done;
    expect(got).to.deep.equal([...got].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(got).size).to.equal(got.length);
    expect(got.length).to.equal(70); // the 70 orders (a market creation is not a transaction)
    for (const b of batches) expect(b.batch_hash).to.match(/^[0-9a-f]{64}$/);
    // From the middle of a batch: trimmed to it.
    const mid = got[got.length - 2]!;
    const tail: bigint[] = [];
    for await (const b of chain.readTransactionsFrom(mid))
      for (const t of b.transactions) tail.push(t.continuum_sequence);
    expect(tail).to.deep.equal(got.slice(-2));
    const one = await chain.getTransaction(more[3]!.transaction_id);
    expect(one?.continuum_sequence.toString()).to.equal(more[3]!.continuum_sequence);
    expect(await chain.getTransaction('0000000000000999-0000-0000')).to.equal(undefined);
  });

  it('followBlocks: every block from a height on, once, in order', async () => {
    const heights: number[] = [];
    const f = chain.followBlocks(1, async (d: BlockDetail) => {
      heights.push(d.block.height);
      expect(d.transactions.map((t) => t.id)).to.deep.equal(d.block.transaction_ids);
    });
    const more = await wave(10);
    const target = Math.max(...more.map((m) => Number(m.block_height)));
    await n.waitForHeight(target);
    const until = Date.now() + 30_000;
    while (!heights.includes(target) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    f.stop();
    await f.done;
    expect(heights).to.deep.equal(Array.from({ length: heights.length }, (_, i) => i + 1));
    expect(heights).to.include(target);
    expect(chain.latestHeight()).to.be.at.least(target);
  });
});
