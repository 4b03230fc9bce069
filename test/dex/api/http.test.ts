import { expect } from 'chai';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildCancelBody,
  buildOrderBody,
  DexClient,
  DexApiError,
  fromBase58Key,
  stateRootOf,
  toBase58,
  verifyReceipt,
  type OrderIntent,
  type PlaceOrderBody,
} from '../../../src/sdk/index.js';
import { mint, seeded } from '../support/orders.js';
import { get, post, startTestDex, type TestDex } from '../support/server.js';

const alice = seeded(1);
const bob = seeded(2);
const BASE = toBase58(mint(1));
const QUOTE = toBase58(mint(2));

function intent(
  owner: Uint8Array,
  orderId: bigint,
  side: 'Buy' | 'Sell',
  price: bigint,
  quantity: bigint,
  expiry = 0n,
): OrderIntent {
  return { orderId, owner, side, price, quantity, expiry, baseMint: mint(1), quoteMint: mint(2) };
}

describe('dex HTTP API (real server, worker pool and LevelDB; fake sequencer)', () => {
  let t: TestDex;
  let client: DexClient;
  let marketId: string;

  before(async () => {
    t = await startTestDex({ bodyLimitBytes: 4096 });
    client = new DexClient(t.url);
    const m = await client.createMarket({ base_mint: BASE, quote_mint: QUOTE, name: 'ONE/TWO' });
    marketId = m.market_id;
  });
  after(async () => t.close());

  it('GET /health shows the sequencer id and public key; the node key file is 0600', async () => {
    const h = await client.health();
    expect(h.status).to.equal('ok');
    expect(h.sequencer_id).to.match(/^[0-9a-f]{16}$/);
    expect(fromBase58Key(h.public_key)).to.have.length(32);
    const st = await stat(join(t.dir, 'node-key.json'));
    expect(st.mode & 0o777).to.equal(0o600);
  });

  it('accepts the Perp market kind', async () => {
    const m = await client.createMarket({
      base_mint: toBase58(mint(21)),
      quote_mint: QUOTE,
      name: 'PERP-1',
      kind: 'Perp',
    });
    expect(m.kind).to.equal('Perp');
    expect((await client.listMarkets()).find((x) => x.market_id === m.market_id)?.kind).to.equal('Perp');
  });

  it('lists markets and serves an empty book with a root', async () => {
    const ms = (await client.listMarkets()).filter((m) => m.market_id === marketId);
    expect(ms).to.have.length(1);
    expect(ms[0]).to.include({ base_mint: BASE, quote_mint: QUOTE, name: 'ONE/TWO', kind: 'Spot' });
    const book = await client.orderBook(marketId);
    expect(book.bids).to.deep.equal([]);
    expect(book.merkle_root).to.match(/^[0-9a-f]{64}$/);
  });

  it('places, matches and cancels signed orders, with receipts that verify', async () => {
    const h = await client.health();
    const pub = fromBase58Key(h.public_key);
    const a = await client.placeOrder(buildOrderBody(intent(alice.publicKey, 1n, 'Sell', 100n, 10n), alice.secretKey));
    expect(a.status).to.equal('resting');
    expect(verifyReceipt(a.receipt, pub)).to.equal(true);
    expect(a.receipt.owner).to.equal(toBase58(alice.publicKey));
    const b = await client.placeOrder(buildOrderBody(intent(bob.publicKey, 1n, 'Buy', 101n, 4n), bob.secretKey));
    expect(b.status).to.equal('filled');
    expect(b.trades).to.have.length(1);
    expect(b.trades[0]).to.include({ price: '100', quantity: '4', taker_side: 'Buy', maker_order_id: '1' });
    expect(verifyReceipt(b.receipt, pub)).to.equal(true);
    expect(BigInt(b.receipt.continuum_sequence) > BigInt(a.receipt.continuum_sequence)).to.equal(true);
    const book = await client.orderBook(marketId);
    expect(book.asks).to.deep.equal([{ price: '100', quantity: '6', orders: 1 }]);
    expect(book.merkle_root).to.equal(b.receipt.merkle_root);
    const trades = await client.trades(marketId);
    expect(trades[0]).to.include({ price: '100', quantity: '4' });
    const c = await client.cancelOrder(
      buildCancelBody({ orderId: 1n, owner: alice.publicKey, marketId }, alice.secretKey),
    );
    expect(c.cancelled_quantity).to.equal('6');
    expect(verifyReceipt(c.receipt, pub)).to.equal(true);
    expect((await client.orderBook(marketId)).asks).to.deep.equal([]);
  });

  it('lists the book with slots so a client recomputes merkle_root (and the receipt root) with the SDK', async () => {
    const r1 = await client.placeOrder(buildOrderBody(intent(alice.publicKey, 50n, 'Sell', 120n, 4n), alice.secretKey));
    const r2 = await client.placeOrder(
      buildOrderBody(
        intent(bob.publicKey, 51n, 'Buy', 80n, 2n, BigInt(Math.floor(Date.now() / 1000) + 3600)),
        bob.secretKey,
      ),
    );
    const book = await client.orderBook(marketId, 10, true);
    expect(book.orders!.length).to.be.greaterThan(1);
    expect(stateRootOf(book.orders!, book.tree_size)).to.equal(book.merkle_root);
    expect(book.merkle_root).to.equal(r2.receipt.merkle_root);
    expect(r1.receipt.merkle_root).to.not.equal(r2.receipt.merkle_root);
    // Tampering with any listed field changes the recomputed root.
    const forged = book.orders!.map((o, i) => (i === 0 ? { ...o, remaining: String(BigInt(o.remaining) + 1n) } : o));
    expect(stateRootOf(forged, book.tree_size)).to.not.equal(book.merkle_root);
    const bad = await get(`${t.url}/markets/${marketId}/orderbook?orders=maybe`);
    expect(bad.status).to.equal(400);
  });

  describe('bad input', () => {
    const good = (): PlaceOrderBody =>
      buildOrderBody(
        intent(alice.publicKey, 1000n + BigInt(Math.floor(Math.random() * 1e9)), 'Buy', 5n, 5n),
        alice.secretKey,
      );
    const expectError = (r: { status: number; json: Record<string, unknown> }, status: number, code: string) => {
      expect(r.status, JSON.stringify(r.json)).to.equal(status);
      expect(r.json).to.include({ ok: false, code });
      expect(r.json.error).to.be.a('string');
    };

    it('Base58 that does not decode to 32 bytes: 400', async () => {
      expectError(
        await post(`${t.url}/orders`, { ...good(), owner: toBase58(new Uint8Array(31).fill(1)) }),
        400,
        'INVALID_FIELD',
      );
      expectError(await post(`${t.url}/orders`, { ...good(), base_mint: '0OIl' }), 400, 'INVALID_FIELD');
      expectError(
        await post(`${t.url}/markets`, { base_mint: 'abc', quote_mint: QUOTE, name: 'x' }),
        400,
        'INVALID_FIELD',
      );
    });

    it('an unknown market: 404 (by id and by mints)', async () => {
      expectError(await get(`${t.url}/markets/00000000-0000-4000-8000-000000000000/orderbook`), 404, 'UNKNOWN_MARKET');
      expectError(await get(`${t.url}/markets/00000000-0000-4000-8000-000000000000/trades`), 404, 'UNKNOWN_MARKET');
      const body = buildOrderBody(
        { ...intent(alice.publicKey, 77n, 'Buy', 5n, 5n), quoteMint: mint(7) },
        alice.secretKey,
      );
      expectError(await post(`${t.url}/orders`, body), 404, 'UNKNOWN_MARKET');
    });

    it('a malformed UUID: 400', async () => {
      expectError(await get(`${t.url}/markets/not-a-uuid/orderbook`), 400, 'INVALID_UUID');
      expectError(await get(`${t.url}/markets/${marketId.toUpperCase()}/trades`), 400, 'INVALID_UUID');
      const c = buildCancelBody({ orderId: 1n, owner: alice.publicKey, marketId: 'zzzz' }, alice.secretKey);
      expectError(await post(`${t.url}/orders/cancel`, c), 400, 'INVALID_UUID');
    });

    it('zero or overflowing price or quantity: 400', async () => {
      expectError(await post(`${t.url}/orders`, { ...good(), price: '0' }), 400, 'INVALID_FIELD');
      expectError(await post(`${t.url}/orders`, { ...good(), quantity: 0 }), 400, 'INVALID_FIELD');
      expectError(await post(`${t.url}/orders`, { ...good(), price: '18446744073709551616' }), 400, 'INVALID_FIELD');
      expectError(await post(`${t.url}/orders`, { ...good(), quantity: '-1' }), 400, 'INVALID_FIELD');
      expectError(await post(`${t.url}/orders`, { ...good(), quantity: 1e300 }), 400, 'INVALID_FIELD');
      expectError(await post(`${t.url}/orders`, { ...good(), price: 1.5 }), 400, 'INVALID_FIELD');
    });

    it('an expired order: 400', async () => {
      const body = buildOrderBody(
        intent(alice.publicKey, 501n, 'Buy', 5n, 5n, BigInt(Math.floor(Date.now() / 1000) - 10)),
        alice.secretKey,
      );
      expectError(await post(`${t.url}/orders`, body), 400, 'ORDER_EXPIRED');
    });

    it('an unknown side: 400', async () => {
      expectError(await post(`${t.url}/orders`, { ...good(), side: 'Hold' }), 400, 'INVALID_SIDE');
      expectError(await post(`${t.url}/orders`, { ...good(), side: 0 }), 400, 'INVALID_SIDE');
    });

    it('missing fields: 400', async () => {
      for (const f of [
        'order_id',
        'owner',
        'side',
        'price',
        'quantity',
        'expiry',
        'base_mint',
        'quote_mint',
        'signature',
      ]) {
        const b: Record<string, unknown> = { ...good() };
        delete b[f];
        expectError(await post(`${t.url}/orders`, b), 400, 'MISSING_FIELD');
      }
      expectError(await post(`${t.url}/markets`, { base_mint: BASE, quote_mint: QUOTE }), 400, 'MISSING_FIELD');
      expectError(
        await post(`${t.url}/orders/cancel`, {
          order_id: '1',
          owner: toBase58(alice.publicKey),
          signature: 'aa'.repeat(64),
        }),
        400,
        'MISSING_FIELD',
      );
    });

    it('a body that is not JSON (400), not declared JSON (415), or not an object (400)', async () => {
      expectError(await post(`${t.url}/orders`, '{"order_id": 1,'), 400, 'INVALID_JSON');
      expectError(
        await post(`${t.url}/orders`, JSON.stringify(good()), { 'content-type': 'text/plain' }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expectError(await post(`${t.url}/orders`, '[1,2]'), 400, 'BAD_REQUEST');
    });

    it('an oversized body: 413', async () => {
      expectError(await post(`${t.url}/orders`, { ...good(), pad: 'x'.repeat(5000) }), 413, 'BODY_TOO_LARGE');
    });

    it('a signature of the wrong length: 400', async () => {
      expectError(
        await post(`${t.url}/orders`, { ...good(), signature: good().signature.slice(0, 126) }),
        400,
        'INVALID_SIGNATURE_FORMAT',
      );
      expectError(
        await post(`${t.url}/orders`, { ...good(), signature: `${good().signature}00` }),
        400,
        'INVALID_SIGNATURE_FORMAT',
      );
    });

    it('a valid signature over other bytes: 401', async () => {
      const body = good();
      const other = buildOrderBody(intent(alice.publicKey, 9n, 'Buy', 5n, 6n), alice.secretKey);
      expectError(await post(`${t.url}/orders`, { ...body, signature: other.signature }), 401, 'BAD_SIGNATURE');
      // The same intent with a changed price after signing.
      expectError(await post(`${t.url}/orders`, { ...body, price: '6' }), 401, 'BAD_SIGNATURE');
    });

    it('a cancel signed by someone other than the owner: 401; of an unknown order: 404', async () => {
      await client.placeOrder(buildOrderBody(intent(alice.publicKey, 600n, 'Buy', 1n, 1n), alice.secretKey));
      const forged = buildCancelBody({ orderId: 600n, owner: alice.publicKey, marketId }, bob.secretKey);
      expectError(await post(`${t.url}/orders/cancel`, forged), 401, 'BAD_SIGNATURE');
      const unknown = buildCancelBody({ orderId: 601n, owner: alice.publicKey, marketId }, alice.secretKey);
      expectError(await post(`${t.url}/orders/cancel`, unknown), 404, 'UNKNOWN_ORDER');
      // The real owner's cancel works, and replaying it answers 409.
      const real = buildCancelBody({ orderId: 600n, owner: alice.publicKey, marketId }, alice.secretKey);
      expect((await post(`${t.url}/orders/cancel`, real)).status).to.equal(200);
      expectError(await post(`${t.url}/orders/cancel`, real), 409, 'ORDER_NOT_OPEN');
    });

    it('a duplicate market pair (either orientation): 409', async () => {
      expectError(
        await post(`${t.url}/markets`, { base_mint: BASE, quote_mint: QUOTE, name: 'again' }),
        409,
        'DUPLICATE_MARKET',
      );
      expectError(
        await post(`${t.url}/markets`, { base_mint: QUOTE, quote_mint: BASE, name: 'again' }),
        409,
        'DUPLICATE_MARKET',
      );
      expectError(
        await post(`${t.url}/markets`, { base_mint: BASE, quote_mint: BASE, name: 'self' }),
        400,
        'INVALID_MARKET',
      );
      expectError(
        await post(`${t.url}/markets`, { base_mint: BASE, quote_mint: toBase58(mint(9)), name: 'x', kind: 'Option' }),
        400,
        'INVALID_FIELD',
      );
    });

    it('a replayed order, sequential or concurrent: 409, and the book holds it once', async () => {
      const body = buildOrderBody(intent(bob.publicKey, 700n, 'Buy', 2n, 3n), bob.secretKey);
      const [r1, r2] = await Promise.all([post(`${t.url}/orders`, body), post(`${t.url}/orders`, body)]);
      expect([r1.status, r2.status].sort()).to.deep.equal([200, 409]);
      expectError(await post(`${t.url}/orders`, body), 409, 'ORDER_REPLAYED');
      const book = await client.orderBook(marketId);
      expect(book.bids.find((l) => l.price === '2')).to.deep.equal({ price: '2', quantity: '3', orders: 1 });
    });

    it('unknown routes answer 404 in the envelope', async () => {
      expectError(await get(`${t.url}/nope`), 404, 'NOT_FOUND');
    });
  });

  it('the SDK client surfaces errors as DexApiError with status and code', async () => {
    try {
      await client.orderBook('00000000-0000-4000-8000-000000000000');
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(DexApiError);
      expect((err as DexApiError).status).to.equal(404);
      expect((err as DexApiError).code).to.equal('UNKNOWN_MARKET');
    }
  });
});
