/**
 * The explorer page's "verify this transaction" and "verify this order" buttons in real
 * headless Chromium (Debian's, via playwright-core) against a whole node: the proofs are
 * fetched from the node and verified in the browser with the WASM verifier module. A
 * valid proof shows valid; a proof changed on its way (the test intercepts the page's
 * fetch) shows the failing step; an order's state proof on the owner view and the
 * transaction view, resting and cancelled.
 */
import { expect } from 'chai';
import type { Browser, Page, Route } from 'playwright-core';
import { collectPageProblems, launchChromium } from '../../support/chromium.js';
import {
  signedCancelRequest,
  signedOrderRequest,
  type WireSubmitTxResponse,
} from '../../../src/chain/api/client/index.js';
import { toBase58 } from '../../../src/crypto/base58.js';
import { marketIdOf } from '../../../src/core/market-id.js';
import { keyOf, mintOf } from '../support/flow.js';
import { startChainNode, type ChainNode } from '../support/node.js';
import { flipHex } from '../../proofs/support/verifier.js';

describe('end to end: the explorer page verifies proofs in Chromium', function () {
  this.timeout(180_000);
  let n: ChainNode;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const alice = keyOf(1);
  const bob = keyOf(2);
  const m1 = marketIdOf(mintOf(1), mintOf(2));
  let resting: WireSubmitTxResponse;
  let cancelledOrder: WireSubmitTxResponse;
  const order = (key: typeof alice, id: number, side: 'Buy' | 'Sell', price: number, qty: number) =>
    n.client.submit(
      signedOrderRequest(
        {
          orderId: BigInt(id),
          owner: key.publicKey,
          side,
          price: BigInt(price),
          quantity: BigInt(qty),
          expiry: 0n,
          baseMint: mintOf(1),
          quoteMint: mintOf(2),
        },
        key.secretKey,
      ),
    );

  /** Change the JSON of responses whose URL matches `pattern` until `unroute`. */
  async function tamper(
    pattern: RegExp,
    change: (body: Record<string, unknown>) => void,
  ): Promise<() => Promise<void>> {
    const handler = async (route: Route) => {
      const res = await route.fetch();
      const body = (await res.json()) as Record<string, unknown>;
      change(body);
      await route.fulfill({ response: res, body: JSON.stringify(body) });
    };
    await page.route(pattern, handler);
    return () => page.unroute(pattern, handler);
  }

  async function click(
    button: string,
    verdict: string,
  ): Promise<{ verdict: string; step: string | null; text: string }> {
    await page.click(button);
    await page.waitForSelector(
      `${verdict}[data-verdict="ok"], ${verdict}[data-verdict="invalid"], ${verdict}[data-verdict="error"]`,
      { timeout: 60_000 },
    );
    return {
      verdict: (await page.getAttribute(verdict, 'data-verdict'))!,
      step: await page.getAttribute(verdict, 'data-step'),
      text: (await page.textContent(verdict))!,
    };
  }

  before(async () => {
    n = await startChainNode();
    await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } });
    resting = await order(alice, 1, 'Sell', 100, 5);
    cancelledOrder = await order(alice, 2, 'Sell', 110, 5);
    const cancel = await n.client.submit(
      signedCancelRequest({ orderId: 2n, owner: alice.publicKey, marketId: m1 }, alice.secretKey),
    );
    const last = await order(bob, 1, 'Buy', 90, 1);
    await n.waitForHeight(Math.max(Number(cancel.block_height), Number(last.block_height)));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    collectPageProblems(page, problems);
  });
  after(async () => {
    await browser?.close();
    await n?.close();
  });

  it('a transaction view: "verify this transaction" shows valid; a tampered proof shows the failing step', async () => {
    await page.goto(`${n.rpc}/#/tx/${resting.transaction_id}`);
    await page.waitForSelector(`#view[data-view="tx"][data-key="${resting.transaction_id}"]`);
    const ok = await click('#verify-tx', '#tx-verdict');
    expect(ok.verdict, ok.text).to.equal('ok');
    expect(ok.text).to.match(/^✓ valid: transaction \d+ of tick \d+/);
    const cases: Array<[string, (b: Record<string, unknown>) => void, string]> = [
      [
        'proof.tx',
        (b) => ((b.proof as { tx: string }).tx = flipHex((b.proof as { tx: string }).tx, 20)),
        'transaction',
      ], // the page asks for the transaction's own hash,
      [
        'continuum_sequence',
        (b) => (b.continuum_sequence = String(BigInt(b.continuum_sequence as string) + 1n)),
        'block_ids',
      ],
      [
        'proof.batch_hash',
        (b) =>
          ((b.proof as { batch_hash: string }).batch_hash = flipHex((b.proof as { batch_hash: string }).batch_hash)),
        'audit_path',
      ],
      [
        'proof.tick',
        (b) => ((b.proof as { tick: { tick: { timestamp: number } } }).tick.tick.timestamp += 1),
        'tick_vdf',
      ],
    ];
    for (const [name, change, step] of cases) {
      const unroute = await tamper(/\/transactions\/[^/]+\/proof$/, change);
      const bad = await click('#verify-tx', '#tx-verdict');
      await unroute();
      expect(bad.verdict, name).to.equal('invalid');
      expect(bad.step, name).to.equal(step);
      expect(bad.text, name).to.contain(`step ${step}`);
    }
    const again = await click('#verify-tx', '#tx-verdict');
    expect(again.verdict).to.equal('ok');
  });

  it('a transaction view of an order: "verify this order" proves its state (a cancelled order: not resting)', async () => {
    await page.goto(`${n.rpc}/#/tx/${cancelledOrder.transaction_id}`);
    await page.waitForSelector(`#view[data-view="tx"][data-key="${cancelledOrder.transaction_id}"]`);
    const ok = await click('#verify-order', '#order-verdict');
    expect(ok.verdict, ok.text).to.equal('ok');
    expect(ok.text).to.match(/is not resting .* ended by the transaction/);
    const unroute = await tamper(
      /\/orders\/\d+\/proof/,
      (b) => ((b.used_id as { leaf: string }).leaf = flipHex((b.used_id as { leaf: string }).leaf)),
    );
    const bad = await click('#verify-order', '#order-verdict');
    await unroute();
    expect([bad.verdict, bad.step]).to.deep.equal(['invalid', 'used_id_leaf']);
  });

  it('an owner view: each open order has "verify this order"; the block anchor and every path are checked', async () => {
    await page.goto(`${n.rpc}/#/owner/${toBase58(alice.publicKey)}`);
    await page.waitForSelector('#view[data-view="owner"]');
    expect(await page.locator('#view button.verify-order').count()).to.equal(1);
    const verdict = '#view .order-verdict';
    const ok = await click('#view button.verify-order', verdict);
    expect(ok.verdict, ok.text).to.equal('ok');
    expect(ok.text).to.match(/rests in the book in block \d+/);
    const cases: Array<[RegExp, (b: Record<string, unknown>) => void, string]> = [
      [
        /\/orders\/\d+\/proof/,
        (b) => ((b.book as { leaf: string }).leaf = flipHex((b.book as { leaf: string }).leaf, 100)),
        'book_path',
      ],
      [/\/orders\/\d+\/proof/, (b) => (b.state_root = flipHex(b.state_root as string)), 'state_root'],
      [
        /\/orders\/\d+\/proof/,
        (b) =>
          ((b.market as { audit_path: string[] }).audit_path[0] = flipHex(
            (b.market as { audit_path: string[] }).audit_path[0]!,
          )),
        'market_path',
      ],
      [/\/blocks\/\d+$/, (b) => ((b.block as { state_root: number[] }).state_root[0]! ^= 1), 'anchor'],
    ];
    for (const [pattern, change, step] of cases) {
      const unroute = await tamper(pattern, change);
      const bad = await click('#view button.verify-order', verdict);
      await unroute();
      expect([bad.verdict, bad.step], String(pattern)).to.deep.equal(['invalid', step]);
    }
    expect(problems).to.deep.equal([]);
  });
});
