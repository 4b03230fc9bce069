/**
 * The chain in the real `svc node` binary, over its own LevelDB:
 *  - kill -9 in the middle of a flow of orders: every block, transaction and SubmitTx
 *    answer shown before the kill is served identically after the restart, and the chain
 *    goes on from there;
 *  - a restart loads the snapshot and replays only the ticks after it (the log says so),
 *    not the whole chain;
 *  - blocks are a pure function of the ticks: a node given the same stored ticks but no
 *    chain records rebuilds the same blocks, ids, events and state roots, byte for byte.
 */
import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainClient, signedOrderRequest, type WireSubmitTxResponse } from '../../src/chain/api/client/index.js';
import { levelDir } from '../../src/db/index.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { keyOf, mintOf } from './support/flow.js';

const FACES = ['grpc', 'rest', 'dex', 'rpc'];
const ARGS = ['--idle-tick-ms', '20', '--block-ms', '50', '--snapshot-txs', '40', '--log-level', 'info'];

async function get(rpc: string, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://${rpc}${path}`);
  return { status: res.status, text: await res.text() };
}

async function status(rpc: string): Promise<{ block_height: number; latest_tick: number; total_transactions: number }> {
  return JSON.parse((await get(rpc, '/status')).text) as {
    block_height: number;
    latest_tick: number;
    total_transactions: number;
  };
}

