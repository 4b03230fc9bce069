/**
 * Hostile input to the order book face of the real node (spec/2, docs/dex-api.md): forged
 * signatures for small-order and non-canonical keys (docs/signing.md "Which signatures
 * verify"), over HTTP and straight through the sequencer's gRPC; each answered with its
 * documented code, and the node keeps answering other clients.
 */
import { expect } from 'chai';
import { encodePlaceOrderIntent, toTransaction } from '../../src/dex/engine/index.js';
import { SMALL_ORDER_POINTS } from '../../src/crypto/ed25519-rules.js';
import { buildOrderBody, fromHex, keyPairFromSeed, toBase58, toHex, type OrderIntent } from '../../src/sdk/index.js';
import { SequencerClient } from '../support/grpc-client.js';
import { connect } from 'node:net';
import { http, postJson, splitAddress, startHostileNode, stillServes, type HostileNode } from './support.js';

const mint = (n: number) => new Uint8Array(32).fill(n);
const BASE = mint(0x31);
const QUOTE = mint(0x32);
/** R = the identity point, S = 0: verifies for a small-order key under lax rules, whatever the message. */
const FORGED_SIGNATURE = `01${'00'.repeat(63)}`;
const NON_CANONICAL_IDENTITY = 'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f';

function orderBody(owner: string, orderId: number, signature = FORGED_SIGNATURE): Record<string, unknown> {
  return {
    order_id: String(orderId),
    owner,
    side: 'Buy',
    price: '100',
    quantity: '5',
    expiry: '0',
    base_mint: toBase58(BASE),
    quote_mint: toBase58(QUOTE),
    signature,
  };
}

