import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  buildCancelBody,
  buildOrderBody,
  DexClient,
  fromBase58Key,
  shortHashOf,
  toBase58,
  verifyReceipt,
  type OrderIntent,
} from './support/sdk-extra.js';
import { mint, seeded } from './support/orders.js';
import { post, tempDir } from './support/server.js';
import { startRealDex } from './support/real-node.js';

const alice = seeded(11);
const bob = seeded(12);
const BASE = toBase58(mint(31));
const QUOTE = toBase58(mint(32));

function intent(
  owner: Uint8Array,
  orderId: bigint,
  side: 'Buy' | 'Sell',
  price: bigint,
  quantity: bigint,
): OrderIntent {
  return { orderId, owner, side, price, quantity, expiry: 0n, baseMint: mint(31), quoteMint: mint(32) };
}

async function spawnChild(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const script = fileURLToPath(new URL('./support/dex-child.js', import.meta.url));
  const child = spawn(process.execPath, [script, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const m = /^listening dex (\S+)$/.exec(line);
    if (m) return { child, url: `http://${m[1]}` };
  }
  throw new Error('child exited before listening');
}

describe('dex on the real tick sequencer', function () {
  this.timeout(120_000); // the real clock under a shared, loaded machine: a tick can take seconds

  it('sequences orders as ticks: receipts name the tick, the sequence and the stored transaction', async () => {
    const dir = await tempDir('real');
    const node = await startRealDex(dir);
    try {
      const c = new DexClient(node.url);
      const m = await c.createMarket({ base_mint: BASE, quote_mint: QUOTE, name: 'R/S' });
      const pub = fromBase58Key((await c.health()).public_key);
      // Junk sent straight to the sequencer with alice's key and nonce 1 must not burn her order id 1.
      await node.sequencer.submit({
        txId: 'junk-1',
        payload: new Uint8Array([1, 2, 3]),
        signature: new Uint8Array(0),
        publicKey: alice.publicKey,
        nonce: 1n,
        timestamp: 0n,
      });
      const results = await Promise.all([
        c.placeOrder(buildOrderBody(intent(alice.publicKey, 1n, 'Sell', 10n, 5n), alice.secretKey)),
        c.placeOrder(buildOrderBody(intent(alice.publicKey, 2n, 'Sell', 11n, 5n), alice.secretKey)),
      ]);
      const buy = await c.placeOrder(buildOrderBody(intent(bob.publicKey, 1n, 'Buy', 11n, 7n), bob.secretKey));
      expect(buy.status).to.equal('filled');
      expect(buy.trades.map((t) => [t.price, t.quantity])).to.deep.equal([
        ['10', '5'],
        ['11', '2'],
      ]);
      // A receipt comes once its tick is ordered; the tick reads serve it once its proof
      // (and every earlier one) is stored too, a moment later (docs/sequencer.md).
      const last = Math.max(...[...results, buy].map((r) => r.receipt.tick_number));
      for (let i = 0; i < 200 && node.sequencer.status().currentTick < last; i++)
        await new Promise((r) => setTimeout(r, 25));
      for (const r of [...results, buy]) {
        expect(verifyReceipt(r.receipt, pub)).to.equal(true);
        const found = await node.sequencer.findTransactions(shortHashOf(r.receipt.tx_hash));
        expect(found.map((f) => f.tickNumber)).to.include(r.receipt.tick_number);
        const tick = await node.sequencer.getTick(r.receipt.tick_number);
        const index = Number(BigInt(r.receipt.continuum_sequence) & 0xffffffffn);
        expect(Buffer.from(tick!.transactions[index]!.txHash).toString('hex')).to.equal(r.receipt.tx_hash);
      }
      const cancel = await c.cancelOrder(
        buildCancelBody({ orderId: 2n, owner: alice.publicKey, marketId: m.market_id }, alice.secretKey),
      );
      expect(cancel.cancelled_quantity).to.equal('3');
    } finally {
      await node.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('survives kill -9: a rebuild from the stored ticks gives the same markets, books, roots and used ids', async () => {
    const dir = await tempDir('kill');
    let child: ChildProcess | undefined;
    try {
      const started = await spawnChild(dir);
      child = started.child;
      const c = new DexClient(started.url);
      const m = await c.createMarket({ base_mint: BASE, quote_mint: QUOTE, name: 'K/L' });
      let s = 3;
      const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
      const bodies = [];
      for (let i = 0; i < 60; i++) {
        const who = i % 2 === 0 ? alice : bob;
        bodies.push(
          buildOrderBody(
            intent(
              who.publicKey,
              BigInt(100 + i),
              rnd() < 0.5 ? 'Buy' : 'Sell',
              BigInt(95 + Math.floor(rnd() * 10)),
              BigInt(1 + Math.floor(rnd() * 9)),
            ),
            who.secretKey,
          ),
        );
      }
      // All at once: whatever order the sequencer fixes, the rebuild must replay exactly it.
      await Promise.all([
        ...bodies.map((b) => c.placeOrder(b)),
        c
          .cancelOrder(
            buildCancelBody({ orderId: 100n, owner: alice.publicKey, marketId: m.market_id }, alice.secretKey),
          )
          .catch(() => undefined),
      ]);
      const before = await c.orderBook(m.market_id, 1000);
      const tradesBefore = await c.trades(m.market_id, 1000);
      child.kill('SIGKILL');
      await once(child, 'exit');
      child = undefined;

      const node = await startRealDex(dir);
      try {
        const c2 = new DexClient(node.url);
        expect((await c2.listMarkets()).map((x) => x.market_id)).to.deep.equal([m.market_id]);
        const after = await c2.orderBook(m.market_id, 1000);
        expect(after.bids).to.deep.equal(before.bids);
        expect(after.asks).to.deep.equal(before.asks);
        expect(after.merkle_root).to.equal(before.merkle_root);
        expect(await c2.trades(m.market_id, 1000)).to.deep.equal(tradesBefore);
        // Used order ids are remembered: replaying a signed order is refused.
        const r = await post(`${node.url}/orders`, bodies[5]);
        expect(r.status).to.equal(409);
        expect(r.json).to.include({ code: 'ORDER_REPLAYED' });
      } finally {
        await node.close();
      }
    } finally {
      child?.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