/** Every produced block's detail JSON, by height. */
async function allBlocks(rpc: string): Promise<string[]> {
  const h = (await status(rpc)).block_height;
  const out: string[] = [];
  for (let i = 1; i <= h; i++) out.push((await get(rpc, `/blocks/${i}`)).text);
  return out;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('end to end: the chain in the real node binary (kill -9, snapshots, determinism)', function () {
  this.timeout(240_000);
  let dir: string;
  let node: NodeProcess | undefined;
  const alice = keyOf(1);
  const bob = keyOf(2);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-chain-'));
  });
  after(async () => {
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('kill -9 mid-flow loses and changes nothing shown; a restart replays only the ticks after the snapshot', async () => {
    node = await spawnNode(dir, ARGS, FACES);
    let client = new ChainClient(node.addresses.grpc!);
    await client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } });
    const answers: WireSubmitTxResponse[] = [];
    let id = 0;
    const order = (key: typeof alice, side: 'Buy' | 'Sell', price: number) =>
      client.submit(
        signedOrderRequest(
          {
            orderId: BigInt(++id),
            owner: key.publicKey,
            side,
            price: BigInt(price),
            quantity: 3n,
            expiry: 0n,
            baseMint: mintOf(1),
            quoteMint: mintOf(2),
          },
          key.secretKey,
        ),
      );
    for (let round = 0; round < 6; round++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            order(i % 2 ? alice : bob, i % 2 ? 'Sell' : 'Buy', 95 + ((i * 7 + round) % 11)),
          ),
        )),
      );
    }
    // Keep orders flowing while we take what the node shows, then kill it mid-flow.
    let flowing = true;
    const background = (async () => {
      while (flowing)
        await order(alice, 'Sell', 200 + (id % 5)).then(
          (a) => answers.push(a),
          () => undefined,
        );
    })();
    const rpc = node.addresses.rpc!;
    const top = Math.max(...answers.map((a) => Number(a.block_height)));
    await waitFor(async () => (await status(rpc)).block_height >= top, 'blocks of the answered orders');
    const shownBlocks = await allBlocks(rpc);
    const shownAnswers = [...answers];
    const shownTxs = await Promise.all(
      shownAnswers.map(
        async (a) => [a.transaction_id, (await get(rpc, `/transactions/${a.transaction_id}`)).text] as const,
      ),
    );
    for (const [, text] of shownTxs) expect(text).to.match(/^\{"id"/);
    // Every answer given up to the kill, the last ones shown before their chain write (docs/chain.md
    // "Stored before shown", its exception).
    const answeredBeforeKill = [...answers];
    node.child.kill('SIGKILL');
    flowing = false;
    await node.exited;
    await background;
    client.close();

    node = await spawnNode(dir, ARGS, FACES);
    const rpc2 = node.addresses.rpc!;
    await waitFor(async () => (await status(rpc2)).block_height >= shownBlocks.length, 'the chain after restart');
    const after = await allBlocks(rpc2);
    expect(after.slice(0, shownBlocks.length)).to.deep.equal(shownBlocks);
    for (const [txId, text] of shownTxs) expect((await get(rpc2, `/transactions/${txId}`)).text, txId).to.equal(text);
    for (const a of answeredBeforeKill) {
      const path = `/transactions/${a.transaction_id}`;
      await waitFor(async () => (await get(rpc2, path)).status === 200, `${path} after the restart`, 15_000);
      const stored = JSON.parse((await get(rpc2, path)).text) as Record<string, unknown>;
      expect(
        [stored.id, String(stored.continuum_sequence), String(stored.block_height), stored.signature],
        a.transaction_id,
      ).to.deep.equal([a.transaction_id, a.continuum_sequence, a.block_height, a.transaction?.signature]);
    }
    // Started from a snapshot, replaying only the ticks after it.
    const log = node.stderr();
    const restored =
      /"tick":(\d+),"ms":\d+,"msg":"chain: restored the order book and the block builder from a snapshot"/.exec(log);
    expect(restored, log.slice(-2000)).to.not.equal(null);
    const replay = /"from":(\d+),"to":(\d+),"msg":"order book: replaying stored ticks"/.exec(log);
    if (replay) expect(Number(replay[1])).to.equal(Number(restored![1]) + 1);
    expect(Number(restored![1])).to.be.greaterThan(0);
    // The chain goes on after the restart.
    client = new ChainClient(node.addresses.grpc!);
    const more = await client.submit(
      signedOrderRequest(
        {
          orderId: 100_000n,
          owner: bob.publicKey,
          side: 'Buy',
          price: 1n,
          quantity: 1n,
          expiry: 0n,
          baseMint: mintOf(1),
          quoteMint: mintOf(2),
        },
        bob.secretKey,
      ),
    );
    expect(Number(more.block_height)).to.be.at.least(shownBlocks.length);
    await waitFor(async () => (await status(rpc2)).block_height >= Number(more.block_height), 'the new block');
    client.close();
    // Graceful stop writes a final snapshot: the next start replays nothing.
    node.child.kill('SIGTERM');
    expect(await node.exited).to.equal(0);
    node = await spawnNode(dir, ARGS, FACES);
    await waitFor(async () => /"msg":"chain: ready"/.test(node!.stderr()), 'ready');
    const again = node.stderr();
    const snapTick = Number(/"tick":(\d+),"ms":\d+,"msg":"chain: restored/.exec(again)![1]);
    const replay2 = /"from":(\d+),"to":(\d+),"msg":"order book: replaying stored ticks"/.exec(again);
    if (replay2) expect(Number(replay2[1])).to.equal(snapTick + 1);
    const finalBlocks = await allBlocks(node.addresses.rpc!);
    node.child.kill('SIGTERM');
    await node.exited;
    node = undefined;

    // Determinism: the same stored ticks without any chain record rebuild the same chain.
    const copy = await mkdtemp(join(tmpdir(), 'svc-e2e-chain-copy-'));
    try {
      await cp(dir, copy, { recursive: true });
      const db = new ClassicLevel<string, Uint8Array>(levelDir(copy), { keyEncoding: 'utf8', valueEncoding: 'view' });
      await db.open();
      const doomed: string[] = [];
      for await (const key of db.keys({ gte: '!chain-', lt: '!chain.' })) doomed.push(key);
      expect(doomed.length).to.be.greaterThan(100);
      await db.batch(doomed.map((key) => ({ type: 'del' as const, key })));
      await db.close();
      node = await spawnNode(copy, [...ARGS, '--log-level', 'warn'], FACES);
      const rpc3 = node.addresses.rpc!;
      await waitFor(async () => (await status(rpc3)).block_height >= finalBlocks.length, 'the rebuilt chain');
      const rebuilt = await allBlocks(rpc3);
      expect(rebuilt.slice(0, finalBlocks.length)).to.deep.equal(finalBlocks);
      node.child.kill('SIGKILL');
      await node.exited;
      node = undefined;
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
