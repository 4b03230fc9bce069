/**
 * Full node faults (issue 9) against a fake leader serving a real leader's recorded ticks
 * and block roots, corrupted on purpose: a bad VDF proof, a batch hash that does not match
 * the transactions, a state root that differs. The follower (a real startNode with its
 * faces, in process) halts following with a report naming the tick or block (it keeps
 * running and retries, test/follow/halt.test.ts) and stores nothing of the bad tick. A leader whose stream ends is followed again from the next tick (no gap,
 * no duplicate). Bad leaders at start: not answering, not gRPC, another chain: a clear
 * StartupError and no tick written.
 */
import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeConfig } from '../../src/config/index.js';
import { shortHash, transactionHash } from '../../src/core/tx-hash.js';
import type { Tick } from '../../src/core/types.js';
import { openDatabase } from '../../src/db/index.js';
import type { WireBlockRoot } from '../../src/follow/index.js';
import { silentLogger } from '../../src/log/index.js';
import { startNode, StartupError, type NodeHandle } from '../../src/node/index.js';
import { dexFace, grpcFace, restFace, rpcFace } from '../../src/node/faces.js';
import type { FaceSpec } from '../../src/node/interface.js';
import { TickLog } from '../../src/store/tick-log.js';
import type { WireTick } from '../../src/sequencer/api/client/index.js';
import { makeTicks } from '../chain/support/flow.js';
import { tempDirs } from '../support/temp-dirs.js';
import { until } from '../support/until.js';
import { fakeLeader, recordBlockRoots, wireOf } from './support/fake-leader.js';

const PORTS = [
  '--grpc-addr',
  '127.0.0.1:0',
  '--rest-addr',
  '127.0.0.1:0',
  '--dex-addr',
  '127.0.0.1:0',
  '--rpc-addr',
  '127.0.0.1:0',
];
// In-process order book (no gateway processes): these nodes test the follower, and start faster.
const FLAGS = ['--block-ms', '50', '--snapshot-txs', '50', '--gateways', '0'];

async function storedHead(dbPath: string): Promise<number> {
  const db = await openDatabase(dbPath);
  try {
    const log = new TickLog(db, { retainTicks: 10 });
    return (await log.open(0, 0)).head.tick;
  } finally {
    await db.close();
  }
}

