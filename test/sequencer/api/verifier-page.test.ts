/**
 * A front-end developer's view: open the real node's /verifier page in headless Chromium
 * (playwright-core). The page fetches the newest ticks from /api/v1 and verifies them in the
 * browser with the standalone WASM verifier, one row per tick (number, time, transactions,
 * iterations, verdict) and one per link between ticks; tampering shows a failure (and the
 * test leaves a screenshot of it in the temp directory, svc-verifier-page.png); asking for
 * more than 100 ticks says so. Also checks the CORS header other origins rely on.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../support/tools.js';
import { spawnNode, type NodeProcess } from '../../support/node-process.js';

describe('end to end: the node serves a browser tick verifier', function () {
  this.timeout(120_000);
  let dir: string;
  let node: NodeProcess;
  let browser: Browser;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-verifier-'));
    node = await spawnNode(dir, ['--idle-tick-ms', '10']);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  async function waitForTicks(rest: string, n: number): Promise<void> {
    for (let i = 0; i < 400; i++) {
      const status = (await (await fetch(`${rest}/api/v1/status`)).json()) as { chain_height: number };
      if (status.chain_height >= n) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the node did not reach tick ${n}`);
  }

  /** What the page shows once done: per-tick rows, link rows, summary, notice. */
  async function open(url: string) {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.verdict !== undefined, null, { timeout: 60_000 });
    const view = await page.evaluate(() => ({
      verdict: document.body.dataset.verdict,
      summary: document.getElementById('summary')!.textContent,
      notice:
        getComputedStyle(document.getElementById('notice')!).display === 'none'
          ? ''
          : document.getElementById('notice')!.textContent,
      ticks: Array.from(document.querySelectorAll('tr.tick')).map((tr) => ({
        verdict: (tr as HTMLElement).dataset.verdict,
        cells: Array.from((tr as HTMLTableRowElement).cells).map((c) => c.textContent ?? ''),
      })),
      links: Array.from(document.querySelectorAll('tr.link')).map((tr) => ({
        tick: Number((tr as HTMLElement).dataset.link),
        verdict: (tr as HTMLElement).dataset.verdict,
        text: tr.textContent ?? '',
      })),
    }));
    return { page, errors, view };
  }

  it('answers /api/v1 with CORS; the page shows each tick and each link as verified in Chromium', async () => {
    const rest = `http://${node.addresses.rest}`;
    await waitForTicks(rest, 8);
    const res = await fetch(`${rest}/api/v1/ticks/recent?limit=5`);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');

    const redirect = await browser.newPage();
    await redirect.goto(`${rest}/verifier`);
    expect(redirect.url()).to.equal(`${rest}/verifier/index.html`);
    await redirect.close();

    const { page, errors, view } = await open(`${rest}/verifier/index.html?ticks=8`);
    expect(errors).to.deep.equal([]);
    expect(view.verdict, view.summary ?? '').to.equal('ok');
    expect(view.ticks).to.have.length(8);
    const numbers = view.ticks.map((t) => Number(t.cells[0]));
    expect(numbers).to.deep.equal(numbers.map((_, i) => numbers[0]! + i)); // consecutive, oldest first
    expect(view.summary).to.equal(
      `verified 8 ticks (${numbers[0]}..${numbers[7]}): every proof verifies, chain unbroken`,
    );
    for (const t of view.ticks) {
      expect(t.verdict).to.equal('ok');
      const [, time, txs, iterations, output, verdict] = t.cells;
      expect(time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(txs).to.match(/^\d+$/);
      expect(Number(iterations)).to.be.greaterThan(0);
      expect(output).to.match(/^[0-9a-f]{8}…[0-9a-f]{8}$/);
      expect(verdict).to.equal('✓ proof verifies');
    }
    expect(view.links.map((l) => l.tick)).to.deep.equal(numbers.slice(1));
    for (const l of view.links) {
      expect(l.verdict).to.equal('ok');
      expect(l.text).to.match(
        new RegExp(`^↳ previous_output of ${l.tick}: [0-9a-f]{8}…[0-9a-f]{8}✓ is the output of ${l.tick - 1}$`),
      );
    }
    await page.close();
  });

  it('shows what a failure looks like: a tampered tick fails its proof and breaks the next link', async () => {
    const rest = `http://${node.addresses.rest}`;
    const { page, errors, view } = await open(`${rest}/verifier/index.html?ticks=6&tamper=1`);
    expect(errors).to.deep.equal([]);
    expect(view.verdict).to.equal('invalid');
    const bad = view.ticks.filter((t) => t.verdict !== 'ok');
    expect(bad).to.have.length(1);
    const k = Number(bad[0]!.cells[0]);
    expect(bad[0]!.verdict).to.equal('INVALID_PROOF');
    expect(bad[0]!.cells[5]).to.equal('✗ INVALID_PROOF: the VDF claim does not verify (tampered on purpose)');
    const broken = view.links.filter((l) => l.verdict !== 'ok');
    expect(broken.map((l) => [l.tick, l.verdict])).to.deep.equal([[k + 1, 'CHAIN_BREAK']]);
    expect(broken[0]!.text).to.contain(
      `✗ CHAIN_BREAK: previous_output of tick ${k + 1} is not the output of tick ${k}`,
    );
    expect(view.summary).to.match(
      new RegExp(`^INVALID: 2 failures in 6 ticks \\(\\d+\\.\\.\\d+\\) \\(tick ${k} was tampered with on purpose\\)$`),
    );
    // A picture of the per-tick view with a failure in it, for people to look at.
    await page.screenshot({ path: join(tmpdir(), 'svc-verifier-page.png'), fullPage: true });
    await page.close();
  });

  it('asking for more than the maximum says so, and verifies the newest 100', async () => {
    const rest = `http://${node.addresses.rest}`;
    await waitForTicks(rest, 100);
    const { page, view } = await open(`${rest}/verifier/index.html?ticks=500`);
    expect(view.notice).to.equal(
      'You asked for 500 ticks; this page verifies at most 100 at a time (the node lists at most 100 recent ticks per request), so it verifies the newest 100. To check a longer range, run: svc verify --from A --to B',
    );
    expect(view.ticks).to.have.length(100);
    expect(view.verdict).to.equal('ok');
    await page.close();
  });

  it('a missing verifier file is a JSON 404', async () => {
    const res = await fetch(`http://${node.addresses.rest}/verifier/nope.js`);
    expect(res.status).to.equal(404);
    expect(((await res.json()) as { error: string }).error).to.contain('nope.js');
  });
});
