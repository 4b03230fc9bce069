/**
 * The explorer's proofs on a whole node (real sequencer, LevelDB, HTTP): GET
 * /transactions/:id/proof verifies down to the tick's VDF proof and ties the transaction to
 * its block; GET /markets/:market_id/orders/:order_id/proof?owner= gives resting, cancelled,
 * filled and filled-on-arrival orders' states whose state_root is GET /blocks/:height's and
 * whose used-id and ending proofs verify (self-trade and expiry removals too, and proofs read
 * while orders flow); every tampered field fails, in the source verifiers and the browser
 * bundle alike; bad input is refused; a tick without a stored proof answers pending; after a
 * restart (snapshot + replay) the same proofs are served, and the per-order records rebuilt
 * from the ticks are the same bytes. Also: the stored used-id paths equal the plain audit
 * paths for every size across the stored-node boundary.
 */
import { expect } from 'chai';
import { rm } from 'node:fs/promises';
import {
  signedCancelRequest,
  signedOrderRequest,
  type WireSubmitTxResponse,
} from '../../../src/chain/api/client/index.js';
import { OrderRecords, type BlockDetail, type ChainOp } from '../../../src/chain/core/index.js';
import { auditPath, leafHashWith } from '../../../src/crypto/merkle-path.js';
import { sha256 } from '../../../src/crypto/sha256.js';
import { openDatabase } from '../../../src/db/index.js';
import type { AppliedTick } from '../../../src/dex/engine/index.js';
import {
  verifyChainTransactionProof,
  verifyOrderState,
  type ChainTransactionProof,
  type OrderStateProof,
} from '../../../src/proofs/index.js';
import { toBase58 } from '../../../src/crypto/base58.js';
import { marketIdOf } from '../../../src/core/market-id.js';
import { parseRecordJson } from '../../../src/wire/index.js';
import { clone, flipHex, repoFile, tickVerifier } from '../../proofs/support/verifier.js';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { keyOf, mintOf } from '../support/flow.js';
import { runtimeProbe, startChainNode, tempDir, type ChainNode } from '../support/node.js';
import { noneProven } from '../support/sequencer-status.js';
import { createExplorerApp } from '../../../src/chain/api/rest.js';
import { silentLogger } from '../../../src/log/index.js';
import { defaultFaces } from '../../../src/node/faces.js';
import type { AddressInfo } from 'node:net';