describe('full node faults (fake leader, corrupted stream)', function () {
  this.timeout(180_000);
  const temp = tempDirs('svc-follow-fault-');
  const dir = (): string => temp.make();
  let ticks: WireTick[] = [];
  let roots: WireBlockRoot[] = [];
  let busy: number[] = []; // tick numbers with transactions

  before(async () => {
    // Record a real leader: ticks with orders and cancels, and its block roots.
    const leader = await startNode(
      nodeConfig([...PORTS, ...FLAGS, '--db-path', dir(), '--idle-tick-ms', '20', '--vdf-iterations', '200']),
      { logger: silentLogger(), print: () => undefined, poolThreads: 1 },
    );
    try {
      for (const t of makeTicks(40, 5)) {
        if (t.transactions.length === 0) continue;
        await leader.sequencer.submitBatch(t.transactions.map((o) => o.transaction));
        await new Promise((r) => setTimeout(r, 30)); // spread over several blocks
      }
      const rpc = leader.addresses.rpc!;
      const height = await until('3 blocks', async () => {
        const s = (await (await fetch(`http://${rpc}/status`)).json()) as { block_height: number };
        return s.block_height >= 3 ? s.block_height : undefined;
      });
      // Blocks are cut from ordered ticks, the ticks served are the proven ones (order first,
      // proof after): record once every tick of those blocks is proven, or under load the
      // recorded ticks could stop short of the recorded blocks.
      const last = ((await (await fetch(`http://${rpc}/blocks/${height}`)).json()) as { block: { last_tick: number } })
        .block.last_tick;
      await until("the blocks' ticks proven", () => (leader.sequencer.status().currentTick >= last ? true : undefined));
      roots = await recordBlockRoots(leader.addresses.grpc!, height);
      const recorded: Tick[] = [];
      for await (const t of leader.sequencer.readTicks(1, leader.sequencer.status().currentTick)) recorded.push(t);
      ticks = recorded.map(wireOf);
      busy = recorded.filter((t) => t.transactions.length > 0).map((t) => t.tickNumber);
    } finally {
      await leader.close();
    }
    expect(busy.length).to.be.greaterThan(2);
  });

  after(() => {
    temp.removeAll();
  });

  async function follow(
    leaderTicks: WireTick[],
    leaderRoots: WireBlockRoot[],
    options: { endFirstAfter?: number; faces?: FaceSpec[]; db?: string } = {},
  ) {
    const leader = await fakeLeader(leaderTicks, leaderRoots, options);
    const db = options.db ?? dir();
    const node = await startNode(nodeConfig([...PORTS, ...FLAGS, '--db-path', db, '--follow', leader.address]), {
      logger: silentLogger(),
      print: () => undefined,
      poolThreads: 2,
      ...(options.faces ? { faces: options.faces } : {}),
    });
    return { leader, node, db };
  }

  /** The rpc face (and with it the block roots check) started only once every tick is stored and its blocks built. */
  const lateRpcFace: FaceSpec = {
    name: 'rpc',
    async start(ctx) {
      await until('every tick before the rpc face', () =>
        ctx.sequencer.status().currentTick === ticks.length ? true : undefined,
      );
      await new Promise((r) => setTimeout(r, 300)); // the chain applies the last ticks
      return rpcFace.start(ctx);
    },
  };

  async function matchedHeight(dbPath: string): Promise<number> {
    const db = await openDatabase(dbPath);
    try {
      return Number(await db.sublevel<string, string>('follow-meta', { valueEncoding: 'utf8' }).get('matched'));
    } finally {
      await db.close();
    }
  }

  /** The halt the follower reports (it keeps running: node.failed stays pending). */
  async function failure(node: NodeHandle): Promise<{ tickNumber?: number; code: string; message: string }> {
    const h = await until('the follower halts', () => node.sequencer.status().follow?.halted, 60_000);
    const stillRunning = await Promise.race([
      node.failed.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), 100)),
    ]);
    expect(stillRunning, 'the node stopped on bad leader data').to.equal(true);
    return { ...(h.tick !== undefined ? { tickNumber: h.tick } : {}), code: h.code, message: h.message };
  }

  const copy = (): WireTick[] => ticks.map((t) => structuredClone(t));

  it('follows a clean stream to the end, and after the leader stream ends resumes from the next tick (no gap, no duplicate), every block root agreeing', async () => {
    const { leader, node, db } = await follow(ticks, roots, { endFirstAfter: 5 });
    await until('all ticks', () => (node.sequencer.status().currentTick === ticks.length ? true : undefined));
    expect(leader.streamStarts.slice(0, 2)).to.deep.equal([1, 6]);
    // Its lag, on GET /api/v1/status and /metrics.
    const status = (await (await fetch(`http://${node.addresses.rest}/api/v1/status`)).json()) as {
      latest_tick: number;
      follow: { leader: string; leader_tick: number; lag_ticks: number; lag_ms: number; reconnects: number };
    };
    expect(status.latest_tick).to.equal(ticks.length);
    expect(status.follow).to.include({ leader: leader.address, leader_tick: ticks.length, lag_ticks: 0, lag_ms: 0 });
    expect(status.follow.reconnects).to.be.at.least(1);
    expect(await (await fetch(`http://${node.addresses.rest}/metrics`)).text()).to.match(/^svc_follow_lag_ticks 0$/m);
    // Every block compared equal: the node is still running after its root check saw them all.
    const rpcHeight = await until('the blocks', async () => {
      const s = (await (await fetch(`http://${node.addresses.rpc}/status`)).json()) as {
        block_height: number;
        state_root: number[];
      };
      return s.block_height >= roots.length - 1 ? s : undefined; // the last block may stay open: no tick after it closes it
    });
    const h = Math.min(rpcHeight.block_height, roots.length);
    const detail = (await (await fetch(`http://${node.addresses.rpc}/blocks/${h}`)).json()) as {
      block: { state_root: number[] };
    };
    expect(Buffer.from(detail.block.state_root).toString('hex')).to.equal(roots[h - 1]!.state_root);
    const stillRunning = await Promise.race([
      node.failed.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), 500)),
    ]);
    expect(stillRunning).to.equal(true);
    await node.close();
    await leader.close();
    expect(await storedHead(db)).to.equal(ticks.length);
    // The last compared block is kept: a restart compares from the block after it.
    expect(await matchedHeight(db)).to.be.at.least(h);
  });

  it('a bad VDF proof halts it naming the tick; nothing of that tick is stored', async () => {
    const bad = busy[1]!;
    const t = copy();
    const p = t[bad - 1]!.vdf_proof;
    p.proof = (p.proof[0] === '0' ? '1' : '0') + p.proof.slice(1);
    const { leader, node, db } = await follow(t, roots);
    const err = await failure(node);
    expect(err.tickNumber).to.equal(bad);
    expect(err.message).to.match(new RegExp(`tick ${bad}\\b`));
    expect(await node.sequencer.getTick(bad)).to.equal(undefined);
    await node.close();
    await leader.close();
    expect(await storedHead(db)).to.equal(bad - 1);
  });

  it('an unproven tick (the all-zero proof a leader stores before its pool proves it) halts it naming the tick; nothing of it is stored', async () => {
    const bad = busy[0]!;
    const t = copy();
    t[bad - 1]!.vdf_proof.proof = '0'.repeat(512);
    const { leader, node, db } = await follow(t, roots);
    const err = await failure(node);
    expect(err.tickNumber).to.equal(bad);
    expect(await node.sequencer.getTick(bad)).to.equal(undefined);
    await node.close();
    await leader.close();
    expect(await storedHead(db)).to.equal(bad - 1);
  });

  it('a batch hash that does not match the transactions halts it naming the tick', async () => {
    const bad = busy[2]!;
    const t = copy();
    const o = t[bad - 1]!.transactions[0]!;
    o.transaction.payload = Buffer.from(o.transaction.payload);
    o.transaction.payload[o.transaction.payload.length - 1]! ^= 1;
    const tx = o.transaction;
    o.tx_hash = shortHash(
      transactionHash({
        txId: tx.tx_id,
        payload: tx.payload,
        signature: tx.signature,
        publicKey: tx.public_key,
        nonce: BigInt(tx.nonce),
        timestamp: BigInt(tx.timestamp),
      }),
    );
    const { leader, node, db } = await follow(t, roots);
    const err = await failure(node);
    expect(err.tickNumber).to.equal(bad);
    expect(err.code).to.equal('BAD_BATCH_HASH');
    await node.close();
    await leader.close();
    expect(await storedHead(db)).to.equal(bad - 1);
  });

  it('a state root that differs from the leader halts it naming the block', async () => {
    const r = roots.map((x) => ({ ...x }));
    r[1]!.state_root = '00'.repeat(32);
    const { leader, node } = await follow(ticks, r);
    const err = await failure(node);
    expect(err.code).to.equal('STATE_ROOT_MISMATCH');
    expect(err.message).to.match(/^block 2: its state_root/);
    await node.close();
    await leader.close();
  });

  it('compares the blocks built before the check started (faces start late), and after a restart those not compared yet', async () => {
    const r = roots.map((x) => ({ ...x }));
    r[1]!.state_root = '00'.repeat(32);
    const { leader, node } = await follow(ticks, r, { faces: [grpcFace, restFace, dexFace, lateRpcFace] });
    const err = await failure(node);
    expect(err.code).to.equal('STATE_ROOT_MISMATCH');
    expect(err.message).to.match(/^block 2: /);
    await node.close();
    await leader.close();
    // A node that stored its blocks with no check at all (no rpc face), then restarts with one.
    const db = dir();
    const first = await follow(ticks, roots, { db, faces: [grpcFace, restFace, dexFace] });
    await until('all ticks', () => (first.node.sequencer.status().currentTick === ticks.length ? true : undefined));
    await first.node.close();
    await first.leader.close();
    const again = await follow(ticks, r, { db });
    const err2 = await failure(again.node);
    expect(err2.message).to.match(/^block 2: /);
    await again.node.close();
    await again.leader.close();
  });

  it('refuses at start, writing no tick: a leader that does not answer, one that is not gRPC, one on another chain', async () => {
    const http = createServer((_q, s) => s.end('hello')).listen(0, '127.0.0.1');
    await new Promise((r) => http.once('listening', r));
    const httpPort = (http.address() as AddressInfo).port;
    const closed = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => closed.once('listening', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const other = copy();
    other[0]!.previous_output = '11'.repeat(256);
    const otherLeader = await fakeLeader(other, roots);
    try {
      for (const [leader, why] of [
        [`127.0.0.1:${closedPort}`, /does not answer as an svc node.*refused|does not answer as an svc node/],
        [`127.0.0.1:${httpPort}`, /does not answer as an svc node/],
        [otherLeader.address, /serves another chain/],
      ] as const) {
        const db = dir();
        const err = await startNode(nodeConfig([...PORTS, ...FLAGS, '--db-path', db, '--follow', leader]), {
          logger: silentLogger(),
          print: () => undefined,
          poolThreads: 1,
        }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, leader).to.be.instanceOf(StartupError);
        expect((err as Error).message).to.match(why);
        expect(await storedHead(db).catch(() => 0)).to.equal(0);
      }
    } finally {
      http.close();
      await otherLeader.close();
    }
  });
});
