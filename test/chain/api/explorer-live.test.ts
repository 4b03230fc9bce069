/**
 * The explorer page's live block list across dropped connections, in real headless Chromium
 * against the real `svc node` binary: the page is loaded through a TCP proxy in front of the
 * rpc port, and while orders flow (so blocks are made) the proxy cuts every connection,
 * sometimes refusing new ones for a while, so blocks are made while the page is offline.
 * The page (the SDK's ChannelClient on WS /ws, resuming from the next height) must add
 * every block height to its list exactly once, in order, and end at the node's newest
 * block; its indicator must have said offline and then live again.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { SdkModule } from '../../../src/chain/api/web/app/api.js';
import { launchChromium } from '../../support/chromium.js';
import { startCutProxy, type CutProxy } from '../../support/cut-proxy.js';
import { spawnNode, type NodeProcess } from '../../support/node-process.js';
import { startOrderFlow, type OrderFlow } from '../../support/order-flow.js';
import { until } from '../../support/until.js';

interface Watched {
  added: number[];
  states: string[];
}

describe('end to end: the explorer page keeps every block across dropped connections (Chromium)', function () {
  this.timeout(180_000);
  let dir: string;
  let node: NodeProcess;
  let proxy: CutProxy;
  let browser: Browser;
  let page: Page;
  let flow: OrderFlow | undefined;

  const status = async (): Promise<{ block_height: number }> =>
    (await fetch(`http://${node.addresses.rpc}/status`)).json() as Promise<{ block_height: number }>;
  const watched = (): Promise<Watched> => page.evaluate(() => (window as unknown as { watched: Watched }).watched);
  const latestShown = async (): Promise<number> => Number(await page.getAttribute('#blocks-body', 'data-latest'));

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-explorer-live-'));
    node = await spawnNode(dir, ['--idle-tick-ms', '20', '--block-ms', '100'], ['grpc', 'rest', 'dex', 'rpc']);
    proxy = await startCutProxy(node.addresses.rpc!);
    browser = await launchChromium();
    page = await browser.newPage();
  });
  after(async () => {
    await flow?.stop();
    await browser?.close();
    await proxy?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the SDK bundle beside the page: an ES module with the channel client, no Node built-ins', async () => {
    const res = await fetch(`http://${node.addresses.rpc}/explorer/svc-sdk.js`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/javascript/);
    const text = await res.text();
    expect(text).to.match(/export\s*\{[^}]*\bChannelClient\b/);
    expect(text).to.not.match(/from\s*["']node:|require\(/);
  });

  it('adds every block height once, in order, while its connection is cut again and again', async () => {
    flow = await startOrderFlow(`http://${node.addresses.dex}`, { seed: 31, concurrency: 2 });
    await until('a first block', async () => ((await status()).block_height >= 3 ? true : undefined));
    await page.goto(`http://${proxy.address}/`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('#live[data-state="live"]');
    // Record each row the list gains (its height) and each state the indicator shows, from
    // the newest block listed now.
    const first = await page.evaluate(() => {
      const w: Watched = { added: [], states: [] };
      (window as unknown as { watched: Watched }).watched = w;
      const body = document.getElementById('blocks-body')!;
      const live = document.getElementById('live')!;
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of Array.from(r.addedNodes)) w.added.push(Number((n as HTMLElement).dataset.height));
      }).observe(body, { childList: true });
      new MutationObserver(() => w.states.push(live.dataset.state ?? '')).observe(live, {
        attributes: true,
        attributeFilter: ['data-state'],
      });
      return Number(body.dataset.latest);
    });

    for (const downMs of [0, 1_500, 0, 3_000]) {
      const before = await latestShown();
      await until(
        'a live block before the cut',
        async () => ((await latestShown()) > before ? true : undefined),
        30_000,
      );
      const made = (await status()).block_height;
      await proxy.cut(downMs);
      // Back: the page reconnects and takes the blocks made meanwhile before any new one.
      await page.waitForSelector('#live[data-state="live"]', { timeout: 30_000 });
      await until('blocks after the cut', async () => ((await latestShown()) > made + 1 ? true : undefined), 30_000);
    }
    await flow.stop();
    flow = undefined;
    // The node's last blocks (the orders acknowledged last) reach the page too.
    await new Promise((r) => setTimeout(r, 1_000));
    let newest = 0;
    try {
      await until(
        'the newest block on the page',
        async () => ((newest = (await status()).block_height) === (await latestShown()) ? true : undefined),
        30_000,
      );
    } catch (err) {
      throw new Error(
        `${(err as Error).message}: node ${newest}, page ${await latestShown()}, ${JSON.stringify(await watched())}`,
      );
    }

    const { added, states } = await watched();
    expect(proxy.resets(), 'sockets cut').to.be.at.least(4);
    expect(states, 'the indicator').to.include('offline');
    expect(states.at(-1)).to.equal('live');
    expect(added[0]).to.equal(first + 1);
    expect(added.at(-1)).to.equal(newest);
    expect(added, 'each height once, in order').to.deep.equal(added.map((_, i) => first + 1 + i));
    const rows = await page
      .locator('#blocks-body tr')
      .evaluateAll((trs) => trs.map((r) => Number((r as HTMLElement).dataset.height)));
    expect(rows).to.deep.equal(rows.map((_, i) => newest - i));
    expect(rows.length).to.equal(20);
  });
});

describe('the explorer page and the SDK bundle it loads', () => {
  it('the SDK has the shape the page types it by (SdkModule of src/chain/api/web/app/api.ts)', async () => {
    const sdk: SdkModule = await import('../../../src/sdk/index.js'); // a compile error if the SDK leaves the shape
    expect(sdk.webSocketDial).to.be.a('function');
    expect(sdk.ChannelClient).to.be.a('function');
  });
});
