/**
 * spec/3 conformance of the real `svc node`, seen from outside over REST, gRPC StreamTx and
 * NATS JetStream: every ExplorerTransaction is one of spec/3's two kinds (`order`,
 * `cancel`) with owner, order_id and signature always present; market creations are not
 * transactions but the block detail's (and block message's) `markets`; and a block height
 * in a path is bounded by its value, so leading zeros parse as the number.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChainClient,
  signedCancelRequest,
  signedOrderRequest,
  type WireTxBatch,
} from '../../src/chain/api/client/index.js';
import { marketIdOf } from '../../src/core/market-id.js';
import { keyOf, mintOf } from './support/flow.js';
import { isBlock, readStream } from '../support/jetstream.js';
import { natsServer, type NatsServer } from '../support/nats-server.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { until } from '../support/until.js';

type Json = Record<string, unknown>;
const SPEC_FIELDS = [
  'id',
  'block_height',
  'batch_index',
  'kind',
  'market_id',
  'market_name',
  'market_kind',
  'owner',
  'order_id',
  'timestamp_ms',
  'continuum_sequence',
  'signature',
];
const ORDER_FIELDS = ['side', 'price', 'quantity', 'base_mint', 'quote_mint'];
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** An ExplorerTransaction as spec/3 defines it (JSON from REST or JetStream, or a StreamTx message). */
function expectSpecShaped(t: Json, where: string): void {
  expect(['order', 'cancel'], `${where}: kind of ${String(t.id)}`).to.include(t.kind);
  for (const f of [...SPEC_FIELDS, ...(t.kind === 'order' ? ORDER_FIELDS : [])])
    expect(t, `${where}: ${String(t.id)}`).to.have.property(f);
  expect(String(t.owner), `${where}: owner`).to.match(BASE58_KEY);
  expect(String(t.signature), `${where}: signature`).to.match(/^[0-9a-f]{128}$/);
  expect(String(t.order_id), `${where}: order_id`).to.match(/^[1-9]\d*$/);
}

