/**
 * docs/chain.md "Stored before shown", its one exception: a SubmitTx answer (and
 * GET /transactions/:id) shows a record once it is derived from its durable tick, without
 * waiting for the chain's write of it; everything else (StreamTx here) still waits for the
 * write. Likewise the book channel's deltas (in memory only); the orders channel, which
 * replays what is stored, waits. The chain's write is held back on the real store to make
 * that moment long; the record shown early must be byte for byte the one stored after. Across kill -9 (the record
 * answered before the write is derived again at restart): test/chain/e2e.test.ts.
 */
import { expect } from 'chai';
import WebSocket from 'ws';
import { signedOrderRequest, type SubmitTxRequest, type WireTxBatch } from '../../../src/chain/api/client/index.js';
import type { ChainStore } from '../../../src/chain/core/index.js';
import { marketIdOf } from '../../../src/core/market-id.js';
import { toBase58 } from '../../../src/crypto/base58.js';
import { sha256 } from '../../../src/crypto/sha256.js';
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

    const store = probe.runtime().chain.store;
    const writes = holdWrites(store);
    release = writes.release;

    const live: WireTxBatch[] = [];
    const stream = node.client.stream(0);
    stream.on('data', (b: WireTxBatch) => live.push(b));
    stream.on('error', () => undefined);

    const answer = await node.client.submit(
      sell(1n),
      10_000, // the answer must not wait for the held write
    );
    expect(writes.held(), 'the answer came while the chain write was held').to.be.greaterThan(0);
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

    writes.release();
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

  it('book deltas go out while the write is held; the orders channel waits for it', async () => {
    const probe = runtimeProbe();
    n = await startChainNode({ faces: [...defaultFaces(), probe.face] });
    const node = n;
    await node.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'A/B' } });
    const ws = new WebSocket(`${node.rpc.replace('http', 'ws')}/ws`);
    const got: Array<{ type: string; channel?: string; tick?: number }> = [];
    ws.on('message', (m) => got.push(JSON.parse(String(m)) as (typeof got)[number]));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const market = marketIdOf(mintOf(1), mintOf(2), sha256);
    ws.send(JSON.stringify({ op: 'subscribe', id: 'b', channel: 'book', market_id: market }));
    ws.send(JSON.stringify({ op: 'subscribe', id: 'o', channel: 'orders', owner: toBase58(alice.publicKey) }));
    await waitUntil(() => got.filter((m) => m.type === 'subscribed').length === 2, 'subscribed');

    const writes = holdWrites(probe.runtime().chain.store);
    release = writes.release;
    const answer = await node.client.submit(sell(2n), 10_000);
    const tick = Number(answer.tick_number);
    await waitUntil(() => got.some((m) => m.type === 'delta' && m.tick === tick), 'the delta of the order tick');
    expect(writes.held()).to.be.greaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      got.some((m) => m.channel === 'orders' && m.type === 'order'),
      'orders: stored first',
    ).to.equal(false);

    writes.release();
    await waitUntil(
      () => got.some((m) => m.channel === 'orders' && m.type === 'order'),
      'the order event after the write',
    );
    ws.close();
  });
});

/** Hold the chain's writes on its real store until release(). */
function holdWrites(store: ChainStore): { held(): number; release(): void } {
  const write = store.write.bind(store);
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  store.write = (ops) => {
    held++;
    return gate.then(() => write(ops));
  };
  return { held: () => held, release: () => release() };
}

function sell(orderId: bigint): SubmitTxRequest {
  return signedOrderRequest(
    {
      orderId,
      owner: alice.publicKey,
      side: 'Sell',
      price: 100n,
      quantity: 5n,
      expiry: 0n,
      baseMint: mintOf(1),
      quoteMint: mintOf(2),
    },
    alice.secretKey,
  );
}

async function waitUntil(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function idParts(id: string): [number, number, number] {
  const [h, b, i] = id.split('-').map((x) => parseInt(x, 16));
  return [h!, b!, i!];
}
