/**
 * Mass cancel against a real node in a child process (`svc node`, one gateway process on
 * the order book port, so POST /orders/cancel-all goes through the gateway's frame kind 3;
 * one intake thread, so SubmitTx's cancel_all is decoded and its signature checked there),
 * from this process: what it cancels and its receipt, one side or both, an empty list for
 * nobody open; gRPC SubmitTx's cancel_all answer with the stored record; the hostile input
 * (another key, an unknown market, a replay, malformed fields) with its documented codes and
 * nothing half-applied; and arrival order: a mass cancel sent while orders are still
 * arriving on other connections ends exactly the orders sequenced before it; and after
 * kill -9 and a restart on the same database, what it ended stays ended and its request id
 * stays spent.
 */
import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import { ChainClient, signedCancelAllRequest, type WireTxBatch } from '../../src/chain/api/client/index.js';
import {
  buildCancelAllBody,
  buildOrderBody,
  fromBase58Key,
  toBase58,
  verifyReceipt,
  type CancelAllResult,
  type OrderResult,
  type Side,
} from '../../src/sdk/index.js';
import { postJson, http, startHostileNode, stillServes, type HostileNode } from '../hostile/support.js';
import { seeded } from './support/orders.js';
import { spawnNode } from '../support/node-process.js';

const mint = (n: number) => new Uint8Array(32).fill(n);
const BASE = mint(0x41);
const QUOTE = mint(0x42);
const alice = seeded(11);
const bob = seeded(12);

