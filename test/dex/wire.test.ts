import { expect } from 'chai';
import {
  decodePayload,
  encodeCreateMarket,
  encodePlaceOrderIntent,
  encodeCancelPayload,
  toTransaction,
  isDexPayload,
} from '../../src/dex/engine/index.js';
import {
  buildOrderBody,
  DexClient,
  fromHex,
  orderMessage,
  sign,
  toBase58,
  type OrderIntent,
} from '../../src/sdk/index.js';
import { FakeSequencer } from '../support/fake-sequencer.js';
import { startTestDex } from './support/server.js';
import { mint, seeded } from './support/orders.js';

const alice = seeded(21);
const intent: OrderIntent = {
  orderId: 9n,
  owner: alice.publicKey,
  side: 'Sell',
  price: 7n,
  quantity: 3n,
  expiry: 0n,
  baseMint: mint(51),
  quoteMint: mint(52),
};

describe('dex wire format', () => {
  it('round-trips orders, cancels and markets', () => {
    const sig = new Uint8Array(64).fill(5);
    const o = decodePayload(encodePlaceOrderIntent(intent, sig));
    expect(o && o.kind === 'order' && o.intent).to.deep.equal(intent);
    const c = decodePayload(encodeCancelPayload(9n, alice.publicKey, 'f5aa3d3a-73c7-8330-9be2-e6060b4ac4c8', sig));
    expect(c).to.include({ kind: 'cancel', orderId: 9n, marketId: 'f5aa3d3a-73c7-8330-9be2-e6060b4ac4c8' });
    const m = decodePayload(
      encodeCreateMarket({ baseMint: mint(1), quoteMint: mint(2), name: 'A/B', marketKind: 'Perp' }),
    );
    expect(m).to.include({ kind: 'market', name: 'A/B', marketKind: 'Perp' });
  });

  it('skips foreign payloads and flags malformed ones instead of throwing', () => {
    expect(decodePayload(new TextEncoder().encode('hello'))).to.equal(undefined);
    expect(isDexPayload(new Uint8Array([0x44, 0x58, 0x02, 0x02]))).to.equal(false); // unknown version
    const good = encodePlaceOrderIntent(intent, new Uint8Array(64));
    expect(decodePayload(good.subarray(0, good.length - 1))).to.include({ kind: 'malformed' });
    const badSide = good.slice();
    badSide[4 + 40] = 2;
    expect(decodePayload(badSide)).to.include({ kind: 'malformed', reason: 'side' });
    expect(decodePayload(new Uint8Array([0x44, 0x58, 0x01, 0x09]))).to.include({ kind: 'malformed' });
    const market = encodeCreateMarket({ baseMint: mint(1), quoteMint: mint(2), name: 'A/B', marketKind: 'Spot' });
    expect(decodePayload(new Uint8Array([...market, 0]))).to.include({ kind: 'malformed', reason: 'trailing bytes' });
  });
});

describe('dex applies order book transactions submitted straight to the sequencer', () => {
  it('verifies their signatures in the pool: a forged one is ignored, a signed one is applied', async () => {
    const seq = new FakeSequencer({ tickMs: 1, queueCapacity: 100_000 });
    const t = await startTestDex({ sequencer: seq });
    try {
      const client = new DexClient(t.url);
      const m = await client.createMarket({
        base_mint: toBase58(mint(51)),
        quote_mint: toBase58(mint(52)),
        name: 'RAW',
      });
      const forged = encodePlaceOrderIntent(intent, new Uint8Array(64).fill(1));
      const real = encodePlaceOrderIntent(
        { ...intent, orderId: 10n },
        sign(orderMessage({ ...intent, orderId: 10n }), alice.secretKey),
      );
      await seq.submit(toTransaction('order', forged, alice.publicKey));
      await seq.submit(toTransaction('order', real, alice.publicKey));
      await seq.submit({
        txId: 'not-dex',
        payload: new TextEncoder().encode('hello'),
        signature: new Uint8Array(0),
        publicKey: new Uint8Array(0),
        nonce: 0n,
        timestamp: 0n,
      });
      // Wait until the dex has applied the tick (a later HTTP order is answered after it).
      await client.placeOrder(buildOrderBody({ ...intent, orderId: 11n, price: 100n }, alice.secretKey));
      const book = await client.orderBook(m.market_id);
      expect(book.asks).to.deep.equal([
        { price: '7', quantity: '3', orders: 1 },
        { price: '100', quantity: '3', orders: 1 },
      ]);
      // The forged order did not consume alice's id 9.
      const r = await client.placeOrder(buildOrderBody(intent, alice.secretKey));
      expect(r.status).to.equal('resting');
      expect(fromHex(r.receipt.tx_hash)).to.have.length(32);
    } finally {
      await t.close();
    }
  });
});
