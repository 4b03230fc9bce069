/**
 * The explorer page at / on the rpc port of the real `svc node` binary, in real headless
 * Chromium (Debian's, via playwright-core): it loads under its strict CSP without a console
 * error, lists the latest blocks and takes new ones live from the blocks channel of WS /ws,
 * shows a block's batches, transactions and events as the REST does, finds a height, a
 * transaction id, an owner and a market, says clearly what it cannot find, and verifies
 * the ticks behind a block in the browser, catching a forged one. Leaves a screenshot in
 * the temp directory.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { collectPageProblems, launchChromium } from '../../support/chromium.js';
import { classify, fromHash, hashOf } from '../../../src/chain/api/web/app/search.js';
import { DexClient, toBase58 } from '../../../src/sdk/index.js';
import { spawnNode, type NodeProcess } from '../../support/node-process.js';
import { startOrderFlow, type OrderFlow } from '../../support/order-flow.js';

interface Detail {
  block: { height: number; batch_summaries: unknown[]; transaction_ids: string[] };
  transactions: { id: string; owner?: string; kind: string; continuum_sequence: number; market_id: string }[];
  events: unknown[];
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return (await res.json()) as T;
}

describe('end to end: the explorer page in Chromium', function () {
  this.timeout(180_000);
  let dir: string;
  let node: NodeProcess;
  let browser: Browser;
  let page: Page;
  let rpc: string;
  let flow: OrderFlow | undefined;
  const problems: string[] = [];
  const foreign: string[] = []; // requests to any other http(s) origin than the node's

  const search = async (text: string) => {
    await page.fill('#q', text);
    await page.press('#q', 'Enter');
  };
  const rows = (table: string) => page.locator(`#view table.${table} tbody tr`).count();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-explorer-'));
    node = await spawnNode(dir, ['--idle-tick-ms', '20', '--block-ms', '100'], ['grpc', 'rest', 'dex', 'rpc']);
    rpc = `http://${node.addresses.rpc}`;
    flow = await startOrderFlow(`http://${node.addresses.dex}`, { seed: 9, concurrency: 4 });
    for (let i = 0; i < 200 && (await getJson<{ block_height: number }>(`${rpc}/status`)).block_height < 8; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await flow.stop();
    flow = undefined;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    collectPageProblems(page, problems, { warnings: true });
    page.on('request', (r) => {
      if (/^https?:/.test(r.url()) && new URL(r.url()).origin !== rpc) foreign.push(r.url());
    });
  });
  after(async () => {
    await flow?.stop();
    await browser?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the page with a strict CSP, its modules and the WASM verifier; unknown files are JSON 404s', async () => {
    const res = await fetch(`${rpc}/`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(res.headers.get('content-security-policy')).to.contain("script-src 'self' 'wasm-unsafe-eval'");
    const html = await res.text();
    expect(html).to.contain('<script type="module" src="/explorer/main.js">');
    // No --indexer-url: no indexer named, fetches to this origin only.
    expect(html).to.contain('<body>').and.not.contain('data-indexer');
    expect(res.headers.get('content-security-policy')).to.contain("connect-src 'self';");
    for (const [file, type] of [
      ['main.js', /javascript/],
      ['style.css', /css/],
      ['svc-vdf.js', /javascript/],
      ['svc-vdf.wasm', /wasm/],
    ] as const) {
      const r = await fetch(`${rpc}/explorer/${file}`);
      expect(r.status, file).to.equal(200);
      expect(r.headers.get('content-type'), file).to.match(type);
    }
    for (const bad of ['nope.js', '..%2F..%2Fpackage.json', 'main.js.map']) {
      const r = await fetch(`${rpc}/explorer/${bad}`);
      expect(r.status, bad).to.equal(404);
      expect(((await r.json()) as { error: string }).error).to.match(/no such explorer file/);
    }
  });

  it('loads: status cards, the latest blocks, the newest block in view', async () => {
    await page.goto(`${rpc}/`);
    await page.waitForSelector('body[data-ready="true"]');
    const status = await getJson<{ block_height: number }>(`${rpc}/status`);
    const listed = await page.locator('#blocks-body tr').count();
    expect(listed).to.equal(Math.min(20, status.block_height));
    expect(await page.getAttribute('#blocks-body', 'data-latest')).to.equal(String(status.block_height));
    expect(await page.textContent('[data-stat="height"] .value')).to.equal(String(status.block_height));
    await page.waitForSelector(`#view[data-view="block"][data-key="${status.block_height}"]`);
    await page.waitForSelector('#live[data-state="live"]');
    expect(problems).to.deep.equal([]);
  });

  it('takes new blocks live over the WebSocket, without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const before = Number(await page.getAttribute('#blocks-body', 'data-latest'));
    flow = await startOrderFlow(`http://${node.addresses.dex}`, { seed: 10, concurrency: 2 });
    for (let i = 0; i < 300 && Number(await page.getAttribute('#blocks-body', 'data-latest')) <= before + 1; i++)
      await page.waitForTimeout(100);
    await flow.stop();
    flow = undefined;
    const after = Number(await page.getAttribute('#blocks-body', 'data-latest'));
    expect(after).to.be.greaterThan(before + 1);
    expect(await page.locator(`#blocks-body tr[data-height="${after}"]`).count()).to.equal(1);
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).to.equal(42);
    // The block being read stays; a badge offers the newer one.
    expect(await page.getAttribute('#view', 'data-key')).to.equal(String(before));
    await page.waitForSelector('#latest-link:not([hidden])');
    expect(await page.textContent('#latest-link')).to.match(/^latest #\d+$/);
  });

  it('finds a block by height and shows its batches, transactions and events as the REST does', async () => {
    const { block_height } = await getJson<{ block_height: number }>(`${rpc}/status`);
    let best: Detail | undefined;
    for (let h = 1; h <= block_height; h++) {
      const d = await getJson<Detail>(`${rpc}/blocks/${h}`);
      if (!best || d.block.batch_summaries.length > best.block.batch_summaries.length) best = d;
    }
    const h = best!.block.height;
    await search(` ${h} `);
    await page.waitForSelector(`#view[data-view="block"][data-key="${h}"]`);
    expect(page.url()).to.match(new RegExp(`#/block/${h}$`));
    expect(await page.textContent('#view h2')).to.equal(`Block ${h}`);
    expect(await rows('batches')).to.equal(best!.block.batch_summaries.length);
    expect(await rows('transactions')).to.equal(best!.transactions.length);
    expect(await rows('events')).to.equal(best!.events.length);
    expect(await page.locator('#view table.transactions tbody tr td:first-child').allTextContents()).to.deep.equal(
      best!.block.transaction_ids,
    );
    expect(await page.locator('#blocks-body tr.selected').count()).to.be.at.most(1);
  });

  it('verifies the ticks behind the block in the browser', async () => {
    await page.click('#verify');
    await page.waitForSelector('#view[data-verdict="ok"], #view[data-verdict="invalid"], #view[data-verdict="error"]', {
      timeout: 60_000,
    });
    const text = await page.textContent('#verdict');
    expect(await page.getAttribute('#view', 'data-verdict'), text ?? '').to.equal('ok');
    expect(text).to.match(/^✓ verified \d+ ticks?: every VDF proof and batch hash/);
    await page.screenshot({ path: join(tmpdir(), 'svc-explorer-page.png'), fullPage: true });
  });

  it('catches a forged tick: a proof changed on the way is reported invalid', async () => {
    await page.route('**/blocks/*/ticks*', async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { ticks: { tick: { vdf_proof: { output: string } } }[] };
      const out = body.ticks[0]!.tick.vdf_proof.output;
      body.ticks[0]!.tick.vdf_proof.output = out.slice(0, -1) + (out.endsWith('0') ? '1' : '0');
      await route.fulfill({ response: res, json: body });
    });
    try {
      const h = Number(await page.getAttribute('#view', 'data-key'));
      await page.evaluate(() => (location.hash = '#/'));
      await page.waitForSelector('#view[data-view="block"]');
      await search(String(h));
      await page.waitForSelector(`#view[data-view="block"][data-key="${h}"]:not([data-verdict])`);
      await page.click('#verify');
      await page.waitForSelector('#view[data-verdict="invalid"]', { timeout: 60_000 });
      expect(await page.textContent('#verdict')).to.match(/^✗ \d+ problems?: tick \d+: /);
    } finally {
      await page.unroute('**/blocks/*/ticks*');
    }
  });

  it('finds a transaction by id, then its owner, then its market', async () => {
    const d = await getJson<Detail>(
      `${rpc}/blocks/${(await getJson<{ block_height: number }>(`${rpc}/status`)).block_height}`,
    );
    const tx = d.transactions.find((t) => t.kind === 'order') ?? d.transactions[0]!;
    await search(tx.id.toUpperCase());
    await page.waitForSelector(`#view[data-view="tx"][data-key="${tx.id}"]`);
    const text = (await page.textContent('#view'))!;
    expect(text).to.contain(tx.owner!);
    expect(text).to.contain(String(tx.continuum_sequence));

    const orders = await getJson<{ total: number; orders: unknown[] }>(`${rpc}/orders/user/${tx.owner}?limit=1000`);
    await page.click(`#view a[href="#/owner/${tx.owner}"]`);
    await page.waitForSelector(`#view[data-view="owner"][data-key="${tx.owner}"]`);
    expect(await rows('orders')).to.equal(orders.orders.length);
    expect(await page.textContent('#view')).to.contain(`Open orders${orders.total}`);

    await search(tx.market_id);
    await page.waitForSelector(`#view[data-view="market"][data-key="${tx.market_id}"]`);
    const events = await getJson<unknown[]>(`${rpc}/events?limit=200&market_id=${tx.market_id}`);
    expect(await rows('events')).to.equal(events.length);
    // Without --indexer-url the market and owner views have no history and ask nothing elsewhere.
    expect(await page.locator('#history, #fills').count()).to.equal(0);
    expect(foreign).to.deep.equal([]);
  });

  it('says what it cannot find or understand', async () => {
    await search('not a thing');
    expect(await page.textContent('#search-error')).to.match(/is not a block height, a transaction id/);
    expect(await page.getAttribute('#q', 'aria-invalid')).to.equal('true');

    await search('999999999');
    await page.waitForSelector('#view[data-view="error"][data-key="404"]:has-text("block 999999999")');
    expect(await page.textContent('#view')).to.match(/^Not found.*block 999999999 does not exist/);

    await search('00000000000fffff-0000-0000');
    await page.waitForSelector('#view[data-view="error"][data-key="404"]:has-text("00000000000fffff-0000-0000")');

    await search('11111111111111111111111111111111');
    await page.waitForSelector('#view[data-view="error"][data-key="404"]:has-text("never placed an order")');

    await page.evaluate(() => (location.hash = '#/block/abc'));
    await page.waitForSelector('#view[data-view="error"][data-key="400"]');
    expect(problems.filter((p) => !/404|400/.test(p))).to.deep.equal([]);
  });

  it('shows hostile stored text as text: a market named with markup runs nothing', async () => {
    const name = '<img src=x onerror="document.body.dataset.pwned=1">'; // names are 1..64 bytes
    const dex = new DexClient(`http://${node.addresses.dex}`);
    const market = await dex.createMarket({
      base_mint: toBase58(new Uint8Array(32).fill(21)),
      quote_mint: toBase58(new Uint8Array(32).fill(22)),
      name,
    });
    let found: { id: string; block_height: number } | undefined;
    for (let i = 0; i < 100 && !found; i++) {
      const d = await getJson<{ markets: { id: string; block_height: number; market_id: string }[] }>(
        `${rpc}/blocks/latest`,
      );
      found = d.markets.find((t) => t.market_id === market.market_id);
      if (!found) await new Promise((r) => setTimeout(r, 100));
    }
    expect(found, 'the market creation in a block').to.not.equal(undefined);
    // The block lists the market it created, by name, as text.
    await search(String(found!.block_height));
    await page.waitForSelector(`#view[data-view="block"][data-key="${found!.block_height}"]`);
    expect(await page.textContent('#view')).to.contain(name);
    expect(await page.locator('#view img').count()).to.equal(0);
    expect(await page.getAttribute('body', 'data-pwned')).to.equal(null);
  });

  it('says when the node goes away, and takes the blocks it missed when the node is back', async () => {
    const port = Number(rpc.split(':').at(-1));
    await page.evaluate(() => (location.hash = '#/'));
    await page.waitForSelector('#live[data-state="live"]');
    node.child.kill('SIGKILL');
    await node.exited;
    await page.waitForSelector('#live[data-state="offline"]', { timeout: 30_000 });
    expect(await page.textContent('#live')).to.contain('offline');
    // Back on the same address and database; blocks come while the page reconnects.
    node = await spawnNode(
      dir,
      ['--idle-tick-ms', '20', '--block-ms', '100', '--rpc-addr', `127.0.0.1:${port}`],
      ['grpc', 'rest', 'dex', 'rpc'],
    );
    const before = Number(await page.getAttribute('#blocks-body', 'data-latest'));
    flow = await startOrderFlow(`http://${node.addresses.dex}`, { seed: 11, concurrency: 2 });
    await page.waitForSelector('#live[data-state="live"]', { timeout: 30_000 });
    for (let i = 0; i < 300 && Number(await page.getAttribute('#blocks-body', 'data-latest')) <= before + 2; i++)
      await page.waitForTimeout(100);
    await flow.stop();
    flow = undefined;
    // No hole in the list: every height from the newest down is there. A live block can land
    // before the REST read that fills the blocks made meanwhile answers: give that read time.
    const rows = async (): Promise<number[]> =>
      page.locator('#blocks-body tr').evaluateAll((trs) => trs.map((r) => Number((r as HTMLElement).dataset.height)));
    let heights = await rows();
    for (let i = 0; i < 100 && heights.some((h, k) => h !== heights[0]! - k); i++) {
      await page.waitForTimeout(100);
      heights = await rows();
    }
    const latest = heights[0]!;
    expect(latest).to.be.greaterThan(before + 2);
    expect(heights).to.deep.equal(heights.map((_, i) => latest - i));
  });

  it('search classification (pure, as the page runs it)', () => {
    expect(classify('42')).to.deep.equal({ kind: 'block', height: 42 });
    expect(classify('0').kind).to.equal('invalid');
    expect(classify('99999999999999999').kind).to.equal('invalid');
    expect(classify('00000000000000AB-0001-000f')).to.deep.equal({ kind: 'tx', id: '00000000000000ab-0001-000f' });
    expect(classify('0000000000000001-0001')).to.have.property('kind', 'invalid');
    expect(classify('6f1c0e2a-1b2c-4d3e-8f40-5a6b7c8d9e01').kind).to.equal('market');
    expect(classify('4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi')).to.deep.equal({
      kind: 'owner',
      owner: '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi',
    });
    expect(classify('0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl').kind).to.equal('invalid'); // not Base58
    expect(classify('').kind).to.equal('invalid');
    expect(classify('11111111111111111111111111111111').kind).to.equal('owner'); // the zero key
    expect(classify('10000000000000000000000000000000').kind).to.equal('invalid'); // 0 is not Base58
    for (const t of [
      classify('7'),
      classify('0000000000000001-0000-0002'),
      classify('4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi'),
    ]) {
      expect(fromHash(hashOf(t))).to.deep.equal(t);
    }
    expect(fromHash('')).to.deep.equal({ kind: 'latest' });
    expect(fromHash('#/tx/12').kind).to.equal('invalid');
  });
});