describe('hostile: order book (real node)', function () {
  this.timeout(60_000);
  let node: HostileNode;
  let marketId: string;

  before(async () => {
    node = await startHostileNode();
    const res = await postJson(node.addresses.dex!, '/markets', {
      base_mint: toBase58(BASE),
      quote_mint: toBase58(QUOTE),
      name: 'HOSTILE/TEST',
    });
    expect(res.status, res.text).to.equal(201);
    marketId = res.json<{ data: { market_id: string } }>().data.market_id;
  });
  after(async () => node?.stop());

  describe('forged signatures for small-order and non-canonical keys', () => {
    it('POST /orders for each of the 8 small-order owner keys with R = identity, S = 0: 401 BAD_SIGNATURE', async () => {
      for (const [i, key] of SMALL_ORDER_POINTS.entries()) {
        const res = await postJson(node.addresses.dex!, '/orders', orderBody(toBase58(fromHex(key)), 100 + i));
        expect(res.status, `${key}: ${res.text}`).to.equal(401);
        expect(res.json().code).to.equal('BAD_SIGNATURE');
      }
      await stillServes(node);
    });

    it('POST /orders for the identity encoded non-canonically (y = p + 1): 401 BAD_SIGNATURE', async () => {
      const res = await postJson(
        node.addresses.dex!,
        '/orders',
        orderBody(toBase58(fromHex(NON_CANONICAL_IDENTITY)), 200),
      );
      expect(res.status, res.text).to.equal(401);
      expect(res.json().code).to.equal('BAD_SIGNATURE');
    });

    it('POST /orders/cancel signed that way: 401 BAD_SIGNATURE, before any lookup of the order', async () => {
      const owner = toBase58(fromHex(SMALL_ORDER_POINTS[0]!));
      const res = await postJson(node.addresses.dex!, '/orders/cancel', {
        order_id: '100',
        owner,
        market_id: marketId,
        signature: FORGED_SIGNATURE,
      });
      expect(res.status, res.text).to.equal(401);
      expect(res.json().code).to.equal('BAD_SIGNATURE');
    });

    it('a forged order sent straight to the sequencer over gRPC is sequenced but never applied to the book', async () => {
      const owner = fromHex(SMALL_ORDER_POINTS[0]!);
      const intent: OrderIntent = {
        orderId: 300n,
        owner,
        side: 'Buy',
        price: 100n,
        quantity: 5n,
        expiry: 0n,
        baseMint: BASE,
        quoteMint: QUOTE,
      };
      const tx = toTransaction(
        'order',
        encodePlaceOrderIntent(intent, fromHex(FORGED_SIGNATURE)),
        owner,
        fromHex(FORGED_SIGNATURE),
        1n,
      );
      const client = new SequencerClient(node.addresses.grpc!);
      try {
        const ack = await client.submit({
          tx_id: tx.txId,
          payload: Buffer.from(tx.payload),
          signature: Buffer.from(tx.signature),
          public_key: Buffer.from(tx.publicKey),
          nonce: String(tx.nonce),
          timestamp: String(tx.timestamp),
        });
        // An honest order in a later tick: once it is answered, the forged one's tick was applied too.
        const maker = keyPairFromSeed(new Uint8Array(32).fill(0x77));
        const honest = await postJson(
          node.addresses.dex!,
          '/orders',
          buildOrderBody(
            { ...intent, owner: maker.publicKey, orderId: 1n, side: 'Sell', price: 1000n },
            maker.secretKey,
          ),
        );
        expect(honest.status, honest.text).to.equal(200);
        expect(
          honest.json<{ data: { receipt: { tick_number: number } } }>().data.receipt.tick_number,
        ).to.be.greaterThan(Number(ack.expected_tick) - 1);
        const book = await http(node.addresses.dex!, 'GET', `/markets/${marketId}/orderbook?orders=true`);
        const orders = book.json<{ data: { orders: Array<{ owner: string }> } }>().data.orders;
        expect(orders.map((o) => o.owner)).to.not.include(toBase58(owner));
        expect(orders.map((o) => o.owner)).to.include(toBase58(maker.publicKey));
      } finally {
        client.close();
      }
    });

    it('an honest order still goes through and its signature bytes are 128 hex', async () => {
      const trader = keyPairFromSeed(new Uint8Array(32).fill(0x42));
      const body = buildOrderBody(
        {
          orderId: 7n,
          owner: trader.publicKey,
          side: 'Buy',
          price: 10n,
          quantity: 1n,
          expiry: 0n,
          baseMint: BASE,
          quoteMint: QUOTE,
        },
        trader.secretKey,
      );
      const res = await postJson(node.addresses.dex!, '/orders', body);
      expect(res.status, res.text).to.equal(200);
      expect(body.signature).to.match(/^[0-9a-f]{128}$/);
      expect(toHex(fromHex(body.signature))).to.equal(body.signature);
    });
  });

  describe('oversized, truncated and wrong input', () => {
    it("16 parallel POST /orders with owner = '2' x 15,800: 400 INVALID_FIELD, and another client's /health answers within 1.5 s", async () => {
      const body = orderBody('2'.repeat(15_800), 1, '0'.repeat(128));
      const t0 = performance.now();
      const answers = Array.from({ length: 16 }, () => postJson(node.addresses.dex!, '/orders', body));
      const health = http(node.addresses.dex!, 'GET', '/health').then(() => performance.now() - t0);
      for (const res of await Promise.all(answers)) {
        expect(res.status).to.equal(400);
        expect(res.json()).to.include({ code: 'INVALID_FIELD' });
        expect(res.json<{ error: string }>().error).to.match(/owner/);
      }
      expect(await health, 'ms until /health answered').to.be.lessThan(1_500);
      await stillServes(node);
    });
  });

  describe('clients that vanish mid-body', () => {
    it('a client that disconnects mid-body is logged at debug, counted in /metrics, never logged as an error', async () => {
      const quiet = await startHostileNode(['--log-level', 'debug']);
      try {
        const [host, port] = splitAddress(quiet.addresses.dex!);
        const cut = async (path: string, headers: string, part: string) => {
          const socket = connect(port, host);
          await new Promise<void>((resolve) => socket.once('connect', resolve));
          socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n${part}`);
          await new Promise((r) => setTimeout(r, 50));
          socket.destroy();
        };
        await cut('/orders', 'Content-Length: 1000\r\n', '{"order_id": "1", "ow');
        await cut('/orders', 'Transfer-Encoding: chunked\r\n', '10\r\n{"order_id": "1"');
        await cut('/markets', 'Content-Length: 500\r\n', '{"base_mint": ');
        await cut('/orders/cancel', 'Content-Length: 500\r\n', '{');
        await stillServes(quiet);
        let metrics = '';
        for (let i = 0; i < 50; i++) {
          metrics = (await http(quiet.addresses.rest!, 'GET', '/metrics')).text;
          if (/svc_http_requests_aborted_total\{face="dex"\} 4/.test(metrics)) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(metrics).to.match(/svc_http_requests_aborted_total\{face="dex"\} 4/);
        expect(
          quiet
            .stderr()
            .split('\n')
            .filter((l) => l !== '' && !l.startsWith('{')),
          'non-JSON stderr',
        ).to.deep.equal([]);
        const lines = quiet
          .stderr()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { level: number; msg: string });
        expect(
          lines.filter((l) => l.level >= 50),
          'error lines',
        ).to.deep.equal([]);
        expect(lines.filter((l) => /mid-request \(aborted\)/.test(l.msg)).map((l) => l.level)).to.deep.equal([
          20, 20, 20, 20,
        ]);
        for (const l of lines.filter((x) => /disconnect|abort/.test(x.msg))) expect(l.level, l.msg).to.equal(20);
      } finally {
        await quiet.stop();
      }
    });
  });
});
