/**
 * The order book face inside the real `svc node` binary: the node prints its dex
 * address, orders placed with the SDK come back with receipts that verify against the
 * key /health shows, the receipt's tick is the durable tick (seen over REST /api/v1)
 * that carries the order's transaction, and a restart on the same database serves the
 * same book and root.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildOrderBody,
  DexClient,
  fromBase58Key,
  keyPairFromSeed,
  toBase58,
  verifyReceipt,
  type OrderIntent,
} from '../../../src/sdk/index.js';
import { spawnNode, type NodeProcess } from '../../support/node-process.js';

function mint(n: number): Uint8Array {
  return new Uint8Array(32).fill(n);
}

describe('end to end: the order book face of the real node', function () {
  this.timeout(90_000);
  let dir: string;
  let node: NodeProcess | undefined;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-dex-'));
  });
  after(async () => {
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('trades through the node, receipts match durable ticks, and a restart keeps the book', async () => {
    node = await spawnNode(dir, ['--idle-tick-ms', '20'], ['grpc', 'rest', 'dex']);
    const dex = new DexClient(`http://${node.addresses.dex}`);
    const health = await dex.health();
    const sequencerKey = fromBase58Key(health.public_key);

    const market = await dex.createMarket({
      base_mint: toBase58(mint(7)),
      quote_mint: toBase58(mint(8)),
      name: 'SEVEN/EIGHT',
    });
    const maker = keyPairFromSeed(new Uint8Array(32).fill(1));
    const taker = keyPairFromSeed(new Uint8Array(32).fill(2));
    const intent = (
      owner: Uint8Array,
      orderId: bigint,
      side: 'Buy' | 'Sell',
      price: bigint,
      quantity: bigint,
    ): OrderIntent => ({
      orderId,
      owner,
      side,
      price,
      quantity,
      expiry: 0n,
      baseMint: mint(7),
      quoteMint: mint(8),
    });

    const rest = await dex.placeOrder(buildOrderBody(intent(maker.publicKey, 1n, 'Sell', 50n, 10n), maker.secretKey));
    const hit = await dex.placeOrder(buildOrderBody(intent(taker.publicKey, 1n, 'Buy', 50n, 4n), taker.secretKey));
    expect(rest.status).to.equal('resting');
    expect(hit.status).to.equal('filled');
    for (const r of [rest, hit]) {
      expect(verifyReceipt(r.receipt, sequencerKey)).to.equal(true);
      // The receipt's tick is durable and carries the order's transaction; the tick reads
      // serve it once its proof is stored too, a moment after the receipt (docs/api.md).
      const url = `http://${node.addresses.rest}/api/v1/tx/${r.receipt.tx_hash.slice(0, 8)}`;
      let res = await fetch(url);
      for (let i = 0; i < 100 && res.status === 404; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        res = await fetch(url);
      }
      expect(res.status).to.equal(200);
      const found = (await res.json()) as { tick_number: number; found: boolean };
      expect(found.found).to.equal(true);
      expect(found.tick_number).to.equal(r.receipt.tick_number);
    }
    const trades = await dex.trades(market.market_id);
    expect(trades.map((t) => t.quantity)).to.deep.equal(['4']);
    const before = await dex.orderBook(market.market_id);
    expect(before.asks).to.deep.equal([{ price: '50', quantity: '6', orders: 1 }]);

    node.child.kill('SIGKILL');
    await node.exited;
    node = await spawnNode(dir, ['--idle-tick-ms', '20'], ['grpc', 'rest', 'dex']);
    const again = new DexClient(`http://${node.addresses.dex}`);
    expect((await again.health()).public_key).to.equal(health.public_key);
    const after = await again.orderBook(market.market_id);
    expect(after.asks).to.deep.equal(before.asks);
    expect(after.merkle_root).to.equal(before.merkle_root);
  });
});
