/**
 * The explorer page's history from the indexer, in real headless Chromium, against the real
 * node (started with --indexer-url), nats-server, PostgreSQL and indexer, after a flow of
 * crossing orders: the market view draws the indexer's candles with lightweight-charts (the
 * bars the library's series holds equal the indexer's candles, at each of 1m/5m/1h/1d, and
 * its canvases are painted), lists the indexer's recent trades, an owner's view lists the
 * owner's fills, an empty market says "no trades yet", and with the indexer gone the chart
 * area says it is unreachable while the rest of the page works. Leaves a screenshot at
 * /tmp/svc-explorer-chart.png (and the history panel alone in svc-explorer-chart-panel.png).
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { startIndexer, type Indexer } from '../../src/indexer/index.js';
import { chartRange, RESOLUTIONS } from '../../src/chain/api/web/app/indexer-api.js';
import { silentLogger } from '../../src/log/index.js';
import { DexClient, toBase58 } from '../../src/sdk/index.js';
import { collectPageProblems, launchChromium } from '../support/chromium.js';
import { getJson, startFixture, type Fixture } from './support/fixture.js';

const SCREENSHOT = '/tmp/svc-explorer-chart.png';

describe('indexer: charts, trades and fills on the explorer page', function () {
  this.timeout(180_000);
  let fx: Fixture;
  let indexer: Indexer | undefined;
  let base: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    fx = await startFixture(1500, async (nats, pg) => {
      const pgUrl = await pg.createDatabase('charts');
      indexer = await startIndexer({
        pgUrl,
        mqUrl: nats.url,
        mqStream: 'SVC',
        indexerConsumer: 'charts',
        indexerAddr: { host: '127.0.0.1', port: 0 },
        indexerBatch: 1000,
        logger: silentLogger(),
      });
      base = `http://127.0.0.1:${indexer.address.port}`;
      return ['--indexer-url', base];
    });
    await indexer!.reached(fx.lastSeq, 60_000);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    collectPageProblems(page, problems, { warnings: true });
  });

  after(async () => {
    await browser?.close();
    await indexer?.close();
    await fx?.close();
  });

  it('names the indexer in the page and its CSP; the indexer allows any origin on its reads', async () => {
    const res = await fetch(`${fx.rpc}/`);
    expect(await res.text()).to.contain(`<body data-indexer="${base}">`);
    expect(res.headers.get('content-security-policy')).to.contain(`connect-src 'self' ${base};`);
    const charts = await fetch(`${fx.rpc}/explorer/svc-charts.js`);
    expect(charts.status).to.equal(200);
    expect(charts.headers.get('content-type')).to.match(/javascript/);
    const trades = await fetch(`${base}/markets/${fx.marketId}/trades?limit=1`, { headers: { origin: fx.rpc } });
    expect(trades.headers.get('access-control-allow-origin')).to.equal('*');
    const preflight = await fetch(`${base}/owners/${fx.owner}/fills`, {
      method: 'OPTIONS',
      headers: { origin: fx.rpc, 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-methods')).to.contain('GET');
  });

  it("draws the market's candles and lists its recent trades, as the indexer answers them", async () => {
    await page.goto(`${fx.rpc}/#/market/${fx.marketId}`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('#history[data-state="ready"]', { timeout: 30_000 });
    expect(await page.getAttribute('#history', 'data-resolution')).to.equal('1m');
    const want = await candles('1m');
    expect(want.length).to.be.greaterThan(0);
    expect(await page.getAttribute('#history', 'data-candles')).to.equal(String(want.length));
    // The library drew on its canvases: some pixel of the pane is neither blank nor background.
    const painted = await page.evaluate(() => {
      const canvases = Array.from(document.querySelectorAll<HTMLCanvasElement>('#chart canvas'));
      let inked = 0;
      for (const c of canvases) {
        const ctx = c.getContext('2d');
        if (!ctx || c.width === 0 || c.height === 0) continue;
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4) {
          if (d[i + 3]! > 0 && (d[i] !== 255 || d[i + 1] !== 255 || d[i + 2] !== 255)) inked++;
        }
      }
      return { canvases: canvases.length, inked };
    });
    expect(painted.canvases).to.be.greaterThan(0);
    expect(painted.inked).to.be.greaterThan(100);
    // Recent trades: the indexer's newest 50, in its order, with its prices and quantities.
    type Trade = { trade_id: number; price: string; quantity: string; taker_side: string };
    const { trades } = await getJson<{ trades: Trade[] }>(`${base}/markets/${fx.marketId}/trades?limit=50`);
    expect(trades.length).to.be.greaterThan(0);
    const shown = await tableText('#trades table.trades');
    const listed = trades.map((t) => [String(t.trade_id), t.taker_side, t.price, t.quantity]);
    expect(shown.map((r) => [r[0], r[2], r[3], r[4]])).to.deep.equal(listed);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await page.locator('#history').screenshot({ path: SCREENSHOT.replace('.png', '-panel.png') });
    expect(problems).to.deep.equal([]);
  });

  it("switches the resolution: 5m, 1h, 1d and back to 1m, each the indexer's candles", async () => {
    for (const r of ['5m', '1h', '1d', '1m'] as const) {
      await page.click(`#history button[data-resolution="${r}"]`);
      await page.waitForSelector(`#history[data-resolution="${r}"][data-state="ready"]`);
      const want = await candles(r);
      await page.waitForFunction((n) => document.getElementById('history')?.dataset.candles === String(n), want.length);
      expect(await page.getAttribute(`#history button[data-resolution="${r}"]`, 'aria-pressed')).to.equal('true');
    }
    expect(problems).to.deep.equal([]);
  });

  it("lists an owner's fills from the indexer under the owner's open orders", async () => {
    await page.goto(`${fx.rpc}/#/owner/${fx.owner}`);
    await page.waitForSelector('#fills[data-state="ready"]', { timeout: 30_000 });
    type Fill = { trade_id: number; order_id: string; role: string; side: string; price: string; quantity: string };
    const { fills } = await getJson<{ fills: Fill[] }>(`${base}/owners/${fx.owner}/fills?limit=50`);
    expect(fills.length).to.equal(2);
    const shown = await tableText('#fills table.fills');
    const want = fills.map((f) => [String(f.trade_id), f.order_id, f.role, f.side, f.price, f.quantity]);
    expect(shown.map((r) => [r[1], r[3], r[4], r[5], r[6], r[7]])).to.deep.equal(want);
    expect(problems).to.deep.equal([]);
  });

  it('says "no trades yet" for a market without trades', async () => {
    const dex = new DexClient(fx.dex);
    const mint = (n: number) => toBase58(new Uint8Array(32).fill(n));
    const created = await dex.createMarket({ base_mint: mint(41), quote_mint: mint(42), name: 'EMPTY/MKT' });
    const empty = created.market_id;
    // The indexer knows the market once the stream brought it.
    const end = Date.now() + 30_000;
    while ((await fetch(`${base}/markets/${empty}/trades`)).status !== 200) {
      if (Date.now() > end) throw new Error('the indexer did not learn the new market');
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.goto(`${fx.rpc}/#/market/${empty}`);
    await page.waitForSelector('#history[data-state="empty"]', { timeout: 30_000 });
    expect(await page.textContent('#chart')).to.equal('no trades yet');
    await page.waitForSelector('#trades .empty');
    expect(await page.textContent('#trades')).to.equal('no trades yet');
    expect(await page.locator('#chart canvas').count()).to.equal(0);
    expect(problems).to.deep.equal([]);
  });

  it('says in the chart area that the indexer is unreachable, and the rest of the page works', async () => {
    await indexer!.close();
    indexer = undefined;
    await page.goto(`${fx.rpc}/#/market/${fx.marketId}`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('#history[data-state="unreachable"]', { timeout: 30_000 });
    expect(await page.textContent('#chart')).to.contain(`The indexer at ${base} is unreachable`);
    expect(await page.textContent('#trades')).to.contain('is unreachable');
    // The node's own parts: the latest blocks, the market's events, the live channel.
    expect(await page.locator('#blocks-body tr').count()).to.be.greaterThan(0);
    expect(await page.getAttribute('#view', 'data-view')).to.equal('market');
    expect(await page.locator('#view table.events tbody tr').count()).to.be.greaterThan(0);
    await page.waitForSelector('#live[data-state="live"]');
    await page.goto(`${fx.rpc}/#/owner/${fx.owner}`);
    await page.waitForSelector('#fills[data-state="unreachable"]', { timeout: 30_000 });
    expect(await page.textContent('#fills')).to.contain('is unreachable');
    // The refused fetches are the only console errors.
    expect(problems.filter((p) => !/ERR_CONNECTION_REFUSED/.test(p))).to.deep.equal([]);
  });

  async function candles(resolution: string): Promise<unknown[]> {
    const seconds = RESOLUTIONS.find((r) => r.name === resolution)!.seconds;
    const { from, to } = chartRange(seconds, Date.now());
    const path = `/markets/${fx.marketId}/candles?resolution=${resolution}&from=${from}&to=${to}`;
    return (await getJson<{ candles: unknown[] }>(`${base}${path}`)).candles;
  }

  function tableText(table: string): Promise<Array<Array<string | null>>> {
    const text = (rows: Element[]) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent));
    return page.$$eval(`${table} tbody tr`, text);
  }
});
