/**
 * Chain records of format 2 (blocks without last_tick_output_hash, as the code before block
 * anchors wrote them) reopen as format 3 (docs/storage.md "Format of the chain records"):
 * the node rebuilds them from its stored ticks, and every block then equals what the node
 * served before, anchor included, byte for byte. Each block's anchor is SHA-256 of its
 * last tick's VDF output as GET /api/v1/tick/{last_tick} serves it.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { openDatabase } from '../../src/db/index.js';
import { signedOrderRequest } from '../../src/chain/api/client/index.js';
import { keyOf, mintOf } from './support/flow.js';
import { startChainNode, type ChainNode } from './support/node.js';

describe('chain: records of format 2 reopen as format 3 (blocks anchor their ticks)', function () {
  this.timeout(120_000);
  let n: ChainNode | undefined;
  let dir = '';
  after(async () => {
    await n?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a store without block anchors is rebuilt from its ticks: the same blocks, now with last_tick_output_hash', async () => {
    n = await startChainNode();
    const alice = keyOf(1);
    await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } });
    let last: { block_height: string | number | bigint } = { block_height: 0 };
    for (let id = 1; id <= 6; id++) {
      last = await n.client.submit(
        signedOrderRequest(
          {
            orderId: BigInt(id),
            owner: alice.publicKey,
            side: id % 2 ? 'Sell' : 'Buy',
            price: BigInt(100 + id),
            quantity: 1n,
            expiry: 0n,
            baseMint: mintOf(1),
            quoteMint: mintOf(2),
          },
          alice.secretKey,
        ),
      );
    }
    const height = Number(last.block_height);
    await n.waitForHeight(height);
    const blocks = async (node: ChainNode): Promise<string[]> =>
      Promise.all(Array.from({ length: height }, async (_, i) => (await node.get(`/blocks/${i + 1}`)).text));
    const before = await blocks(n);
    expect(height).to.be.at.least(2);
    for (const text of before) {
      const b = (JSON.parse(text) as { block: { last_tick: number; last_tick_output_hash: string } }).block;
      const tick = await servedTick(n.rest, b.last_tick);
      expect(b.last_tick_output_hash).to.equal(
        createHash('sha256').update(Buffer.from(tick.tick.vdf_proof.output, 'hex')).digest('hex'),
      );
    }
    dir = n.dir;
    await n.close({ keepDir: true });
    n = undefined;

    // Rewrite the store as format 2 wrote it: the same block records without the field.
    const db = await openDatabase(dir);
    const text = { keyEncoding: 'utf8', valueEncoding: 'utf8' } as const;
    const blk = db.sublevel<string, string>('chain-blk', text);
    let stripped = 0;
    for (const [k, v] of await blk.iterator().all()) {
      const old = v.replace(/,"last_tick_output_hash":"[0-9a-f]{64}"/, '');
      expect(old).to.not.equal(v);
      await blk.put(k, old);
      stripped++;
    }
    const meta = db.sublevel<string, Uint8Array>('chain-meta', { keyEncoding: 'utf8', valueEncoding: 'view' });
    await meta.put('records', new TextEncoder().encode('2'));
    await db.close();
    expect(stripped).to.be.at.least(height);

    n = await startChainNode({ dir });
    await n.waitForHeight(height);
    expect(await blocks(n)).to.deep.equal(before);
    await n.close({ keepDir: true });
    n = undefined;
    const reopened = await openDatabase(dir);
    try {
      const format = await reopened
        .sublevel<string, Uint8Array>('chain-meta', { keyEncoding: 'utf8', valueEncoding: 'view' })
        .get('records');
      expect(new TextDecoder().decode(format)).to.equal('3');
    } finally {
      await reopened.close();
    }
  });
});

/**
 * GET /api/v1/tick/{n} once the tick is served: a block is cut from ordered ticks, and a
 * tick is served once its proof is made (a cut heartbeat's proof comes from the pool, later
 * under load), so a block's last tick may answer "does not exist (yet)" for a moment.
 */
async function servedTick(rest: string, n: number): Promise<{ tick: { vdf_proof: { output: string } } }> {
  const until = Date.now() + 15_000;
  for (;;) {
    const res = await fetch(`${rest}/api/v1/tick/${n}`);
    if (res.status === 200) return (await res.json()) as { tick: { vdf_proof: { output: string } } };
    const text = await res.text();
    if (res.status !== 404 || Date.now() > until) throw new Error(`GET /api/v1/tick/${n}: ${res.status} ${text}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
