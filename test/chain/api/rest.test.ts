/**
 * The explorer REST of spec/3 on a whole node (real sequencer, LevelDB, HTTP): shapes of
 * every endpoint, paging, the ticks behind a block (their VDF proofs verify), the OpenAPI
 * document, and the bad-input list: heights 0 / negative / huge / not integers, ids of the
 * wrong shape or non-hex, unknown block / transaction / market / owner, limit and offset
 * out of range or not numbers, invalid Base58 owners.
 */
import { expect } from 'chai';
import {
  signedCancelRequest,
  signedOrderRequest,
  type WireSubmitTxResponse,
} from '../../../src/chain/api/client/index.js';
import type {
  BlockDetail,
  BlockRecord,
  ChainStatus,
  ExplorerEvent,
  ExplorerTransaction,
} from '../../../src/chain/core/index.js';
import type { explorerOpenApi } from '../../../src/chain/api/openapi.js';
import { parseRecordJson } from '../../../src/wire/index.js';
import { marketIdOf } from '../../../src/core/market-id.js';
import { toBase58 } from '../../../src/crypto/base58.js';
import { loadVdfEngine, parseRestTick } from '../../../src/vdf/index.js';
import { keyOf, mintOf } from '../support/flow.js';
import { startChainNode, type ChainNode } from '../support/node.js';

