/**
 * Full nodes end to end (issue 9): a real leader process and two real follower processes
 * (`svc node --follow`). Under a flow of orders, cancels, mass cancels, bad signatures and replays
 * submitted to the leader (and some through a follower, which forwards them), every
 * block's detail (record, ids, events, state_root), each market's book and the chain
 * status are byte for byte the leader's. One follower runs from the start (live), the
 * other starts late (catch-up from genesis). Then: a follower killed with -9 resumes from
 * its own store; the leader killed with -9 and restarted is followed again without a gap.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transaction } from '../../src/core/types.js';
import { cancelAllTx, keyOf, makeTicks } from '../chain/support/flow.js';
import { SequencerClient, type WireTransaction } from '../support/grpc-client.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { FLOW_BASE, FLOW_QUOTE, flowMarket } from '../support/order-flow.js';
import {
  buildOrderBody,
  DexClient,
  fromHex,
  keyPairFromSeed,
  verifyReceipt,
  type OrderIntent,
} from '../../src/sdk/index.js';

const LEADER_FLAGS = ['--idle-tick-ms', '20', '--vdf-iterations', '200', '--block-ms', '50', '--snapshot-txs', '50'];
const FOLLOWER_FLAGS = ['--block-ms', '50', '--snapshot-txs', '50'];
const ALL = ['grpc', 'rest', 'dex', 'rpc'];

function wire(tx: Transaction): WireTransaction {
  return {
    tx_id: tx.txId,
    payload: Buffer.from(tx.payload),
    signature: Buffer.from(tx.signature),
    public_key: Buffer.from(tx.publicKey),
    nonce: tx.nonce.toString(),
    timestamp: tx.timestamp.toString(),
  };
}

async function text(url: string): Promise<string> {
  const r = await fetch(url);
  return `${r.status} ${await r.text()}`;
}

async function json<T>(url: string): Promise<T> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

async function until(what: string, cond: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await cond().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const tickOf = async (n: NodeProcess): Promise<number> =>
  (await json<{ latest_tick: number }>(`http://${n.addresses.rest}/api/v1/status`)).latest_tick;

describe('full node (svc node --follow) against a real leader', function () {
  this.timeout(300_000);
  const dirs: string[] = [];
  const procs: NodeProcess[] = [];
  const dir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'svc-follow-'));
    dirs.push(d);
    return d;
  };
  const spawn = async (db: string, args: string[]): Promise<NodeProcess> => {
    const p = await spawnNode(db, args, ALL);
    procs.push(p);
    return p;
  };

  after(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** Every block, the chain status and the books: the follower's equal the leader's, byte for byte. */
  async function expectSameState(leader: NodeProcess, follower: NodeProcess): Promise<number> {
    const lt = await tickOf(leader);
    await until(`the follower to reach tick ${lt}`, async () => (await tickOf(follower)) >= lt);
    const status = async (n: NodeProcess) => json<{ block_height: number }>(`http://${n.addresses.rpc}/status`);
    const height = (await status(leader)).block_height;
    await until(`the follower to reach block ${height}`, async () => (await status(follower)).block_height >= height);
    expect(height).to.be.greaterThan(0);
    for (let h = 1; h <= height; h++) {
      expect(await text(`http://${follower.addresses.rpc}/blocks/${h}`), `block ${h}`).to.equal(
        await text(`http://${leader.addresses.rpc}/blocks/${h}`),
      );
    }
    const markets = await json<{ data: Array<{ market_id: string }> }>(`http://${leader.addresses.dex}/markets`);
    expect(markets.data.length).to.be.greaterThan(0);
    expect(await text(`http://${follower.addresses.dex}/markets`)).to.equal(
      await text(`http://${leader.addresses.dex}/markets`),
    );
    for (const m of markets.data) {
      const book = `/markets/${m.market_id}/orderbook?orders=true`;
      expect(await text(`http://${follower.addresses.dex}${book}`), `book ${m.market_id}`).to.equal(
        await text(`http://${leader.addresses.dex}${book}`),
      );
    }
    expect(follower.child.exitCode, follower.stderr()).to.equal(null); // its own root check agreed
    return height;
  }

  it('two followers (live and late) store the leader ticks and compute identical blocks, roots and books; kill -9 of either side resumes with no gap', async () => {
    const leaderDb = dir();
    let leader = await spawn(leaderDb, LEADER_FLAGS);
    const live = await spawn(dir(), [
      ...FOLLOWER_FLAGS,
      '--follow',
      leader.addresses.grpc!,
      '--follow-dex',
      `http://${leader.addresses.dex}`,
    ]);

    // The flow: 120 ticks' worth of orders, cancels, bad signatures and replays, in order.
    const groups = makeTicks(120, 11)
      .map((t) => t.transactions.map((o) => o.transaction))
      .filter((g) => g.length > 0);
    const client = new SequencerClient(leader.addresses.grpc!);
    const viaFollower = new SequencerClient(live.addresses.grpc!);
    for (const [i, g] of groups.entries()) {
      // Every fifth group goes through the follower, which forwards it to the leader.
      const c = i % 5 === 4 ? viaFollower : client;
      await c.submitBatch(g.map(wire)).catch(() => undefined); // replays are refused item by item
    }
    // Mass cancels: per owner, one side or both, in both markets; then the same signed mass
    // cancel under another nonce (the sequencer takes it, the state machine refuses it).
    const owners = [1, 2, 3, 4, 5, 6].map(keyOf);
    const masses = owners.map((k, i) =>
      cancelAllTx(k, 1, i % 2 ? 11 : 21, i % 2 ? 12 : 22, i % 3 === 0 ? 'Buy' : undefined),
    );
    await client.submitBatch(masses.map(wire));
    const replayed = cancelAllTx(owners[1]!, 1, 11, 12, undefined, 7n);
    await client.submitBatch([replayed, cancelAllTx(owners[1]!, 2, 11, 12)].map(wire));
    client.close();
    viaFollower.close();

    // Order book writes on the follower's --dex-addr get the leader's answer and receipt.
    const leaderKey = (
      await json<{ data: { sequencer_id: string; public_key_hex: string } }>(`http://${leader.addresses.dex}/health`)
    ).data;
    const viaDex = new DexClient(`http://${live.addresses.dex}`);
    await flowMarket(`http://${live.addresses.dex}`);
    const owner = keyPairFromSeed(new Uint8Array(32).fill(42));
    const intent: OrderIntent = {
      orderId: 1n,
      owner: owner.publicKey,
      side: 'Buy',
      price: 101n,
      quantity: 3n,
      expiry: 0n,
      baseMint: FLOW_BASE,
      quoteMint: FLOW_QUOTE,
    };
    const placed = await viaDex.placeOrder(buildOrderBody(intent, owner.secretKey));
    expect(placed.receipt.sequencer_id).to.equal(leaderKey.sequencer_id);
    expect(verifyReceipt(placed.receipt, fromHex(leaderKey.public_key_hex))).to.equal(true);
    // A batch through the follower too: the leader's per-item answers and receipts.
    const batched = await viaDex.placeBatch([
      { kind: 'order', ...buildOrderBody({ ...intent, orderId: 2n }, owner.secretKey) },
      { kind: 'order', ...buildOrderBody(intent, owner.secretKey) },
    ]);
    expect(batched.map((r) => (r.ok ? 'ok' : r.code))).to.deep.equal(['ok', 'ORDER_REPLAYED']);
    expect(batched[0]!.ok && verifyReceipt(batched[0]!.data.receipt, fromHex(leaderKey.public_key_hex))).to.equal(true);
    const health = await json<{ data: { sequencer_id: string; leader: { sequencer_id: string } } }>(
      `http://${live.addresses.dex}/health`,
    );
    expect(health.data.leader.sequencer_id).to.equal(leaderKey.sequencer_id); // the leader's identity
    expect(health.data.sequencer_id).to.not.equal(leaderKey.sequencer_id); // and its own
    const refused = await fetch(`http://${live.addresses.dex}/orders`, {
      method: 'POST',
      body: '{"not":"an order"}',
      headers: { 'content-type': 'application/json' },
    });
    const direct = await fetch(`http://${leader.addresses.dex}/orders`, {
      method: 'POST',
      body: '{"not":"an order"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(`${refused.status} ${await refused.text()}`).to.equal(`${direct.status} ${await direct.text()}`);

    const height = await expectSameState(leader, live);
    const late = await spawn(dir(), [...FOLLOWER_FLAGS, '--follow', leader.addresses.grpc!]);
    expect(await expectSameState(leader, late)).to.be.at.least(height);

    // Follower kill -9: it resumes from its own store (same ticks, no re-download from 1).
    const lateDb = late.child.spawnargs[late.child.spawnargs.indexOf('--db-path') + 1]!;
    late.child.kill('SIGKILL');
    await late.exited;
    const again = await spawn(lateDb, [...FOLLOWER_FLAGS, '--follow', leader.addresses.grpc!]);
    expect(await tickOf(again)).to.be.greaterThan(0); // served from its own store at once
    await expectSameState(leader, again);

    // Leader kill -9 and restart on the same address: the follower retries and resumes.
    const grpcAddr = leader.addresses.grpc!;
    leader.child.kill('SIGKILL');
    await leader.exited;
    await new Promise((r) => setTimeout(r, 500));
    leader = await spawnNode(leaderDb, [...LEADER_FLAGS, '--grpc-addr', grpcAddr], ALL);
    procs.push(leader);
    const more = new SequencerClient(leader.addresses.grpc!);
    for (const g of makeTicks(30, 99)
      .map((t) => t.transactions.map((o) => o.transaction))
      .filter((g) => g.length > 0)) {
      await more.submitBatch(g.map(wire)).catch(() => undefined);
    }
    more.close();
    await expectSameState(leader, live);
    await expectSameState(leader, again);
  });
});
