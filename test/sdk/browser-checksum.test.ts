/**
 * The book checksum in a real headless Chromium: the SDK bundle (dist/browser/svc-sdk.js,
 * what the explorer page loads) computes docs/book-checksum-vectors.json's level hashes and
 * books, and its ChannelClient folds the vectors' snapshot and deltas to each checksum (a
 * scripted connection in the page), then reports a corrupted delta as `checksum_mismatch`.
 * Needs `npm run build` (the bundle) and a Chromium (test/support/tools.ts finds it).
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/tools.js';

const root = (p: string): string => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const PAGE = `<!doctype html><meta charset="utf-8"><title>svc sdk</title>
<script type="module">
  window.svc = await import('./svc-sdk.js');
  window.svcReady = true;
</script>`;

interface Outcome {
  hashes: string[];
  books: string[];
  folded: Array<[number, string]>;
  errors: string[];
  afterCorruption: string[];
}

describe('svc/sdk book checksum in headless Chromium', function () {
  this.timeout(120_000);
  let server: Server;
  let browser: Browser;
  let base = '';

  before(async () => {
    const bundle = 'dist/browser/svc-sdk.js';
    if (!existsSync(root(bundle))) throw new Error(`${bundle} missing: run npm run build`);
    server = createServer((req, res) => {
      if (req.url === '/svc-sdk.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(root('dist/browser/svc-sdk.js')));
      } else if (req.url === '/vectors.json') {
        const vectors = readFileSync(root('docs/book-checksum-vectors.json'));
        res.writeHead(200, { 'content-type': 'application/json' }).end(vectors);
      } else res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('computes the vectors, folds the sequence to each checksum and reports a corrupted delta', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await page.waitForFunction(() => (window as unknown as { svcReady?: boolean }).svcReady === true);
    const outcome = (await page.evaluate(BROWSER_CHECK)) as Outcome;
    await page.close();

    const vectors = JSON.parse(readFileSync(root('docs/book-checksum-vectors.json'), 'utf8')) as {
      levels: Array<{ hash: string }>;
      books: Array<{ checksum: string }>;
      sequence: { messages: Array<{ seq: number; checksum: string }> };
    };
    expect(outcome.hashes).to.deep.equal(vectors.levels.map((l) => l.hash));
    expect(outcome.books).to.deep.equal(vectors.books.map((b) => b.checksum));
    expect(outcome.folded).to.deep.equal(vectors.sequence.messages.map((m) => [m.seq, m.checksum]));
    expect(outcome.errors).to.deep.equal([]);
    expect(outcome.afterCorruption).to.deep.equal(['checksum_mismatch']);
  });
});

/** Runs in the page: `window.svc` is the SDK bundle. */
const BROWSER_CHECK = `(async () => {
  const svc = window.svc;
  const v = await (await fetch('/vectors.json')).json();
  const hashes = v.levels.map((l) => String(svc.levelHash(svc.marketIdBytes(l.market_id), l.side === 'bid' ? 0 : 1,
    BigInt(l.price), BigInt(l.quantity), BigInt(l.orders))));
  const books = v.books.map((b) => svc.bookChecksumOf(b.market_id, b.bids, b.asks));
  const market = v.sequence.market_id;
  const wire = (m) => {
    const rows = (rs) => '[' + rs.map((r) => '[' + r.join(',') + ']').join(',') + ']';
    const first = m.first_seq === undefined ? '' : ',"first_seq":' + m.first_seq;
    return '{"type":"' + m.type + '","channel":"book","market_id":"' + market + '","seq":' + m.seq + ',"tick":' + m.tick
      + first + ',"checksum":"' + m.checksum + '","bids":' + rows(m.bids) + ',"asks":' + rows(m.asks) + '}';
  };
  const run = (messages) => {
    let events;
    const errors = [];
    const folded = [];
    const dial = (_u, e) => { events = e; return { send: () => undefined, close: () => undefined }; };
    const client = new svc.ChannelClient({ url: 'ws://x/ws', dial, onError: (e) => errors.push(e.code) });
    client.book(market, (levels) => folded.push([levels.seq, levels.checksum]));
    events.message('{"type":"welcome","tick":1,"height":1,"heartbeat_ms":5000,"limits":{}}');
    events.message('{"type":"subscribed","id":1,"tick":1,"channel":"book","market_id":"' + market + '","seq":4}');
    for (const m of messages) events.message(m);
    client.close();
    return { folded, errors };
  };
  const good = run(v.sequence.messages.map(wire));
  const texts = v.sequence.messages.map(wire);
  texts[1] = texts[1].replace('[99,4,1]', '[99,5,1]');
  const bad = run(texts);
  return { hashes, books, folded: good.folded, errors: good.errors, afterCorruption: bad.errors };
})()`;