describe('chain: explorer REST on a whole node', function () {
  this.timeout(120_000);
  let n: ChainNode;
  const alice = keyOf(1);
  const bob = keyOf(2);
  const stranger = keyOf(9);
  const m1 = marketIdOf(mintOf(1), mintOf(2));
  const m2 = marketIdOf(mintOf(3), mintOf(4));
  const results: WireSubmitTxResponse[] = [];
  const order = (
    key: typeof alice,
    id: number,
    side: 'Buy' | 'Sell',
    price: number,
    qty: number,
    base = 1,
    quote = 2,
  ) =>
    n.client.submit(
      signedOrderRequest(
        {
          orderId: BigInt(id),
          owner: key.publicKey,
          side,
          price: BigInt(price),
          quantity: BigInt(qty),
          expiry: 0n,
          baseMint: mintOf(base),
          quoteMint: mintOf(quote),
        },
        key.secretKey,
      ),
    );

  before(async () => {
    n = await startChainNode();
    results.push(await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } }));
    results.push(
      await n.client.submit({
        market: { base_mint: mintOf(3), quote_mint: mintOf(4), name: 'THREE/FOUR', kind: 'Perp' },
      }),
    );
    results.push(
      ...(await Promise.all([
        order(alice, 1, 'Sell', 100, 5),
        order(alice, 2, 'Sell', 101, 5),
        order(bob, 1, 'Buy', 50, 1, 3, 4),
      ])),
    );
    results.push(await order(bob, 2, 'Buy', 101, 8));
    results.push(await order(bob, 3, 'Buy', 90, 1));
    results.push(
      await n.client.submit(
        signedCancelRequest({ orderId: 2n, owner: alice.publicKey, marketId: m1 }, alice.secretKey),
      ),
    );
    await n.waitForHeight(Number(results[results.length - 1]!.block_height));
  });
  after(async () => {
    await n?.close();
  });

  it('GET /status, /blocks (height descending, paging), /blocks/latest and /blocks/:height', async () => {
    const status = (await n.get('/status')).json as ChainStatus;
    expect(status.block_height).to.be.at.least(1);
    expect(status.state_root).to.have.length(32);
    const transactions = results.filter((r) => r.transaction !== null); // market creations are not transactions
    expect(status.total_transactions).to.equal(transactions.length);
    const blocks = (await n.get('/blocks')).json as BlockRecord[];
    expect(blocks.map((b) => b.height)).to.deep.equal(
      Array.from({ length: status.block_height }, (_, i) => status.block_height - i),
    );
    expect(blocks[0]!.state_root).to.deep.equal(status.state_root);
    expect(blocks[0]!.applied_batches).to.equal(status.applied_batches);
    expect(blocks.flatMap((b) => b.transaction_ids).sort()).to.deep.equal(
      transactions.map((r) => r.transaction_id).sort(),
    );
    const page = (await n.get('/blocks?limit=1&offset=1')).json as BlockRecord[];
    expect(page.map((b) => b.height)).to.deep.equal(status.block_height > 1 ? [status.block_height - 1] : []);
    expect((await n.get(`/blocks?offset=${status.block_height}`)).json).to.deep.equal([]);
    const latest = await n.get('/blocks/latest');
    const byHeight = await n.get(`/blocks/${status.block_height}`);
    expect(latest.status).to.equal(200);
    expect(latest.text).to.equal(byHeight.text);
    const detail = parseRecordJson<BlockDetail>(byHeight.text);
    expect(detail.transactions.map((t) => t.id)).to.deep.equal(detail.block.transaction_ids);
    expect(detail.events.map((e) => e.id)).to.deep.equal(detail.block.event_ids);
    // u8 arrays are JSON integer arrays; ids are the documented hex shape.
    expect(byHeight.text).to.match(/"state_root":\[(\d{1,3},){31}\d{1,3}\]/);
    for (const id of detail.block.transaction_ids) expect(id).to.match(/^[0-9a-f]{16}-[0-9a-f]{4}-[0-9a-f]{4}$/);
  });

  it('GET /transactions/:id gives each transaction SubmitTx answered with, u64 values exact', async () => {
    for (const r of results.filter((x) => x.transaction !== null)) {
      const res = await n.get(`/transactions/${r.transaction_id}`);
      expect(res.status).to.equal(200);
      const t = parseRecordJson<ExplorerTransaction>(res.text);
      expect(t.id).to.equal(r.transaction_id);
      expect(t.continuum_sequence.toString()).to.equal(r.continuum_sequence);
      expect(String(t.tick_number)).to.equal(r.tick_number);
      expect(t.tx_hash).to.equal(r.tx_hash);
      expect(res.text).to.include(`"continuum_sequence":${r.continuum_sequence}`); // an exact JSON integer, not a string
    }
    const buy = parseRecordJson<ExplorerTransaction>((await n.get(`/transactions/${results[5]!.transaction_id}`)).text);
    expect(buy).to.include({
      kind: 'order',
      side: 'Buy',
      owner: toBase58(bob.publicKey),
      market_id: m1,
      market_name: 'ONE/TWO',
      market_kind: 'Spot',
      status: 'filled',
    });
    expect(buy.price).to.equal(101n);
    expect(buy.filled_quantity).to.equal(8n);
    const resting = parseRecordJson<ExplorerTransaction>(
      (await n.get(`/transactions/${results[6]!.transaction_id}`)).text,
    );
    expect(resting).to.include({ status: 'resting' });
    expect(resting.filled_quantity).to.equal(0n);
    expect(buy.signature).to.match(/^[0-9a-f]{128}$/);
    const cancel = parseRecordJson<ExplorerTransaction>(
      (await n.get(`/transactions/${results[7]!.transaction_id}`)).text,
    );
    expect(cancel).to.include({ kind: 'cancel', market_id: m1 });
    expect(cancel.cancelled_quantity).to.equal(2n);
    expect(cancel.side).to.equal(undefined);
    // A market creation is not a transaction: /transactions says where it is.
    const perp = await n.get(`/transactions/${results[1]!.transaction_id}`);
    expect(perp.status).to.equal(404);
    expect((perp.json as { error: string }).error).to.include('is a market creation, not a transaction');
  });

  it('GET /events: newest first, paging, market_id filter', async () => {
    const all = (await n.get('/events?limit=200')).json as ExplorerEvent[];
    const status = (await n.get('/status')).json as ChainStatus;
    expect(all).to.have.length(status.total_events);
    const heights = all.map((e) => e.block_height);
    expect(heights).to.deep.equal([...heights].sort((a, b) => b - a));
    const only = (await n.get(`/events?market_id=${m2}`)).json as ExplorerEvent[];
    expect(only.length).to.be.at.least(2); // creation and bob's order
    expect(only.every((e) => e.market_id === m2 && e.market_name === 'THREE/FOUR')).to.equal(true);
    const second = (await n.get('/events?limit=1&offset=1')).json as ExplorerEvent[];
    expect(second).to.deep.equal([all[1]]);
    const matched = all.filter((e) => e.market_id === m1).reduce((a, e) => a + e.applied_orders, 0);
    expect(matched).to.equal(1); // bob's buy at 101 matched
  });

  it('GET /orders/user/:owner lists the open orders with their transaction ids', async () => {
    const a = (await n.get(`/orders/user/${toBase58(alice.publicKey)}`)).json as {
      owner: string;
      total: number;
      orders: Array<Record<string, unknown>>;
    };
    expect(a.owner).to.equal(toBase58(alice.publicKey));
    expect(a.total).to.equal(0); // order 1 filled, order 2 partly filled, then cancelled
    const b = (await n.get(`/orders/user/${toBase58(bob.publicKey)}`)).json as {
      total: number;
      orders: Array<Record<string, unknown>>;
    };
    expect(b.total).to.equal(2);
    expect(b.orders.map((o) => [o.market_id, o.order_id, o.side, o.remaining, o.transaction_id])).to.deep.equal([
      [m2, 1, 'Buy', 1, results[4]!.transaction_id],
      [m1, 3, 'Buy', 1, results[6]!.transaction_id],
    ]);
    expect(
      ((await n.get(`/orders/user/${toBase58(bob.publicKey)}?limit=1&offset=1`)).json as { orders: unknown[] }).orders,
    ).to.have.length(1);
  });

  it('GET /blocks/:height/ticks gives the ticks behind the block; their VDF proofs verify', async () => {
    const r = results[3]!;
    // A block is cut from ordered ticks and a tick is served once proven: while a proof is on
    // its way the answer is 404 pending with Retry-After, and a client retries.
    let answer = await n.get(`/blocks/${r.block_height}/ticks`);
    for (let i = 0; answer.status === 404 && i < 50; i++) {
      expect(answer.json).to.include({ pending: true });
      expect(answer.retryAfter).to.equal('1');
      await new Promise((done) => setTimeout(done, 200));
      answer = await n.get(`/blocks/${r.block_height}/ticks`);
    }
    expect(answer.status, answer.text).to.equal(200);
    const res = answer.json as {
      block_height: number;
      total: number;
      ticks: unknown[];
    };
    expect(res.block_height).to.equal(Number(r.block_height));
    expect(res.ticks.length).to.equal(res.total);
    const engine = loadVdfEngine();
    const numbers = res.ticks.map((t) => parseRestTick(t).tickNumber);
    expect(numbers).to.include(Number(r.tick_number));
    for (const t of res.ticks) expect(engine.verify(parseRestTick(t))).to.equal(true);
    const detail = parseRecordJson<BlockDetail>((await n.get(`/blocks/${r.block_height}`)).text);
    const hashes = res.ticks.map(
      (t) => (t as { tick: { transaction_batch_hash: string } }).tick.transaction_batch_hash,
    );
    expect(hashes).to.deep.equal(detail.block.batch_summaries.map((b) => b.batch_hash));
  });

  it('bad input: malformed -> 400, unknown -> 404, each with {"error": ...}', async () => {
    const latest = ((await n.get('/status')).json as ChainStatus).block_height;
    const cases: Array<[string, number]> = [
      ['/blocks/0', 400],
      ['/blocks/-1', 400],
      ['/blocks/1.5', 400],
      ['/blocks/abc', 400],
      ['/blocks/0x10', 400],
      ['/blocks/1e3', 400],
      ['/blocks/99999999999999999999', 400],
      ['/blocks/9007199254740992', 400],
      [`/blocks/${latest + 1000}`, 404],
      ['/blocks/9007199254740991', 404],
      ['/blocks/0/ticks', 400],
      [`/blocks/${latest + 1}/ticks`, 404],
      ['/blocks/1/ticks?limit=501', 400],
      ['/blocks?limit=0', 400],
      ['/blocks?limit=101', 400],
      ['/blocks?limit=-1', 400],
      ['/blocks?limit=abc', 400],
      ['/blocks?limit=2.5', 400],
      ['/blocks?limit=', 400],
      ['/blocks?limit=1&limit=2', 400],
      ['/blocks?offset=-1', 400],
      ['/blocks?offset=x', 400],
      ['/blocks?offset=99999999999999999999', 400],
      ['/events?limit=201', 400],
      ['/events?limit=0', 400],
      ['/events?offset=-5', 400],
      ['/events?market_id=not-a-uuid', 400],
      [`/events?market_id=${m1.toUpperCase()}`, 400],
      ['/events?market_id=00000000-0000-8000-8000-000000000000', 404],
      ['/transactions/xyz', 400],
      ['/transactions/0000000000000001-0000', 400],
      ['/transactions/0000000000000001-0000-000g', 400],
      ['/transactions/000000000000000z-0000-0000', 400],
      ['/transactions/0000000000000000-0000-0000', 400],
      [`/transactions/${'f'.repeat(16)}-0000-0000`, 400],
      [`/transactions/${'a'.repeat(5000)}`, 400],
      [`/transactions/${'0'.repeat(15)}1-0000-00ff`, 404],
      [`/transactions/${(latest + 50).toString(16).padStart(16, '0')}-0000-0000`, 404],
      ['/orders/user/0OIl', 400],
      [`/orders/user/${toBase58(new Uint8Array(31).fill(7))}`, 400],
      [`/orders/user/${'z'.repeat(500)}`, 400],
      [`/orders/user/${toBase58(stranger.publicKey)}`, 404],
      [`/orders/user/${toBase58(bob.publicKey)}?limit=1001`, 400],
      ['/no/such/route', 404],
    ];
    for (const [path, status] of cases) {
      const res = await n.get(path);
      expect(res.status, path.slice(0, 80)).to.equal(status);
      expect(res.json, path.slice(0, 80)).to.have.property('error').that.is.a('string');
    }
    const post = await fetch(`${n.rpc}/blocks`, { method: 'POST', body: '{}' });
    expect(post.status).to.equal(405);
  });

  it('serves its OpenAPI document, covering every route and status', async () => {
    const doc = (await n.get('/openapi.json')).json as typeof explorerOpenApi;
    expect(doc.paths).to.have.keys(
      '/status',
      '/blocks',
      '/blocks/latest',
      '/blocks/{height}',
      '/blocks/{height}/ticks',
      '/transactions/{id}',
      '/transactions/{id}/proof',
      '/markets/{market_id}/orders/{order_id}/proof',
      '/events',
      '/orders/user/{owner}',
      '/openapi.json',
    );
    expect(Object.keys(doc.paths['/blocks/{height}'].get.responses)).to.include.members(['200', '400', '404']);
    expect(Object.keys(doc.paths['/events'].get.responses)).to.include.members(['200', '400', '404']);
    const res = await fetch(`${n.rpc}/status`);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    const metrics = await (await fetch(`http://${n.node.addresses.rest}/metrics`)).text();
    const height = ((await n.get('/status')).json as ChainStatus).block_height;
    expect(metrics).to.match(new RegExp(`^svc_chain_block_height ${height}$`, 'm'));
    expect(metrics).to.match(/^svc_chain_store_lag_seconds_count [1-9]\d*$/m);
  });
});
