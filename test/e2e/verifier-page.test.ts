/**
 * A front-end developer's view: open the real node's /verifier page in headless Chromium
 * (Debian's chromium via playwright-core). The page fetches the newest ticks from
 * /api/v1 and verifies their VDF proofs and chaining in the browser with the standalone
 * WASM verifier. Also checks the CORS header that lets pages on other origins do the same.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/tools.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';

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

  it('answers /api/v1 with CORS and the page verifies the newest ticks in Chromium', async () => {
    const rest = `http://${node.addresses.rest}`;
    // Wait for a few heartbeat ticks so there is a chain to check.
    for (let i = 0; i < 100; i++) {
      const status = (await (await fetch(`${rest}/api/v1/status`)).json()) as { chain_height: number };
      if (status.chain_height >= 5) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const res = await fetch(`${rest}/api/v1/ticks/recent?limit=5`);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');

    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${rest}/verifier`);
    expect(page.url()).to.equal(`${rest}/verifier/index.html`);
    await page.waitForFunction(() => document.body.dataset.verdict !== undefined, null, { timeout: 60_000 });
    const verdict = await page.evaluate(() => document.body.dataset.verdict);
    const text = await page.textContent('#out');
    expect(errors).to.deep.equal([]);
    expect(verdict, text ?? '').to.equal('ok');
    expect(text).to.match(/^verified \d+ ticks \(\d+\.\.\d+\)$/);
    expect(Number(/^verified (\d+)/.exec(text!)![1])).to.be.at.least(5);
  });

  it('a missing verifier file is a JSON 404', async () => {
    const res = await fetch(`http://${node.addresses.rest}/verifier/nope.js`);
    expect(res.status).to.equal(404);
    expect(((await res.json()) as { error: string }).error).to.contain('nope.js');
  });
});