describe('mass cancel (real node, gateway and gRPC)', function () {
  this.timeout(90_000);
  let node: HostileNode;
  let marketId: string;
  let nodeKey: Uint8Array;
  let nextId = 1n;

  const place = async (kp: typeof alice, side: Side, price: number): Promise<{ id: bigint; cs: bigint }> => {
    const id = nextId++;
    const body = buildOrderBody(
      {
        orderId: id,
        owner: kp.publicKey,
        side,
        price: BigInt(price),
        quantity: 3n,
        expiry: 0n,
        baseMint: BASE,
        quoteMint: QUOTE,
      },
      kp.secretKey,
    );
    const res = await postJson(node.addresses.dex!, '/orders', body);
    expect(res.status, res.text).to.equal(200);
    return { id, cs: BigInt(res.json<{ data: OrderResult }>().data.receipt.continuum_sequence) };
  };
  const cancelAll = (body: unknown) => postJson(node.addresses.dex!, '/orders/cancel-all', body);
  const openOf = async (kp: typeof alice): Promise<bigint[]> => {
    const res = await http(node.addresses.dex!, 'GET', `/markets/${marketId}/orderbook?orders=true&depth=1000`);
    const orders = res.json<{ data: { orders: Array<{ owner: string; order_id: string }> } }>().data.orders;
    return orders
      .filter((o) => o.owner === toBase58(kp.publicKey))
      .map((o) => BigInt(o.order_id))
      .sort((a, b) => (a < b ? -1 : 1));
  };

  before(async () => {
    node = await startHostileNode(['--intake-threads', '1']); // gRPC SubmitTx checked on an intake thread
    const res = await postJson(node.addresses.dex!, '/markets', {
      base_mint: toBase58(BASE),
      quote_mint: toBase58(QUOTE),
      name: 'MASS/CANCEL',
    });
    expect(res.status, res.text).to.equal(201);
    marketId = res.json<{ data: { market_id: string } }>().data.market_id;
    const health = await http(node.addresses.dex!, 'GET', '/health');
    nodeKey = fromBase58Key(health.json<{ data: { public_key: string } }>().data.public_key);
  });
  after(async () => node?.stop());

  it('POST /orders/cancel-all: one side, then both, then none open (an empty list); each with a receipt that verifies', async () => {
    const s1 = await place(alice, 'Sell', 120);
    const b1 = await place(alice, 'Buy', 80);
    const s2 = await place(alice, 'Sell', 121);
    const bobs = await place(bob, 'Sell', 125);
    const sells = await cancelAll(
      buildCancelAllBody({ requestId: 1n, owner: alice.publicKey, marketId, side: 'Sell' }, alice.secretKey),
    );
    expect(sells.status, sells.text).to.equal(200);
    const a = sells.json<{ data: CancelAllResult }>().data;
    expect(a.cancelled.map((c) => [c.order_id, c.side, c.price, c.cancelled_quantity])).to.deep.equal([
      [String(s1.id), 'Sell', '120', '3'],
      [String(s2.id), 'Sell', '121', '3'],
    ]);
    expect(a).to.deep.include({ request_id: '1', market_id: marketId, side: 'Sell' });
    expect(a.receipt.order_id).to.equal('1');
    expect(verifyReceipt(a.receipt, nodeKey)).to.equal(true);
    expect(await openOf(alice)).to.deep.equal([b1.id]);
    const both = (
      await cancelAll(buildCancelAllBody({ requestId: 2n, owner: alice.publicKey, marketId }, alice.secretKey))
    ).json<{ data: CancelAllResult }>().data;
    expect(both.side).to.equal('Both');
    expect(both.cancelled.map((c) => c.order_id)).to.deep.equal([String(b1.id)]);
    const none = await cancelAll(
      buildCancelAllBody({ requestId: 3n, owner: alice.publicKey, marketId }, alice.secretKey),
    );
    expect(none.status, none.text).to.equal(200);
    expect(none.json<{ data: CancelAllResult }>().data.cancelled).to.deep.equal([]);
    expect(await openOf(bob)).to.deep.equal([bobs.id]);
  });

  it('hostile: another key, an unknown market, a replay, malformed fields: documented codes, nothing applied', async () => {
    const s = await place(alice, 'Sell', 130);
    const good = buildCancelAllBody({ requestId: 40n, owner: alice.publicKey, marketId }, alice.secretKey);
    const byBob = buildCancelAllBody({ requestId: 41n, owner: alice.publicKey, marketId }, bob.secretKey);
    const cases: Array<[unknown, number, string]> = [
      [byBob, 401, 'BAD_SIGNATURE'],
      [
        buildCancelAllBody(
          { requestId: 42n, owner: alice.publicKey, marketId: '00000000-0000-8000-8000-000000000000' },
          alice.secretKey,
        ),
        404,
        'UNKNOWN_MARKET',
      ],
      [{ ...good, side: 'Both' }, 400, 'INVALID_SIDE'],
      [{ ...good, request_id: '-1' }, 400, 'INVALID_FIELD'],
      [{ ...good, request_id: '18446744073709551616' }, 400, 'INVALID_FIELD'],
      [{ ...good, market_id: marketId.toUpperCase() }, 400, 'INVALID_UUID'],
      [{ ...good, owner: 'abc' }, 400, 'INVALID_FIELD'],
      [{ ...good, signature: 'zz' }, 400, 'INVALID_SIGNATURE_FORMAT'],
      [{ ...good, signature: undefined }, 400, 'MISSING_FIELD'],
      ['[1]', 400, 'BAD_REQUEST'],
      ['{"request_id":', 400, 'INVALID_JSON'],
    ];
    for (const [body, status, code] of cases) {
      const res = await cancelAll(body);
      expect([res.status, res.json().code], `${JSON.stringify(body)}: ${res.text}`).to.deep.equal([status, code]);
    }
    expect(await openOf(alice)).to.deep.equal([s.id]);
    const first = await cancelAll(good);
    expect(first.json<{ data: CancelAllResult }>().data.cancelled.map((c) => c.order_id)).to.deep.equal([String(s.id)]);
    const s2 = await place(alice, 'Sell', 131);
    const replay = await cancelAll(good);
    expect([replay.status, replay.json().code], replay.text).to.deep.equal([409, 'CANCEL_ALL_REPLAYED']);
    expect(await openOf(alice)).to.deep.equal([s2.id]);
    await stillServes(node);
  });

  it('gRPC SubmitTx cancel_all: the stored record lists the ended orders; replay ALREADY_EXISTS, another key UNAUTHENTICATED, unknown market NOT_FOUND', async () => {
    const client = new ChainClient(node.addresses.grpc!);
    try {
      const open = await openOf(alice);
      const o = await place(alice, 'Buy', 70);
      const req = signedCancelAllRequest(
        { requestId: 50n, owner: alice.publicKey, marketId, side: 'Buy' },
        alice.secretKey,
      );
      const res = await client.submit(req);
      expect(res.transaction).to.deep.include({
        kind: 'cancel_all',
        order_id: '50',
        side: 'Buy',
        market_id: marketId,
        owner: toBase58(alice.publicKey),
      });
      expect(res.transaction!.cancelled_order_ids).to.deep.equal([String(o.id)]);
      // StreamTx carries the same record from its continuum_sequence.
      const stream = client.stream(res.continuum_sequence);
      const batch = await new Promise<WireTxBatch>((resolve, reject) =>
        stream.once('data', resolve).once('error', reject),
      );
      stream.cancel();
      stream.on('error', () => undefined);
      expect(batch.transactions[0]).to.deep.include({
        kind: 'cancel_all',
        order_id: '50',
        cancelled_order_ids: [String(o.id)],
      });
      expect(await openOf(alice)).to.deep.equal(open);
      const codeOf = (r: Parameters<ChainClient['submit']>[0]) =>
        client.submit(r).then(
          () => grpc.status.OK,
          (e: grpc.ServiceError) => e.code,
        );
      expect(await codeOf(req)).to.equal(grpc.status.ALREADY_EXISTS);
      expect(
        await codeOf(signedCancelAllRequest({ requestId: 51n, owner: alice.publicKey, marketId }, bob.secretKey)),
      ).to.equal(grpc.status.UNAUTHENTICATED);
      expect(
        await codeOf(
          signedCancelAllRequest(
            { requestId: 52n, owner: alice.publicKey, marketId: '00000000-0000-8000-8000-000000000000' },
            alice.secretKey,
          ),
        ),
      ).to.equal(grpc.status.NOT_FOUND);
      const short = { cancel_all: { data: new Uint8Array(10), signature: new Uint8Array(64) } };
      expect(await codeOf(short)).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(await openOf(alice)).to.deep.equal(open);
    } finally {
      client.close();
    }
  });

  it('arrival order: a mass cancel sent while orders still arrive on other connections ends exactly those sequenced before it', async () => {
    await cancelAll(buildCancelAllBody({ requestId: 60n, owner: alice.publicKey, marketId }, alice.secretKey));
    const placed: Array<Promise<{ id: bigint; cs: bigint }>> = [];
    for (let i = 0; i < 12; i++) placed.push(place(alice, i % 2 ? 'Buy' : 'Sell', i % 2 ? 60 + i : 140 + i));
    // Right after the first orders were sent, on its own connection; more orders follow it.
    await new Promise((r) => setImmediate(r));
    const mass = cancelAll(buildCancelAllBody({ requestId: 61n, owner: alice.publicKey, marketId }, alice.secretKey));
    for (let i = 12; i < 20; i++) placed.push(place(alice, i % 2 ? 'Buy' : 'Sell', i % 2 ? 60 + i : 140 + i));
    const res = await mass;
    expect(res.status, res.text).to.equal(200);
    const answer = res.json<{ data: CancelAllResult }>().data;
    const at = BigInt(answer.receipt.continuum_sequence);
    const orders = await Promise.all(placed);
    const before = orders
      .filter((o) => o.cs < at)
      .map((o) => String(o.id))
      .sort();
    const after = orders
      .filter((o) => o.cs > at)
      .map((o) => o.id)
      .sort((a, b) => (a < b ? -1 : 1));
    expect(before.length + after.length).to.equal(orders.length);
    expect(answer.cancelled.map((c) => c.order_id).sort()).to.deep.equal(before);
    expect(await openOf(alice)).to.deep.equal(after);
  });

  it('kill -9 and restart: the ended orders stay ended, the open ones open, and the request ids stay spent', async () => {
    await place(alice, 'Sell', 150); // acknowledged right before the kill
    const before = await openOf(alice);
    expect(before.length).to.be.greaterThan(0);
    const ended = buildCancelAllBody({ requestId: 60n, owner: alice.publicKey, marketId }, alice.secretKey);
    node.child.kill('SIGKILL');
    await node.exited;
    const again = await spawnNode(node.dir, ['--idle-tick-ms', '20'], ['grpc', 'rest', 'dex']);
    try {
      node.addresses = again.addresses;
      expect(await openOf(alice)).to.deep.equal(before);
      const replay = await cancelAll(ended);
      expect([replay.status, replay.json().code], replay.text).to.deep.equal([409, 'CANCEL_ALL_REPLAYED']);
      const fresh = await cancelAll(
        buildCancelAllBody({ requestId: 62n, owner: alice.publicKey, marketId }, alice.secretKey),
      );
      expect(fresh.json<{ data: CancelAllResult }>().data.cancelled.map((c) => BigInt(c.order_id))).to.deep.equal(
        before,
      );
    } finally {
      again.child.kill('SIGKILL');
      await again.exited;
    }
  });
});