describe('end to end: spec/3 transaction kinds and block heights', function () {
  this.timeout(60_000);
  let dir: string;
  let node: NodeProcess | undefined;
  let nats: NatsServer | undefined;
  let client: ChainClient | undefined;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-spec3-'));
    nats = await natsServer();
    node = await spawnNode(
      dir,
      ['--idle-tick-ms', '20', '--block-ms', '100', '--mq-url', nats.url],
      ['grpc', 'rest', 'rpc'],
    );
    client = new ChainClient(node.addresses.grpc!);
  });
  after(async () => {
    client?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await nats?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it("market creations are the blocks' `markets`, never ExplorerTransactions: REST, StreamTx, JetStream", async () => {
    const alice = keyOf(1);
    const bob = keyOf(2);
    const c = client!;
    const order = (key: typeof alice, id: number, side: 'Buy' | 'Sell', price: number) =>
      c.submit(
        signedOrderRequest(
          {
            orderId: BigInt(id),
            owner: key.publicKey,
            side,
            price: BigInt(price),
            quantity: 2n,
            expiry: 0n,
            baseMint: mintOf(1),
            quoteMint: mintOf(2),
          },
          key.secretKey,
        ),
      );
    const markets = [
      await c.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } }),
      await c.submit({ market: { base_mint: mintOf(3), quote_mint: mintOf(4), name: 'THREE/FOUR', kind: 'Perp' } }),
    ];
    const txs = [
      await order(alice, 1, 'Sell', 100),
      await order(alice, 2, 'Sell', 105),
      await order(bob, 1, 'Buy', 100),
    ];
    txs.push(
      await c.submit(
        signedCancelRequest(
          { orderId: 2n, owner: alice.publicKey, marketId: marketIdOf(mintOf(1), mintOf(2)) },
          alice.secretKey,
        ),
      ),
    );
    const rpc = `http://${node!.addresses.rpc}`;
    const lastHeight = Number(txs.at(-1)!.block_height);
    const status = await until(
      'the last block produced',
      async () => {
        const s = (await (await fetch(`${rpc}/status`)).json()) as { block_height: number };
        return s.block_height >= lastHeight ? s : undefined;
      },
      10_000,
    );

    // REST: block details and /transactions/:id.
    const seenMarkets: Json[] = [];
    let seenTxs = 0;
    for (let h = 1; h <= status.block_height; h++) {
      const d = (await (await fetch(`${rpc}/blocks/${h}`)).json()) as {
        block: { transaction_ids: string[]; total_markets: number };
        transactions: Json[];
        markets: Json[];
      };
      for (const t of d.transactions) expectSpecShaped(t, `GET /blocks/${h}`);
      expect(d.transactions.map((t) => t.id)).to.deep.equal(d.block.transaction_ids);
      expect(d.markets).to.have.length(d.block.total_markets);
      seenMarkets.push(...d.markets);
      seenTxs += d.transactions.length;
    }
    expect(seenTxs).to.equal(txs.length);
    for (const t of txs)
      expectSpecShaped(
        (await (await fetch(`${rpc}/transactions/${t.transaction_id}`)).json()) as Json,
        'GET /transactions/:id',
      );
    expect(seenMarkets.map((m) => [m.id, m.market_name, m.market_kind])).to.deep.equal([
      [markets[0]!.transaction_id, 'ONE/TWO', 'Spot'],
      [markets[1]!.transaction_id, 'THREE/FOUR', 'Perp'],
    ]);
    for (const m of seenMarkets) expect(m).to.not.have.any.keys('kind', 'owner', 'order_id', 'signature');
    for (const m of markets) {
      expect(m.transaction).to.equal(null); // SubmitTx answers a market creation in `market`
      const res = await fetch(`${rpc}/transactions/${m.transaction_id}`);
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { error: string }).error).to.include('is a market creation, not a transaction');
    }

    // StreamTx from the start: orders and cancels only.
    const streamed: WireTxBatch['transactions'] = [];
    const stream = c.stream(1);
    stream.on('data', (b: WireTxBatch) => streamed.push(...b.transactions));
    stream.on('error', () => undefined);
    await until(
      'StreamTx to replay every transaction',
      () => (streamed.length >= txs.length ? true : undefined),
      10_000,
    );
    stream.cancel();
    expect(streamed).to.have.length(txs.length);
    for (const t of streamed) expectSpecShaped(t as unknown as Json, 'StreamTx');

    // JetStream: svc.tx.* bodies are ExplorerTransactions; the markets ride in the block messages.
    const messages = await until(
      'the stream to end with the latest block',
      async () => {
        const all = await readStream(nats!.url);
        const last = all.at(-1);
        return last && isBlock(last) && last.msgId === String(status.block_height) ? all : undefined;
      },
      10_000,
    );
    const txMessages = messages.filter((m) => !isBlock(m));
    expect(txMessages).to.have.length(txs.length);
    for (const m of txMessages) expectSpecShaped(m.json<Json>(), `JetStream ${m.subject}`);
    const blockMarkets = messages.filter(isBlock).flatMap((m) => m.json<{ markets: Json[] }>().markets);
    expect(blockMarkets).to.deep.equal(seenMarkets);
  });

  it('a height in a path is bounded by its value: leading zeros parse as the number', async () => {
    const rpc = `http://${node!.addresses.rpc}`;
    const one = await fetch(`${rpc}/blocks/1`);
    expect(one.status).to.equal(200);
    const padded = await fetch(`${rpc}/blocks/0000000000000000001`);
    expect(padded.status).to.equal(200);
    expect(await padded.text()).to.equal(await one.text());
    const zero = await fetch(`${rpc}/blocks/00000000000000000000`);
    expect(zero.status).to.equal(400);
    expect(((await zero.json()) as { error: string }).error).to.equal('heights start at 1');
    const max = await fetch(`${rpc}/blocks/0009007199254740991`); // 2^53-1: a height, not produced
    expect(max.status).to.equal(404);
    const above = await fetch(`${rpc}/blocks/9007199254740992`);
    expect(above.status).to.equal(400);
    expect(((await above.json()) as { error: string }).error).to.match(/too large \(at most 9007199254740991\)/);
    const limit = await fetch(`${rpc}/blocks?limit=00000000000000000001`);
    expect(limit.status).to.equal(200);
    expect((await limit.json()) as unknown[]).to.have.length(1);
  });
});