describe('chain: explorer proofs on a whole node', function () {
  this.timeout(180_000);
  let n: ChainNode;
  const alice = keyOf(1);
  const bob = keyOf(2);
  const carol = keyOf(3);
  const stranger = keyOf(9);
  const m1 = marketIdOf(mintOf(1), mintOf(2));
  const m2 = marketIdOf(mintOf(3), mintOf(4));
  const results: WireSubmitTxResponse[] = [];
  const probe = runtimeProbe();
  const order = (
    key: typeof alice,
    id: number,
    side: 'Buy' | 'Sell',
    price: number,
    qty: number,
    base = 1,
    quote = 2,
  ) =>
    n.client.submit(
      signedOrderRequest(
        {
          orderId: BigInt(id),
          owner: key.publicKey,
          side,
          price: BigInt(price),
          quantity: BigInt(qty),
          expiry: 0n,
          baseMint: mintOf(base),
          quoteMint: mintOf(quote),
        },
        key.secretKey,
      ),
    );
  const ownerOf = (key: typeof alice) => toBase58(key.publicKey);
  const orderProofPath = (key: typeof alice, id: number | string, market = m1) =>
    `/markets/${market}/orders/${id}/proof?owner=${ownerOf(key)}`;

  /** The browser bundle (dist/browser/svc-vdf.js), run here: it must give the same verdicts. */
  async function bundle() {
    const mod = (await import(
      pathToFileURL(repoFile('dist/browser/svc-vdf.js')).href
    )) as typeof import('../../../src/browser/index.js');
    return { mod, v: await mod.createVerifier(readFileSync(repoFile('dist/browser/svc-vdf.wasm'))) };
  }

  /** GET a transaction proof, retrying while its tick waits for its proof (404, pending, Retry-After: 1). */
  async function txProof(id: string): Promise<{ status: number; text: string; json: unknown }> {
    for (;;) {
      const res = await fetch(`${n.rpc}/transactions/${id}/proof`);
      const text = await res.text();
      const json = JSON.parse(text) as { pending?: boolean };
      if (res.status === 404 && json.pending === true) {
        expect(res.headers.get('retry-after')).to.equal('1');
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      return { status: res.status, text, json };
    }
  }

  /** Fetch an order proof and the block it names; verify it against that block. */
  async function provenOrder(key: typeof alice, id: number, market = m1) {
    const res = await n.get(orderProofPath(key, id, market));
    expect(res.status, res.text).to.equal(200);
    const proof = res.json as OrderStateProof;
    const block = (await n.get(`/blocks/${proof.block_height}`)).json as BlockDetail;
    const v = await tickVerifier();
    const verdict = verifyOrderState(proof, { trustedBlock: block.block, inclusion: { tickVerifier: v } });
    expect(verdict.ok, JSON.stringify(verdict)).to.equal(true);
    return { proof, block, verdict, v };
  }

  before(async () => {
    n = await startChainNode({ faces: [...defaultFaces(), probe.face] });
    results.push(await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } }));
    results.push(
      await n.client.submit({ market: { base_mint: mintOf(3), quote_mint: mintOf(4), name: 'THREE/FOUR' } }),
    );
    results.push(await order(alice, 1, 'Sell', 100, 5)); // rests, then filled by bob 2
    results.push(await order(alice, 2, 'Sell', 101, 5)); // rests, then cancelled
    results.push(await order(carol, 1, 'Sell', 120, 3)); // rests throughout
    results.push(await order(bob, 1, 'Buy', 50, 1, 3, 4)); // other market
    results.push(await order(bob, 2, 'Buy', 100, 5)); // fills alice 1 on arrival: filled on arrival
    results.push(
      await n.client.submit(
        signedCancelRequest({ orderId: 2n, owner: alice.publicKey, marketId: m1 }, alice.secretKey),
      ),
    );
    results.push(await order(bob, 3, 'Buy', 90, 1)); // rests in a slot freed by alice 1
    await n.waitForHeight(Number(results[results.length - 1]!.block_height));
  });
  let restartedDir: string | undefined;
  after(async () => {
    await n?.close();
    if (restartedDir) await rm(restartedDir, { recursive: true, force: true });
  });

  it('GET /transactions/:id/proof verifies (tick VDF included) and ties the transaction to its block', async () => {
    const v = await tickVerifier();
    for (const r of results.filter((x) => x.transaction !== null)) {
      const res = await txProof(r.transaction_id);
      expect(res.status, res.text).to.equal(200);
      const proof = res.json as ChainTransactionProof;
      expect(proof.transaction_id).to.equal(r.transaction_id);
      expect(proof.continuum_sequence).to.equal(r.continuum_sequence);
      expect(String(proof.block_height)).to.equal(r.block_height);
      const verdict = verifyChainTransactionProof(proof, { tickVerifier: v, expectedHash: r.tx_hash });
      expect(verdict.ok, JSON.stringify(verdict)).to.equal(true);
      // The block lists the continuum sequence in its batch of that tick, with the same batch hash.
      const block = parseRecordJson<BlockDetail>((await n.get(`/blocks/${proof.block_height}`)).text).block;
      const batch = block.batch_summaries.find((b) => b.tick_number === proof.proof.tick_number)!;
      expect(batch.continuum_sequences.map(String)).to.include(proof.continuum_sequence);
    }
  });

  it('a tampered transaction proof fails at the step of the field', async () => {
    const v = await tickVerifier();
    const r = results.find((x) => x.transaction !== null)!;
    const proof = (await txProof(r.transaction_id)).json as ChainTransactionProof;
    const browser = await bundle();
    expect(browser.mod.verifyChainTransactionProof(proof, { tickVerifier: browser.v }).ok).to.equal(true);
    const cases: Array<[string, (p: ChainTransactionProof) => void, string]> = [
      [
        'transaction_id',
        (p) =>
          (p.transaction_id =
            (parseInt(p.transaction_id.slice(0, 16), 16) + 1).toString(16).padStart(16, '0') +
            p.transaction_id.slice(16)),
        'block_ids',
      ],
      ['block_height', (p) => (p.block_height += 1), 'block_ids'],
      ['batch_index', (p) => (p.batch_index += 1), 'block_ids'],
      [
        'continuum_sequence',
        (p) => (p.continuum_sequence = (BigInt(p.continuum_sequence) + 1n).toString()),
        'block_ids',
      ],
      ['proof.tx', (p) => (p.proof.tx = flipHex(p.proof.tx, 20)), 'audit_path'],
      ['proof.batch_hash', (p) => (p.proof.batch_hash = flipHex(p.proof.batch_hash)), 'audit_path'],
      ['proof.tick_number', (p) => (p.proof.tick_number += 1), 'tick'],
      ['proof.index', (p) => (p.proof.index = p.proof.transaction_count), 'shape'],
      ['proof.transaction_count', (p) => (p.proof.transaction_count += 1), 'audit_path'],
      ['proof.audit_path', (p) => p.proof.audit_path.push('00'.repeat(32)), 'audit_path'],
      ['proof.tick', (p) => ((p.proof.tick as { tick: { timestamp: number } }).tick.timestamp += 1), 'tick_vdf'],
    ];
    for (const [name, change, step] of cases) {
      const bad = clone(proof);
      change(bad);
      const verdict = verifyChainTransactionProof(bad, { tickVerifier: v });
      expect(verdict.ok === false && verdict.step, name).to.equal(step);
      const b = browser.mod.verifyChainTransactionProof(bad, { tickVerifier: browser.v });
      expect(b.ok === false && b.step, `${name} (browser bundle)`).to.equal(step);
    }
  });

  it('GET /transactions/:id/proof: 400 malformed id, 404 unknown id and market creation', async () => {
    for (const bad of ['xyz', '0000000000000000-0000-0000', '1-1-1', '0000000000000001-00000-0000']) {
      const res = await n.get(`/transactions/${bad}/proof`);
      expect(res.status, bad).to.equal(400);
      expect((res.json as { error: string }).error).to.be.a('string');
    }
    const unknown = await n.get('/transactions/00000000000fffff-0000-0000/proof');
    expect(unknown.status).to.equal(404);
    expect((unknown.json as { error: string }).error).to.match(/does not exist/);
    const creation = await n.get(`/transactions/${results[0]!.transaction_id}/proof`);
    expect(creation.status).to.equal(404);
    expect((creation.json as { error: string }).error).to.match(/market creation/);
  });

  it("order proofs: resting, cancelled, filled, filled on arrival; the state_root is the block's", async () => {
    const resting = await provenOrder(carol, 1);
    expect(resting.proof.state).to.equal('resting');
    expect(resting.proof.state_root).to.equal(Buffer.from(resting.block.block.state_root).toString('hex'));
    expect(resting.proof.tick_number).to.equal(resting.block.block.last_tick);
    expect(resting.verdict.ok && resting.verdict.order?.price).to.equal('120');
    expect(resting.proof.used_id).to.not.equal(undefined);

    const cancelled = await provenOrder(alice, 2);
    expect(cancelled.proof.state).to.equal('not_resting');
    expect(cancelled.proof.end).to.equal('cancelled');
    expect(cancelled.verdict.ok && cancelled.verdict.absence).to.equal('slot');
    expect(cancelled.verdict.ok && cancelled.verdict.ended_by?.tx_hash).to.equal(results[7]!.tx_hash);

    const filled = await provenOrder(alice, 1);
    expect(filled.proof.end).to.equal('filled');
    expect(filled.verdict.ok && filled.verdict.ended_by?.tx_hash).to.equal(results[6]!.tx_hash);

    const onArrival = await provenOrder(bob, 2);
    expect(onArrival.proof.end).to.equal('filled_on_arrival');
    expect(onArrival.proof.book).to.equal(undefined);
    expect(onArrival.verdict.ok && onArrival.verdict.absence).to.equal('unproven');

    const whole = await n.get(`${orderProofPath(alice, 2)}&book=whole`);
    expect(whole.status).to.equal(200);
    const wp = whole.json as OrderStateProof;
    expect(wp.book_entries).to.have.length(64);
    const wv = verifyOrderState(wp, {
      trustedBlock: ((await n.get(`/blocks/${wp.block_height}`)).json as BlockDetail).block,
      inclusion: { tickVerifier: resting.v },
    });
    expect(wv.ok && wv.absence, JSON.stringify(wv)).to.equal('book');

    const other = await provenOrder(bob, 1, m2);
    expect(other.proof.state).to.equal('resting');
  });

  it('order proofs of orders removed by a self-trade and by expiry name the order that met them', async () => {
    const dave = keyOf(4);
    const eve = keyOf(5);
    const placeIn = (key: typeof alice, id: number, side: 'Buy' | 'Sell', price: number, expiry: bigint) =>
      n.client.submit(
        signedOrderRequest(
          {
            orderId: BigInt(id),
            owner: key.publicKey,
            side,
            price: BigInt(price),
            quantity: 1n,
            expiry,
            baseMint: mintOf(3),
            quoteMint: mintOf(4),
          },
          key.secretKey,
        ),
      );
    await placeIn(dave, 1, 'Sell', 60, 0n); // rests above bob's bid at 50
    const selfTrade = await placeIn(dave, 2, 'Buy', 60, 0n); // meets dave 1: a self-trade removes it
    const expiry = BigInt(Math.floor(Date.now() / 1000) + 2);
    await placeIn(dave, 3, 'Sell', 70, expiry);
    await new Promise((r) => setTimeout(r, 3_200));
    const meets = await placeIn(eve, 1, 'Buy', 70, 0n); // dave 2 (bid 60) is below; meets dave 3, expired
    await n.waitForHeight(Number(meets.block_height));
    const st = await provenOrder(dave, 1, m2);
    expect(st.proof.end).to.equal('self_trade');
    expect(st.verdict.ok && st.verdict.ended_by?.tx_hash).to.equal(selfTrade.tx_hash);
    const ex = await provenOrder(dave, 3, m2);
    expect(ex.proof.end).to.equal('expired');
    expect(ex.verdict.ok && ex.verdict.ended_by?.tx_hash).to.equal(meets.tx_hash);
  });

  it('order proofs read while orders flow (blocks open) verify against the block each names', async () => {
    const frank = keyOf(6);
    const flow = Promise.all(Array.from({ length: 40 }, (_, i) => order(frank, 100 + i, 'Buy', 10 + (i % 5), 1)));
    const asks: Array<[typeof alice, number]> = Array.from({ length: 16 }, (_, i) =>
      i % 2 === 0 ? [carol, 1] : [alice, 2],
    );
    const v = await tickVerifier();
    const proofs = await Promise.all(
      asks.map(async ([key, id], i) => {
        await new Promise((r) => setTimeout(r, i * 15));
        const res = await n.get(orderProofPath(key, id));
        expect(res.status, res.text).to.equal(200);
        return res.json as OrderStateProof;
      }),
    );
    await flow;
    const heights = new Set<number>();
    for (const proof of proofs) {
      const block = (await n.get(`/blocks/${proof.block_height}`)).json as BlockDetail;
      const verdict = verifyOrderState(proof, { trustedBlock: block.block, inclusion: { tickVerifier: v } });
      expect(verdict.ok, JSON.stringify(verdict)).to.equal(true);
      heights.add(proof.block_height);
    }
    // A frank order proves too, in whatever block it first appears.
    await provenOrder(frank, 139);
    expect(heights.size).to.be.at.least(1);
  });

  it('a transaction whose tick has no stored proof yet answers 404 pending with Retry-After: 1', async () => {
    const r = results.find((x) => x.transaction !== null)!;
    const res = await getWithNoProvenTick(`/transactions/${r.transaction_id}/proof`);
    expect(res.status).to.equal(404);
    expect(res.retryAfter).to.equal('1');
    expect(res.body).to.include({ found: false, pending: true });
    expect(res.body.error).to.match(/not yet in a proven tick; retry shortly/);
  });

  it('a block whose ticks have no stored proof yet: GET /blocks/:height/ticks answers 404 pending with Retry-After: 1', async () => {
    const res = await getWithNoProvenTick('/blocks/1/ticks');
    expect(res.status).to.equal(404);
    expect(res.retryAfter).to.equal('1');
    expect(res.body.pending).to.equal(true);
    expect(res.body.error).to.match(/^tick \d+ of block 1 has no stored proof yet; retry shortly$/);
  });

  /** GET `path` from an explorer over this node's chain whose sequencer has no proven tick yet. */
  async function getWithNoProvenTick(
    path: string,
  ): Promise<{ status: number; retryAfter: string | null; body: { error: string; pending?: boolean } }> {
    const app = createExplorerApp({
      chain: probe.runtime().chain,
      state: () => probe.runtime().book.engine.state,
      sequencer: { getTick: async () => undefined, status: noneProven },
      logger: silentLogger(),
      orders: probe.runtime().orders,
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as { error: string; pending?: boolean },
      };
    } finally {
      server.close();
    }
  }

  it('a tampered order proof fails at the step of the field', async () => {
    const { proof, block, v } = await provenOrder(alice, 2);
    const opts = { trustedBlock: block.block, inclusion: { tickVerifier: v } };
    const browser = await bundle();
    const browserOpts = { trustedBlock: block.block, inclusion: { tickVerifier: browser.v } };
    expect(browser.mod.verifyOrderState(proof, browserOpts).ok).to.equal(true);
    const cases: Array<[string, (p: OrderStateProof) => void, string]> = [
      ['state', (p) => (p.state = 'resting'), 'shape'],
      ['state (no end)', (p) => ((p.state = 'resting'), delete p.end, delete p.ended_by), 'book_leaf'],
      ['market_id', (p) => (p.market_id = m2), 'market_leaf'],
      ['owner', (p) => (p.owner = ownerOf(stranger)), 'used_id_leaf'],
      ['order_id', (p) => (p.order_id = '3'), 'used_id_leaf'],
      ['block_height', (p) => (p.block_height += 1), 'anchor'],
      ['tick_number', (p) => (p.tick_number += 1), 'anchor'],
      ['state_root', (p) => (p.state_root = flipHex(p.state_root)), 'state_root'],
      ['markets_root', (p) => (p.markets_root = flipHex(p.markets_root)), 'market_path'],
      ['markets_size', (p) => (p.markets_size *= 2), 'market_path'],
      ['market_count', (p) => (p.market_count = 1), 'state_root'],
      ['used_ids_root', (p) => (p.used_ids_root = flipHex(p.used_ids_root)), 'used_id_path'],
      ['used_id_count', (p) => (p.used_id_count += 1), 'used_id_path|state_root'], // the path may not depend on it; state_root binds it
      ['market.index', (p) => (p.market.index = 1), 'market_path'],
      ['market.leaf', (p) => (p.market.leaf = flipHex(p.market.leaf)), 'market_path'],
      ['market.audit_path', (p) => (p.market.audit_path[0] = flipHex(p.market.audit_path[0]!)), 'market_path'],
      ['book.index', (p) => (p.book!.index += 1), 'book_path'],
      [
        'book.leaf',
        (p) => (p.book!.leaf = p.book!.leaf === '' ? '00' : ''),
        proof.book!.leaf === '' ? 'book_leaf' : 'book_path',
      ],
      ['book.audit_path', (p) => (p.book!.audit_path[0] = flipHex(p.book!.audit_path[0]!)), 'book_path'],
      ['used_id.index', (p) => (p.used_id!.index = (p.used_id!.index + 1) % p.used_id_count), 'used_id_path'],
      ['used_id.leaf', (p) => (p.used_id!.leaf = flipHex(p.used_id!.leaf)), 'used_id_leaf'],
      ['used_id.audit_path', (p) => (p.used_id!.audit_path[0] = flipHex(p.used_id!.audit_path[0]!)), 'used_id_path'],
      ['end', (p) => (p.end = 'filled_on_arrival'), 'ended_by'],
      [
        'ended_by',
        (p) =>
          ((p.ended_by as ChainTransactionProof).proof.tx = flipHex(
            (p.ended_by as ChainTransactionProof).proof.tx,
            20,
          )),
        'ended_by',
      ],
    ];
    for (const [name, change, step] of cases) {
      const bad = clone(proof);
      change(bad);
      const verdict = verifyOrderState(bad, opts);
      expect(step.split('|'), name).to.include(verdict.ok === false ? verdict.step : 'ok');
      const b = browser.mod.verifyOrderState(bad, browserOpts);
      expect(b.ok === false && b.step, `${name} (browser bundle)`).to.equal(verdict.ok === false && verdict.step);
    }
  });

  it('order proofs: 400 malformed market, order id, owner, book; 404 unknown market, order, owner, other market', async () => {
    const bad400 = [
      `/markets/NOT-A-UUID/orders/1/proof?owner=${ownerOf(alice)}`,
      `/markets/${m1.toUpperCase()}/orders/1/proof?owner=${ownerOf(alice)}`,
      `/markets/${m1}/orders/-1/proof?owner=${ownerOf(alice)}`,
      `/markets/${m1}/orders/18446744073709551616/proof?owner=${ownerOf(alice)}`,
      `/markets/${m1}/orders/1x/proof?owner=${ownerOf(alice)}`,
      `/markets/${m1}/orders/1/proof`,
      `/markets/${m1}/orders/1/proof?owner=0OIl`,
      `/markets/${m1}/orders/1/proof?owner=${ownerOf(alice)}&owner=${ownerOf(bob)}`,
      `/markets/${m1}/orders/1/proof?owner=${ownerOf(alice)}&book=half`,
    ];
    for (const path of bad400) {
      const res = await n.get(path);
      expect(res.status, path).to.equal(400);
      expect((res.json as { error: string }).error, path).to.be.a('string');
    }
    const unknownMarket = marketIdOf(mintOf(7), mintOf(8));
    const bad404: Array<[string, RegExp]> = [
      [orderProofPath(alice, 1, unknownMarket), /market .* does not exist/],
      [orderProofPath(stranger, 1), /never placed an order/],
      [orderProofPath(alice, 99), /order 99 .* does not exist/],
      [orderProofPath(bob, 1, m1), /is in market/],
    ];
    for (const [path, message] of bad404) {
      const res = await n.get(path);
      expect(res.status, path).to.equal(404);
      expect((res.json as { error: string }).error, path).to.match(message);
    }
  });

  it('after a restart (snapshot and replay) the node serves the same order proofs; rebuilt from the ticks, the records are the same bytes', async () => {
    const before = (await n.get(orderProofPath(alice, 2))).json as OrderStateProof;
    const dir = n.dir;
    await n.close({ keepDir: true });
    // Dump the per-order records, drop their marker (as on a chain made before them): the
    // next start rebuilds every chain record from the ticks, and these come out the same.
    const sublevels = ['chain-oid', 'chain-oend', 'chain-uid', 'chain-unode'];
    const dump = async () => {
      const db = await openDatabase(dir);
      try {
        const out: Record<string, Array<[string, string]>> = {};
        for (const name of sublevels) {
          const rows = await db
            .sublevel<string, Uint8Array>(name, { keyEncoding: 'utf8', valueEncoding: 'view' })
            .iterator()
            .all();
          out[name] = rows.map(([k, v]) => [k, Buffer.from(v).toString('hex')]);
        }
        return { out, db };
      } catch (err) {
        await db.close();
        throw err;
      }
    };
    const first = await dump();
    expect(first.out['chain-oid']!.length).to.be.at.least(8);
    expect(first.out['chain-oend']!.length).to.be.at.least(3);
    await first.db
      .sublevel<string, Uint8Array>('chain-meta', { keyEncoding: 'utf8', valueEncoding: 'view' })
      .del('order-records');
    for (const name of sublevels) await first.db.sublevel(name).clear();
    await first.db.close();
    n = await startChainNode({ dir });
    await n.close({ keepDir: true });
    const second = await dump();
    await second.db.close();
    expect(second.out).to.deep.equal(first.out);
    n = await startChainNode({ dir });
    try {
      const after = await provenOrder(alice, 2);
      expect(after.proof.used_id).to.deep.equal(before.used_id);
      expect(after.proof.end).to.equal(before.end);
      expect(after.proof.book?.index).to.equal(before.book?.index);
      await provenOrder(carol, 1);
      // New orders after the restart append to the same used-id tree.
      await order(carol, 2, 'Sell', 130, 1);
      const fresh = await provenOrder(carol, 2);
      expect(fresh.proof.used_id!.index).to.equal(before.used_id_count);
    } finally {
      restartedDir = dir; // the node in `n` is closed by after(), then its directory removed
    }
  });
});

