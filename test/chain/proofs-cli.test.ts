/**
 * `svc order prove` against a whole node's explorer (real HTTP): a resting, a cancelled and
 * a filled-on-arrival order verify (exit 0); a proof changed in any field on its way (an
 * HTTP proxy between the CLI and the node) fails with the step named (exit 1), also the
 * block anchor and a tick between ended_by's and the block's changed (ended_by_chain); unknown
 * markets, orders and owners fail at `fetch` (exit 1); a wrong command line exits 2.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signedCancelRequest, signedOrderRequest } from '../../src/chain/api/client/index.js';
import type { OrderStateProof } from '../../src/proofs/index.js';
import { toBase58 } from '../../src/crypto/base58.js';
import { marketIdOf } from '../../src/core/market-id.js';
import { svc } from '../cli/support.js';
import { flipHex } from '../proofs/support/verifier.js';
import { keyOf, mintOf } from './support/flow.js';
import { startChainNode, type ChainNode } from './support/node.js';

type Change = (p: OrderStateProof) => void;

describe('chain: svc order prove', function () {
  this.timeout(180_000);
  let n: ChainNode;
  let proxy: Server;
  let proxyUrl = '';
  let change: Change | undefined;
  let tickProxy: Server;
  let tickProxyUrl = '';
  let badTick = 0;
  const alice = keyOf(1);
  const bob = keyOf(2);
  const m1 = marketIdOf(mintOf(1), mintOf(2));
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
  const prove = (url: string, key: typeof alice, id: number | string, market = m1, ...more: string[]) =>
    svc(
      'order',
      'prove',
      '--market',
      market,
      '--order',
      String(id),
      '--owner',
      toBase58(key.publicKey),
      '--rpc-url',
      url,
      '--rest-url',
      restUrl,
      ...more,
    );
  let restUrl = '';

  before(async () => {
    n = await startChainNode();
    restUrl = n.rest;
    await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } });
    await order(alice, 1, 'Sell', 100, 5);
    await order(alice, 2, 'Sell', 110, 5);
    await order(bob, 1, 'Buy', 100, 5); // fills alice 1: filled on arrival
    const last = await n.client.submit(
      signedCancelRequest({ orderId: 2n, owner: alice.publicKey, marketId: m1 }, alice.secretKey),
    );
    const resting = await order(bob, 2, 'Buy', 90, 1); // rests
    await n.waitForHeight(Math.max(Number(last.block_height), Number(resting.block_height)));
    // A proxy that passes everything through, changing order proofs with `change`.
    proxy = createServer((req, res) => {
      void (async () => {
        const up = await fetch(n.rpc + req.url);
        let text = await up.text();
        if (change && up.status === 200 && req.url!.includes('/proof')) {
          const p = JSON.parse(text) as OrderStateProof;
          change(p);
          text = JSON.stringify(p);
        }
        res.writeHead(up.status, { 'content-type': 'application/json' });
        res.end(text);
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    // A proxy of the REST face that changes the output of tick `badTick`.
    tickProxy = createServer((req, res) => {
      void (async () => {
        const up = await fetch(n.rest + req.url);
        let text = await up.text();
        if (up.status === 200 && req.url === `/api/v1/tick/${badTick}`) {
          const t = JSON.parse(text) as { tick: { vdf_proof: { output: string } } };
          t.tick.vdf_proof.output = flipHex(t.tick.vdf_proof.output);
          text = JSON.stringify(t);
        }
        res.writeHead(up.status, { 'content-type': 'application/json' });
        res.end(text);
      })();
    });
    await new Promise<void>((resolve) => tickProxy.listen(0, '127.0.0.1', resolve));
    tickProxyUrl = `http://127.0.0.1:${(tickProxy.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await new Promise((resolve) => tickProxy?.close(resolve));
    await n?.close();
  });

  it('exit 0 for a resting, a cancelled and a filled-on-arrival order; --json prints the verdict', async () => {
    const resting = await prove(n.rpc, bob, 2);
    expect(resting.code, resting.err).to.equal(0);
    expect(resting.out).to.match(/^valid: order 2 .* rests in slot \d+ in block \d+/);
    const cancelled = await prove(n.rpc, alice, 2);
    expect(cancelled.code, cancelled.err).to.equal(0);
    expect(cancelled.out).to.match(/is not resting \(cancelled; absence slot\)/);
    expect(cancelled.out).to.match(/ended by the transaction .* \(chained to the block's anchor\)/);
    const onArrival = await prove(n.rpc, bob, 1, m1, '--json');
    expect(onArrival.code, onArrival.err).to.equal(0);
    const j = JSON.parse(onArrival.out) as { verdict: { ok: boolean; state: string }; proof: OrderStateProof };
    expect(j.verdict.ok).to.equal(true);
    expect(j.proof.end).to.equal('filled_on_arrival');
    const whole = await prove(n.rpc, alice, 2, m1, '--whole-book');
    expect(whole.code, whole.err).to.equal(0);
    expect(whole.out).to.match(/absence book/);
  });

  it('exit 1 naming the step for a proof changed in any field', async () => {
    const cases: Array<[string, Change, string]> = [
      ['state_root', (p) => (p.state_root = flipHex(p.state_root)), 'state_root'],
      ['block_height', (p) => (p.block_height += 1), 'fetch'], // that block does not exist yet
      ['tick_number', (p) => (p.tick_number += 1), 'anchor'],
      ['markets_root', (p) => (p.markets_root = flipHex(p.markets_root)), 'market_path'],
      ['market.leaf', (p) => (p.market.leaf = flipHex(p.market.leaf)), 'market_path'],
      ['book.leaf (price)', (p) => (p.book!.leaf = flipHex(p.book!.leaf, 100)), 'book_path'],
      ['book.leaf (owner)', (p) => (p.book!.leaf = flipHex(p.book!.leaf, 40)), 'book_leaf'],
      ['book.audit_path', (p) => (p.book!.audit_path[1] = flipHex(p.book!.audit_path[1]!)), 'book_path'],
      ['used_id.leaf', (p) => (p.used_id!.leaf = flipHex(p.used_id!.leaf)), 'used_id_leaf'],
      ['used_ids_root', (p) => (p.used_ids_root = flipHex(p.used_ids_root)), 'used_id_path'],
      ['owner', (p) => (p.owner = toBase58(keyOf(9).publicKey)), 'book_leaf'],
      ['order_id', (p) => (p.order_id = '77'), 'book_leaf'],
      ['market_id', (p) => (p.market_id = marketIdOf(mintOf(5), mintOf(6))), 'market_leaf'],
      ['state', (p) => ((p.state = 'not_resting'), (p.end = 'cancelled')), 'book_leaf'],
    ];
    try {
      for (const [name, c, step] of cases) {
        change = c;
        const r = await prove(proxyUrl, bob, 2);
        expect(r.code, `${name}: ${r.out} ${r.err}`).to.equal(1);
        expect(r.err, name).to.include(`step ${step}`);
      }
      change = (p) =>
        ((p.ended_by as { proof: { tx: string } }).proof.tx = flipHex(
          (p.ended_by as { proof: { tx: string } }).proof.tx,
          20,
        ));
      const r = await prove(proxyUrl, alice, 2);
      expect(r.code).to.equal(1);
      expect(r.err).to.include('step ended_by');
      // The block's anchor: a proof naming another output hash fails at anchor; ticks that do
      // not chain to it (a tick's output changed on the way from the REST face) at ended_by_chain.
      change = (p) => (p.last_tick_output_hash = flipHex(p.last_tick_output_hash));
      const a = await prove(proxyUrl, alice, 2);
      expect(a.code).to.equal(1);
      expect(a.err).to.include('step anchor');
      change = undefined;
      const endedIn = (
        (await n.get(`/markets/${m1}/orders/2/proof?owner=${toBase58(alice.publicKey)}`)).json as {
          ended_by: { proof: { tick_number: number } };
        }
      ).ended_by.proof.tick_number;
      restUrl = tickProxyUrl;
      badTick = endedIn + 1;
      const c = await prove(n.rpc, alice, 2);
      expect(c.code, c.out + c.err).to.equal(1);
      expect(c.err).to.include('step ended_by_chain');
    } finally {
      change = undefined;
      restUrl = n.rest;
    }
  });

  it('exit 1 at fetch for unknown market, order and owner or no explorer; exit 2 for a wrong command line', async () => {
    for (const [key, id, market] of [
      [alice, 9, m1],
      [keyOf(9), 1, m1],
      [alice, 1, marketIdOf(mintOf(7), mintOf(8))],
    ] as const) {
      const r = await prove(n.rpc, key, id, market);
      expect(r.code).to.equal(1);
      expect(r.err).to.match(/step fetch: .* answered 404/);
    }
    const down = await prove('http://127.0.0.1:1', alice, 1);
    expect(down.code).to.equal(1);
    expect(down.err).to.include('step fetch');
    for (const argv of [
      ['order', 'prove', '--order', '1', '--owner', toBase58(alice.publicKey)],
      ['order', 'prove', '--market', 'NOT', '--order', '1', '--owner', toBase58(alice.publicKey)],
      ['order', 'prove', '--market', m1, '--order', '-1', '--owner', toBase58(alice.publicKey)],
      ['order', 'prove', '--market', m1, '--order', '1', '--owner', toBase58(alice.publicKey), '--rpc-url', 'ftp://x'],
      ['order', 'prove', '--market', m1, '--order', '1', '--owner', toBase58(alice.publicKey), 'extra'],
    ]) {
      const r = await svc(...argv);
      expect(r.code, argv.join(' ')).to.equal(2);
    }
  });
});
