/**
 * The indexer against the real node, nats-server and PostgreSQL: from an empty database it
 * catches up with the node's stream and then answers the node's explorer reads byte for
 * byte (raw bodies compared, errors included), its trades are the node's own trades (ids,
 * prices, quantities, both sides' owners and order ids), orders and fills add up, candles
 * sum the trades, and every history list pages by keyset cursor with no gap or repeat.
 * Hostile parameters get 400 with a message.
 */
import { expect } from 'chai';
import { silentLogger } from '../../src/log/index.js';
import { DexClient } from '../../src/sdk/index.js';
import { startIndexer, type Indexer } from '../../src/indexer/index.js';
import { getJson, getText, startFixture, type Fixture } from './support/fixture.js';

describe('indexer: reads from PostgreSQL', function () {
  this.timeout(120_000);
  let fx: Fixture;
  let indexer: Indexer;
  let base: string;

  before(async () => {
    fx = await startFixture();
    const pgUrl = await fx.pg.createDatabase('reads');
    indexer = await startIndexer({
      pgUrl,
      mqUrl: fx.nats.url,
      mqStream: 'SVC',
      indexerConsumer: 'reads',
      indexerAddr: { host: '127.0.0.1', port: 0 },
      indexerBatch: 1000,
      logger: silentLogger(),
    });
    base = `http://127.0.0.1:${indexer.address.port}`;
    await indexer.reached(fx.lastSeq, 30_000);
  });

  after(async () => {
    await indexer?.close();
    await fx?.close();
  });

  it("answers the node's block, transaction and event reads byte for byte", async () => {
    const { block_height } = await getJson<{ block_height: number }>(`${fx.rpc}/status`);
    expect(block_height).to.be.greaterThan(3);
    const paths = [
      '/blocks',
      '/blocks?limit=100',
      '/blocks?limit=3&offset=2',
      `/blocks?offset=${block_height + 5}`,
      '/blocks/latest',
      '/events',
      '/events?limit=200&offset=1',
      `/events?market_id=${fx.marketId}`,
      `/events?market_id=${fx.ownMarketId}&limit=2`,
    ];
    for (let h = 1; h <= block_height; h++) paths.push(`/blocks/${h}`);
    const txIds: string[] = [];
    for (let h = 1; h <= block_height; h++)
      txIds.push(
        ...(await getJson<{ block: { transaction_ids: string[] } }>(`${fx.rpc}/blocks/${h}`)).block.transaction_ids,
      );
    expect(txIds.length).to.be.greaterThan(20);
    for (const id of txIds) paths.push(`/transactions/${id}`);
    // Errors, byte for byte too.
    paths.push(
      '/blocks/0',
      '/blocks/abc',
      `/blocks/${block_height + 1}`,
      '/blocks/99999999999999999999',
      '/transactions/xyz',
      '/transactions/0000000000000001-0000-0000',
      '/transactions/00000000000fffff-0000-0000',
    );
    paths.push(
      '/events?limit=0',
      '/events?limit=201',
      '/events?offset=-1',
      '/events?market_id=NOT-A-UUID',
      '/events?market_id=00000000-0000-0000-0000-000000000000',
      '/blocks?limit=1&limit=2',
      '/nowhere',
    );
    for (const p of paths) {
      const [node, idx] = await Promise.all([getText(`${fx.rpc}${p}`), getText(`${base}${p}`)]);
      expect({ path: p, status: idx.status, body: idx.body }).to.deep.equal({
        path: p,
        status: node.status,
        body: node.body,
      });
    }
    const post = await fetch(`${base}/blocks`, { method: 'POST' });
    expect(post.status).to.equal(405);
  });

  it("derives the node's own trades, and orders and fills that add up", async () => {
    for (const market of [fx.marketId, fx.ownMarketId]) {
      const node = (await new DexClient(fx.dex).trades(market, 1000)) as unknown as Array<
        Record<string, string | number>
      >;
      const mine = (
        await getJson<{ trades: Array<Record<string, string | number>> }>(`${base}/markets/${market}/trades?limit=1000`)
      ).trades;
      expect(mine.length).to.equal(node.length).and.to.be.greaterThan(0);
      const pick = (t: Record<string, string | number>) => [
        String(t.trade_id),
        t.price,
        t.quantity,
        t.taker_side,
        t.maker_owner,
        String(t.maker_order_id),
        t.taker_owner,
        String(t.taker_order_id),
        String(t.continuum_sequence),
      ];
      expect(mine.map(pick)).to.deep.equal(node.map(pick));
    }
    // Owner A of the own market: a cancel, a self-trade, two fills by B.
    const orders = (
      await getJson<{ orders: Array<Record<string, string | null>> }>(`${base}/owners/${fx.owner}/orders`)
    ).orders;
    const byId = new Map(orders.map((o) => [o.order_id, o]));
    expect(byId.get('1')).to.include({ status: 'cancelled', filled_quantity: '0', remaining: '0' });
    expect(byId.get('1')!.ended_by).to.be.a('string');
    expect(byId.get('3')).to.include({ status: 'self_trade', filled_quantity: '0' });
    expect(byId.get('4')).to.include({ status: 'filled', filled_quantity: '3', remaining: '0' });
    expect(byId.get('2')).to.include({ status: 'open', filled_quantity: '1', remaining: '5' });
    const fills = (await getJson<{ fills: Array<Record<string, string | number>> }>(`${base}/owners/${fx.owner}/fills`))
      .fills;
    expect(fills.map((f) => [f.order_id, f.role, f.side, f.price, f.quantity])).to.deep.equal([
      ['2', 'maker', 'Buy', '6', '1'],
      ['4', 'maker', 'Buy', '20', '3'],
    ]);
    // Owner B's mass cancel (Sell side) ended its sells 2 and 3, each ended_by it; its bid rests.
    const massed = (
      await getJson<{ orders: Array<Record<string, string | null>> }>(`${base}/owners/${fx.massOwner}/orders`)
    ).orders;
    const b = new Map(massed.map((o) => [o.order_id, o]));
    expect(b.get('2')).to.include({ status: 'cancelled', filled_quantity: '0', remaining: '0' });
    expect(b.get('3')).to.include({ status: 'cancelled', filled_quantity: '0', remaining: '0' });
    expect(b.get('4')).to.include({ status: 'open', remaining: '1' });
    const massTx = await getJson<{ kind: string; cancelled_order_ids: number[] }>(
      `${base}/transactions/${b.get('2')!.ended_by}`,
    );
    expect(massTx).to.deep.include({ kind: 'cancel_all', cancelled_order_ids: [2, 3] });
    expect(b.get('3')!.ended_by).to.equal(b.get('2')!.ended_by);
    // The node's open orders of A are the indexer's open ones.
    const open = await getJson<{ orders: Array<{ order_id: number; remaining: number }> }>(
      `${fx.rpc}/orders/user/${fx.owner}`,
    );
    expect(open.orders.map((o) => [String(o.order_id), String(o.remaining)])).to.deep.equal(
      orders.filter((o) => o.status === 'open').map((o) => [o.order_id, o.remaining]),
    );
  });

  it("builds candles whose volume and count are the trades'", async () => {
    const trades = (
      await getJson<{ trades: Array<{ quantity: string; timestamp_ms: number; price: string }> }>(
        `${base}/markets/${fx.marketId}/trades?limit=1000`,
      )
    ).trades;
    const from = Math.floor(Math.min(...trades.map((t) => t.timestamp_ms)) / 1000 / 86400) * 86400;
    for (const resolution of ['1m', '5m', '1h', '1d']) {
      const { candles } = await getJson<{
        candles: Array<{
          time: number;
          open: string;
          high: string;
          low: string;
          close: string;
          volume: string;
          trades: number;
        }>;
      }>(`${base}/markets/${fx.marketId}/candles?resolution=${resolution}&from=${from}&to=${from + 2 * 86400}`);
      expect(
        candles.reduce((s, c) => s + c.trades, 0),
        resolution,
      ).to.equal(trades.length);
      expect(
        candles.reduce((s, c) => s + BigInt(c.volume), 0n),
        resolution,
      ).to.equal(trades.reduce((s, t) => s + BigInt(t.quantity), 0n));
      for (const c of candles)
        expect(
          BigInt(c.low) <= BigInt(c.open) &&
            BigInt(c.open) <= BigInt(c.high) &&
            BigInt(c.low) <= BigInt(c.close) &&
            BigInt(c.close) <= BigInt(c.high),
        ).to.equal(true);
    }
    // The oldest trade opens the first 1d candle.
    const day = (
      await getJson<{ candles: Array<{ open: string }> }>(
        `${base}/markets/${fx.marketId}/candles?resolution=1d&from=${from}&to=${from + 86400 * 2}`,
      )
    ).candles;
    expect(day[0]!.open).to.equal(trades.at(-1)!.price);
  });

  it('pages every history list by cursor, with no gap and no repeat', async () => {
    const all = (
      await getJson<{ trades: Array<{ trade_id: number }> }>(`${base}/markets/${fx.marketId}/trades?limit=1000`)
    ).trades.map((t) => t.trade_id);
    const walk = async (first: string, key: string): Promise<unknown[]> => {
      const out: unknown[] = [];
      let url = first;
      for (let i = 0; i < 1000; i++) {
        const page = await getJson<Record<string, unknown>>(url);
        out.push(...(page[key] as unknown[]));
        if (page.next_cursor === null) return out;
        url = `${first}&cursor=${page.next_cursor as string}`;
      }
      throw new Error('no last page');
    };
    const paged = (await walk(`${base}/markets/${fx.marketId}/trades?limit=7`, 'trades')) as Array<{
      trade_id: number;
    }>;
    expect(paged.map((t) => t.trade_id)).to.deep.equal(all);
    expect(all).to.deep.equal([...all].sort((a, b) => b - a));
    const flowOwner = (
      await getJson<{ trades: Array<{ maker_owner: string }> }>(`${base}/markets/${fx.marketId}/trades?limit=1`)
    ).trades[0]!.maker_owner;
    const orders = await walk(`${base}/owners/${flowOwner}/orders?limit=1000`, 'orders');
    expect(await walk(`${base}/owners/${flowOwner}/orders?limit=3`, 'orders')).to.deep.equal(orders);
    const fills = await walk(`${base}/owners/${flowOwner}/fills?limit=1000`, 'fills');
    expect(fills.length).to.be.greaterThan(0);
    expect(await walk(`${base}/owners/${flowOwner}/fills?limit=2`, 'fills')).to.deep.equal(fills);
  });

  it('answers hostile parameters with 400 and a message, unknown markets with 404', async () => {
    const m = fx.marketId;
    const bad: Array<[string, number, RegExp]> = [
      [`/markets/${m}/trades?cursor=!!`, 400, /cursor is not one this indexer gave/],
      [`/markets/${m}/trades?cursor=${Buffer.from('1:2').toString('base64url')}`, 400, /cursor/],
      [`/markets/${m}/trades?cursor=${Buffer.from('01').toString('base64url')}`, 400, /cursor/],
      [`/markets/${m}/trades?cursor=${Buffer.from('99999999999999999999').toString('base64url')}`, 400, /cursor/],
      [`/markets/${m}/trades?limit=1001`, 400, /limit must be an integer in 1..1000/],
      [`/markets/${m}/trades?limit=0`, 400, /limit/],
      [`/markets/${m}/candles?resolution=2m&from=0&to=60`, 400, /resolution must be one of 1m, 5m, 1h, 1d/],
      [`/markets/${m}/candles?from=0&to=60`, 400, /resolution/],
      [`/markets/${m}/candles?resolution=1m&from=60&to=60`, 400, /from \(60\) must be before to \(60\)/],
      [`/markets/${m}/candles?resolution=1m&from=0&to=360000`, 400, /at most 5000/],
      [`/markets/${m}/candles?resolution=1m&to=60`, 400, /from is required/],
      [`/markets/${m}/candles?resolution=1m&from=-5&to=60`, 400, /from must be an integer/],
      [`/markets/${m}/candles?resolution=1m&resolution=5m&from=0&to=60`, 400, /given 2 times/],
      ['/markets/NOT-A-UUID/trades', 400, /market_id must be a lowercase UUID/],
      ['/markets/00000000-0000-0000-0000-000000000000/trades', 404, /does not exist/],
      ['/owners/not-base58!/orders', 400, /owner must be a Base58 public key/],
      ['/owners/abc/fills', 400, /owner must be a Base58 public key/],
      [`/owners/${fx.owner}/fills?cursor=${Buffer.from('5').toString('base64url')}`, 400, /cursor/],
    ];
    for (const [path, status, message] of bad) {
      const res = await getText(`${base}${path}`);
      expect(res.status, path).to.equal(status);
      expect((JSON.parse(res.body) as { error: string }).error, path).to.match(message);
    }
    const none = await getJson<{ orders: unknown[]; next_cursor: null }>(
      `${base}/owners/11111111111111111111111111111111/orders`,
    );
    expect(none).to.deep.equal({ owner: '11111111111111111111111111111111', orders: [], next_cursor: null });
  });

  it('reports itself on /health and /metrics and documents every route in /openapi.json', async () => {
    const health = await getJson<Record<string, unknown>>(`${base}/health`);
    expect(health).to.include({
      status: 'ok',
      state: 'consuming',
      database: 'up',
      nats: 'up',
      stream_seq: fx.lastSeq,
      lag_messages: 0,
    });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).to.match(new RegExp(`^svc_indexer_stream_seq ${fx.lastSeq}$`, 'm'));
    expect(metrics).to.match(/^svc_indexer_db_up 1$/m);
    expect(metrics).to.match(/^svc_indexer_messages_total\{kind="block"\} [1-9]/m);
    const api = await getJson<{ paths: Record<string, unknown> }>(`${base}/openapi.json`);
    for (const p of [
      '/blocks',
      '/blocks/latest',
      '/blocks/{height}',
      '/transactions/{id}',
      '/events',
      '/markets/{market_id}/trades',
      '/markets/{market_id}/candles',
      '/owners/{owner}/orders',
      '/owners/{owner}/fills',
      '/health',
      '/metrics',
    ]) {
      expect(api.paths, p).to.have.property(p);
    }
  });
});