describe('chain: used-id paths from the stored records', function () {
  this.timeout(60_000);
  it('equal the plain audit paths for every size around the stored-node heights', async () => {
    const dir = await tempDir('usedids');
    const db = await openDatabase(dir);
    try {
      const records = new OrderRecords(db);
      await records.init(0);
      const leaves: Uint8Array[] = [];
      const total = 1100;
      // Feed the records tick by tick through the tick-ops hook, as the chain does.
      const owner = new Uint8Array(32).fill(5);
      let k = 0;
      while (k < total) {
        const size = Math.min(total - k, 1 + (k % 97));
        const txs = Array.from({ length: size }, (_, i) => {
          const id = BigInt(k + i);
          const o = { owner, orderId: id, open: true };
          return {
            outcome: { ok: true, kind: 'order', order: o, result: { trades: [], removals: [], slot: 0 } },
            continuumSequence: id,
          };
        });
        const ops: ChainOp[] = [];
        k += size;
        records.tickOps({ tick: { tickNumber: k }, txs } as unknown as AppliedTick, k, ops);
        await db.batch(ops as never);
        for (let i = k - size; i < k; i++) {
          const leaf = new Uint8Array(40);
          leaf.set(owner);
          new DataView(leaf.buffer).setBigUint64(32, BigInt(i), true);
          leaves.push(leaf);
        }
      }
      const hashes = leaves.map((l) => leafHashWith(sha256, l));
      for (const count of [1, 2, 3, 255, 256, 257, 511, 512, 513, 767, 1024, 1025, 1100]) {
        for (const index of [0, 1, Math.floor(count / 2), count - 2, count - 1, 300].filter(
          (i) => i >= 0 && i < count,
        )) {
          const want = auditPath(sha256, hashes.slice(0, count), index).map((h) => Buffer.from(h).toString('hex'));
          const got = (await records.usedIdPath(index, count)).map((h) => Buffer.from(h).toString('hex'));
          expect(got, `index ${index} of ${count}`).to.deep.equal(want);
        }
      }
      // A restart takes up the appending state from the store.
      const again = new OrderRecords(db);
      await again.init(total);
      expect(again.usedIdCount).to.equal(total);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
