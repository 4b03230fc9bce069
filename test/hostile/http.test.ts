/**
 * Hostile HTTP to the real node: REST /api/v1 (docs/api.md) and the order book API
 * (docs/dex-api.md). Oversized, truncated and malformed bodies, wrong types, unicode, very
 * long numbers, keys of every wrong length, bad percent-encoding, huge URLs, and slow
 * clients; each gets its documented status and code, and every face keeps answering others.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import { toBase58 } from '../../src/sdk/index.js';
import { http, postJson, splitAddress, startHostileNode, stillServes, type HostileNode } from './support.js';

const KEY = toBase58(new Uint8Array(32).fill(7));
const MINT_A = toBase58(new Uint8Array(32).fill(0x51));
const MINT_B = toBase58(new Uint8Array(32).fill(0x52));
const order = (over: Record<string, unknown>) => ({
  order_id: '1',
  owner: KEY,
  side: 'Buy',
  price: '10',
  quantity: '1',
  expiry: '0',
  base_mint: MINT_A,
  quote_mint: MINT_B,
  signature: 'ab'.repeat(64),
  ...over,
});

describe('hostile: HTTP faces (real node)', function () {
  this.timeout(60_000);
  let node: HostileNode;
  let rest: string;
  let dex: string;
  before(async () => {
    node = await startHostileNode();
    rest = node.addresses.rest!;
    dex = node.addresses.dex!;
    const m = await postJson(dex, '/markets', { base_mint: MINT_A, quote_mint: MINT_B, name: 'A/B' });
    expect(m.status, m.text).to.equal(201);
  });
  after(async () => node?.stop());
  afterEach(async () => stillServes(node));

  describe('REST /api/v1', () => {
    it('tick numbers: very long, negative, fractional, exponent, hex, unicode, NUL: 400 with a message', async () => {
      for (const bad of [
        '9'.repeat(10_000),
        '-1',
        '1.5',
        '1e3',
        '0x10',
        '%F0%9F%98%80',
        '%00',
        '%20%31',
        encodeURIComponent('٣'),
      ]) {
        const res = await http(rest, 'GET', `/api/v1/tick/${bad}`);
        expect(res.status, bad.slice(0, 20)).to.equal(400);
        expect(res.json<{ error: string }>().error, bad.slice(0, 20)).to.match(/tick number/);
      }
    });

    it("bad percent-encoding in a path parameter is the client's error: 400, not 500", async () => {
      for (const path of ['/api/v1/tick/%ZZ', '/api/v1/tx/%E0%A4%A', '/api/v1/tick/%']) {
        const res = await http(rest, 'GET', path);
        expect(res.status, path).to.equal(400);
        expect(res.json()).to.have.property('error');
      }
    });

    it('transaction hashes: wrong length, non-hex, unicode, very long: 400', async () => {
      for (const bad of ['abc', '123456789', 'zzzzzzzz', '%C3%A9%C3%A9%C3%A9%C3%A9', 'f'.repeat(10_000), '0x123456']) {
        const res = await http(rest, 'GET', `/api/v1/tx/${bad}`);
        expect(res.status, bad.slice(0, 20)).to.equal(400);
      }
    });

    it('recent ticks: limit/offset out of range, repeated, exponent, huge, NUL: 400', async () => {
      for (const q of [
        'limit=0',
        'limit=101',
        'limit=1e2',
        'limit=1&limit=2',
        'limit=99999999999999999999',
        'offset=-1',
        'limit=%00',
        'offset=1000000001',
        `limit=${'9'.repeat(5000)}`,
      ]) {
        const res = await http(rest, 'GET', `/api/v1/ticks/recent?${q}`);
        expect(res.status, q.slice(0, 30)).to.equal(400);
      }
    });

    it('a URL beyond the header limit answers 431; other methods 405; unknown routes 404 JSON', async () => {
      expect((await http(rest, 'GET', `/api/v1/tick/${'1'.repeat(20_000)}`)).status).to.equal(431);
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'])
        expect((await http(rest, method, '/api/v1/status')).status, method).to.equal(405);
      const nf = await http(rest, 'GET', '/api/v1/nothing-here');
      expect(nf.status).to.equal(404);
      expect(nf.json()).to.have.property('error');
    });
  });

  describe('order book API', () => {
    it('bodies that are too large (declared or chunked), not JSON, or of the wrong media type: 413, 400, 415', async () => {
      const big = JSON.stringify(order({ pad: 'x'.repeat(17 * 1024) }));
      expect((await postJson(dex, '/orders', big)).json()).to.include({ code: 'BODY_TOO_LARGE' });
      const chunked = await http(dex, 'POST', '/orders', big, {
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      });
      expect(chunked.status).to.equal(413);
      for (const [body, code] of [
        ['{"order_id": "1", ', 'INVALID_JSON'],
        ['\ufeff{}', 'INVALID_JSON'],
        ['[1,2]', 'BAD_REQUEST'],
        ['"text"', 'BAD_REQUEST'],
        ['null', 'BAD_REQUEST'],
        ['{}', 'MISSING_FIELD'],
      ] as const) {
        const res = await postJson(dex, '/orders', body);
        expect(res.status, body).to.equal(400);
        expect(res.json(), body).to.include({ code });
      }
      const invalidUtf8 = Buffer.concat([Buffer.from('{"order_id": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
      const r = await http(dex, 'POST', '/orders', invalidUtf8, {
        'content-type': 'application/json',
        'content-length': String(invalidUtf8.length),
      });
      expect(r.status).to.equal(400);
      for (const type of ['text/plain', 'application/jsonx', 'application/x-www-form-urlencoded']) {
        const res = await http(dex, 'POST', '/orders', '{}', { 'content-type': type, 'content-length': '2' });
        expect(res.status, type).to.equal(415);
      }
      expect((await http(dex, 'POST', '/orders', '{}', { 'content-length': '2' })).status).to.equal(415);
    });

    it('deeply nested JSON within the size limit: 400, no crash', async () => {
      for (const body of [
        '['.repeat(8000) + ']'.repeat(8000),
        `${'{"a":'.repeat(2500)}1${'}'.repeat(2500)}`,
        '['.repeat(16_000),
      ]) {
        const res = await postJson(dex, '/orders', body);
        expect(res.status).to.equal(400);
      }
    });

    it('numbers: too long, fractional, exponent, beyond u64 or 2^53, negative: 400 INVALID_FIELD', async () => {
      const bad: Array<Record<string, unknown>> = [
        { order_id: '9'.repeat(21) },
        { order_id: '18446744073709551616' },
        { order_id: 1.5 },
        { order_id: '1e3' },
        // biome-ignore lint/correctness/noPrecisionLoss: the point: a JSON number beyond 2^53 is refused
        { order_id: 9007199254740993 },
        { price: '-1' },
        { price: '0' },
        { quantity: ' 1' },
        { expiry: '-5' },
        { expiry: '9223372036854775808' },
        { price: '١٢٣' },
      ];
      for (const over of bad) {
        const res = await postJson(dex, '/orders', order(over));
        expect(res.status, JSON.stringify(over)).to.equal(400);
        expect(res.json(), JSON.stringify(over)).to.include({ code: 'INVALID_FIELD' });
      }
      // 1e400 parses as Infinity; 400 digits as a JSON number too
      for (const raw of ['1e400', '9'.repeat(400), '0.5', '-1']) {
        const res = await postJson(dex, '/orders', JSON.stringify(order({ order_id: 'X' })).replace('"X"', raw));
        expect(res.status, raw.slice(0, 10)).to.equal(400);
        expect(res.json(), raw.slice(0, 10)).to.include({ code: 'INVALID_FIELD' });
      }
    });

    it('keys and mints of every wrong length and with foreign characters: 400 INVALID_FIELD', async () => {
      for (const n of [0, 1, 16, 31, 33, 48, 64]) {
        for (const field of ['owner', 'base_mint', 'quote_mint']) {
          const text = n === 0 ? '1' : toBase58(new Uint8Array(n).fill(n));
          const res = await postJson(dex, '/orders', order({ [field]: text }));
          expect(res.status, `${field} ${n} bytes`).to.equal(400);
          expect(res.json(), `${field} ${n} bytes`).to.include({ code: 'INVALID_FIELD' });
        }
      }
      for (const bad of ['0'.repeat(44), 'O'.repeat(44), 'é'.repeat(40), '😀'.repeat(20), 42, ['x'], { k: 1 }]) {
        const res = await postJson(dex, '/orders', order({ owner: bad }));
        expect(res.status, JSON.stringify(bad)).to.equal(400);
        expect(res.json(), JSON.stringify(bad)).to.include({ code: 'INVALID_FIELD' });
      }
    });

    it('sides, signatures, UUIDs, market names and query parameters: their documented 400 codes', async () => {
      for (const side of ['buy', 'SELL', 0, '', 'Bid'])
        expect((await postJson(dex, '/orders', order({ side }))).json(), String(side)).to.include({
          code: 'INVALID_SIDE',
        });
      for (const signature of ['ab'.repeat(63), 'ab'.repeat(65), 'zz'.repeat(64), 42]) {
        expect((await postJson(dex, '/orders', order({ signature }))).json(), String(signature)).to.include({
          code: 'INVALID_SIGNATURE_FORMAT',
        });
      }
      const cancel = { order_id: '1', owner: KEY, signature: 'ab'.repeat(64) };
      for (const market_id of ['F5AA3D3A-73C7-8330-9BE2-E6060B4AC4C8', 'not-a-uuid', '', 'é'.repeat(36)]) {
        expect((await postJson(dex, '/orders/cancel', { ...cancel, market_id })).json(), market_id).to.include({
          code: 'INVALID_UUID',
        });
      }
      for (const name of ['', 'é'.repeat(33), 'a\u0000b', 'line\nbreak']) {
        const res = await postJson(dex, '/markets', {
          base_mint: toBase58(new Uint8Array(32).fill(0x61)),
          quote_mint: toBase58(new Uint8Array(32).fill(0x62)),
          name,
        });
        expect(res.status, JSON.stringify(name)).to.equal(400);
        expect(res.json(), JSON.stringify(name)).to.include({ code: 'INVALID_MARKET' });
      }
      expect((await http(dex, 'GET', '/markets/not-a-uuid/orderbook')).json()).to.include({ code: 'INVALID_UUID' });
      expect((await http(dex, 'GET', '/markets/%ZZ/orderbook')).status).to.equal(400);
      for (const q of ['depth=0', 'depth=1001', 'depth=abc', 'depth=1e2']) {
        const markets = (await http(dex, 'GET', '/markets')).json<{ data: Array<{ market_id: string }> }>().data;
        expect((await http(dex, 'GET', `/markets/${markets[0]!.market_id}/orderbook?${q}`)).json(), q).to.include({
          code: 'INVALID_FIELD',
        });
      }
    });
  });

  describe('slow clients', () => {
    it('20 clients trickling their bodies a byte at a time do not slow anyone else', async () => {
      const [host, port] = splitAddress(dex);
      const sockets = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const s = connect(port, host);
          s.on('error', () => undefined);
          await new Promise<void>((resolve) => s.once('connect', () => resolve()));
          s.write(
            'POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{',
          );
          return s;
        }),
      );
      const timer = setInterval(() => sockets.forEach((s) => s.write(' ')), 50);
      try {
        for (let i = 0; i < 5; i++) await stillServes(node, 1_000);
      } finally {
        clearInterval(timer);
        sockets.forEach((s) => s.destroy());
      }
    });
  });
});
