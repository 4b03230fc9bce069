import { expect } from 'chai';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toBase58 } from '../../src/sdk/index.js';
import { mint } from '../dex/support/orders.js';
import { startTestDex, type TestDex } from '../dex/support/server.js';
import { svc } from './support.js';

describe('svc keygen / market / order / receipt (CLI against a real server)', () => {
  let t: TestDex;
  before(async () => {
    t = await startTestDex();
  });
  after(async () => t.close());

  it('trades from the terminal: keygen, market create, order place, receipt verify, order cancel', async () => {
    const key = join(t.dir, 'alice.json');
    const k = await svc('keygen', '--out', key);
    expect(k.code).to.equal(0);
    expect((await stat(key)).mode & 0o777).to.equal(0o600);
    expect((await svc('keygen', '--out', key)).code).to.equal(2); // no silent overwrite

    const m = await svc(
      'market',
      'create',
      '--base',
      toBase58(mint(41)),
      '--quote',
      toBase58(mint(42)),
      '--name',
      'CLI/USD',
      '--url',
      t.url,
    );
    expect(m.code, m.err).to.equal(0);
    const market = JSON.parse(m.out) as { market_id: string };

    const receiptFile = join(t.dir, 'receipt.json');
    const p = await svc(
      'order',
      'place',
      '--key',
      key,
      '--market',
      market.market_id,
      '--side',
      'buy',
      '--price',
      '100',
      '--quantity',
      '3',
      '--order-id',
      '7',
      '--receipt-out',
      receiptFile,
      '--url',
      t.url,
    );
    expect(p.code, p.err).to.equal(0);
    expect(JSON.parse(p.out)).to.include({ status: 'resting' });

    const v = await svc('receipt', 'verify', '--receipt', receiptFile, '--url', t.url);
    expect(v.code, v.out + v.err).to.equal(0);
    expect(JSON.parse(v.out)).to.include({ valid: true });

    const r = JSON.parse(await readFile(receiptFile, 'utf8')) as { timestamp_ms: number };
    r.timestamp_ms += 1;
    await writeFile(receiptFile, JSON.stringify(r));
    const bad = await svc('receipt', 'verify', '--receipt', receiptFile, '--url', t.url);
    expect(bad.code).to.equal(1);
    expect(JSON.parse(bad.out)).to.include({ valid: false });

    const c = await svc(
      'order',
      'cancel',
      '--key',
      key,
      '--market',
      market.market_id,
      '--order-id',
      '7',
      '--url',
      t.url,
    );
    expect(c.code, c.err).to.equal(0);
    expect(JSON.parse(c.out)).to.include({ cancelled_quantity: '3' });
    const again = await svc(
      'order',
      'cancel',
      '--key',
      key,
      '--market',
      market.market_id,
      '--order-id',
      '7',
      '--url',
      t.url,
    );
    expect(again.code).to.equal(1);
    expect(again.err).to.match(/409 ORDER_NOT_OPEN/);
  });

  it('svc order batch --file: orders and a cancel of one of them in one request, a result per line', async () => {
    const key = join(t.dir, 'batcher.json');
    expect((await svc('keygen', '--out', key)).code).to.equal(0);
    const m = await svc(
      'market',
      'create',
      '--base',
      toBase58(mint(43)),
      '--quote',
      toBase58(mint(44)),
      '--name',
      'BATCH/USD',
      '--url',
      t.url,
    );
    const market = (JSON.parse(m.out) as { market_id: string }).market_id;
    const file = join(t.dir, 'batch.jsonl');
    const lines = [
      '# quotes',
      JSON.stringify({ kind: 'order', market, side: 'buy', price: '99', quantity: '2', order_id: '1' }),
      JSON.stringify({ kind: 'order', market, side: 'sell', price: 101, quantity: 4, order_id: 2 }),
      '',
      JSON.stringify({ kind: 'cancel', market, order_id: '1' }),
      JSON.stringify({ kind: 'order', market, side: 'sell', price: '101', quantity: '4', order_id: '2' }),
    ];
    await writeFile(file, lines.join('\n'));
    const b = await svc('order', 'batch', '--key', key, '--file', file, '--url', t.url);
    expect(b.code, b.err).to.equal(1); // the last line reuses order id 2
    const results = JSON.parse(b.out) as Array<{ ok: boolean; code?: string; data?: { cancelled_quantity?: string } }>;
    expect(results.map((r) => (r.ok ? 'ok' : r.code))).to.deep.equal(['ok', 'ok', 'ok', 'ORDER_REPLAYED']);
    expect(results[2]!.data!.cancelled_quantity).to.equal('2');

    await writeFile(file, `{"kind":"order","market":"${market}","side":"up"}\n`);
    const bad = await svc('order', 'batch', '--key', key, '--file', file, '--url', t.url);
    expect(bad.code).to.equal(2);
    expect(bad.err).to.match(/batch\.jsonl:1: "price" is missing|batch\.jsonl:1: "side" must be/);
  });

  it('svc order cancel-all: one side, then the rest with a chosen request id; that id again is 409; a bad side is a usage error', async () => {
    const key = join(t.dir, 'mass.json');
    expect((await svc('keygen', '--out', key)).code).to.equal(0);
    const m = await svc(
      'market',
      'create',
      '--base',
      toBase58(mint(45)),
      '--quote',
      toBase58(mint(46)),
      '--name',
      'MASS/USD',
      '--url',
      t.url,
    );
    expect(m.code, m.err).to.equal(0);
    const market = (JSON.parse(m.out) as { market_id: string }).market_id;
    for (const [id, side, price] of [
      ['8', 'sell', '120'],
      ['9', 'buy', '80'],
    ] as const) {
      const p = await svc(
        'order',
        'place',
        '--key',
        key,
        '--market',
        market,
        '--side',
        side,
        '--price',
        price,
        '--quantity',
        '2',
        '--order-id',
        id,
        '--url',
        t.url,
      );
      expect(p.code, p.err).to.equal(0);
    }
    const sells = await svc('order', 'cancel-all', '--key', key, '--market', market, '--side', 'sell', '--url', t.url);
    expect(sells.code, sells.err).to.equal(0);
    const a = JSON.parse(sells.out) as {
      side: string;
      cancelled: Array<{ order_id: string }>;
      receipt: { order_id: string };
    };
    expect([a.side, a.cancelled.map((c) => c.order_id)]).to.deep.equal(['Sell', ['8']]);
    const rest = await svc(
      'order',
      'cancel-all',
      '--key',
      key,
      '--market',
      market,
      '--request-id',
      '5',
      '--url',
      t.url,
    );
    expect(rest.code, rest.err).to.equal(0);
    expect(JSON.parse(rest.out)).to.deep.include({
      request_id: '5',
      side: 'Both',
      cancelled: [{ order_id: '9', side: 'Buy', price: '80', cancelled_quantity: '2' }],
    });
    const again = await svc(
      'order',
      'cancel-all',
      '--key',
      key,
      '--market',
      market,
      '--request-id',
      '5',
      '--url',
      t.url,
    );
    expect(again.code).to.equal(1);
    expect(again.err).to.match(/409 CANCEL_ALL_REPLAYED/);
    const bad = await svc('order', 'cancel-all', '--key', key, '--market', market, '--side', 'both', '--url', t.url);
    expect(bad.code).to.equal(2);
    expect(bad.err).to.match(/--side must be buy or sell/);
  });

  it('refuses bad arguments with a message', async () => {
    const r = await svc('order', 'place', '--key', '/nonexistent.json', '--market', 'x', '--url', t.url);
    expect(r.code).to.equal(2);
    expect(r.err).to.match(/nonexistent/);
  });
});
