/**
 * A full node whose leader serves bad data halts, it does not exit (issue 19 point 5,
 * docs/full-node.md "When the leader serves bad data"). The follower is a real `svc node
 * --follow` child process; the leader is the fake leader serving a real leader's recorded
 * ticks, one of them corrupted. While halted the node keeps serving what it verified,
 * reports the halt on /api/v1/status, gRPC health (svc.follow.v1.Following NOT_SERVING,
 * reads SERVING) and /metrics, and stores nothing of the bad tick; it retries, and resumes
 * once the leader serves the good tick, or moves on to the next `--follow` address. A
 * malformed resend of a tick it already stored says so.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeConfig } from '../../src/config/index.js';
import type { Tick } from '../../src/core/types.js';
import type { FollowHalt } from '../../src/core/types.js';
import { silentLogger } from '../../src/log/index.js';
import { startNode } from '../../src/node/index.js';
import type { WireTick } from '../../src/sequencer/api/client/index.js';
import { makeTicks } from '../chain/support/flow.js';
import { http, rawCall } from '../hostile/support.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { tempDirs } from '../support/temp-dirs.js';
import { until } from '../support/until.js';
import { fakeLeader, recordBlockRoots, wireOf, type FakeLeader } from './support/fake-leader.js';

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
const CHAIN = ['--block-ms', '50', '--snapshot-txs', '50', '--gateways', '0'];
const WAIT_MS = 20_000;

interface Status {
  latest_tick: number;
  follow: { leader: string; connected: boolean; halted: FollowHalt | null };
}

/** grpc.health.v1.Health/Check for `service`: 1 SERVING, 2 NOT_SERVING. */
async function health(grpcAddress: string, service: string): Promise<number> {
  const name = Buffer.from(service);
  const r = await rawCall(
    grpcAddress,
    'Check',
    Buffer.concat([Buffer.from([0x0a, name.length]), name]),
    'grpc.health.v1.Health',
  );
  expect(r.code, r.details).to.equal(0);
  return r.response!.length === 0 ? 0 : r.response![1]!;
}

describe('full node halts on bad leader data and keeps serving (svc node --follow, child process)', function () {
  this.timeout(90_000);
  const temp = tempDirs('svc-follow-halt-');
  let ticks: WireTick[] = [];
  let busy: number[] = [];
  const open: Array<{ close(): Promise<void> }> = [];

  before(async () => {
    const leader = await startNode(
      nodeConfig([...PORTS, ...CHAIN, '--db-path', temp.make(), '--idle-tick-ms', '20', '--vdf-iterations', '200']),
      { logger: silentLogger(), print: () => undefined, poolThreads: 1 },
    );
    try {
      for (const t of makeTicks(30, 5)) {
        if (t.transactions.length === 0) continue;
        await leader.sequencer.submitBatch(t.transactions.map((o) => o.transaction));
        await new Promise((r) => setTimeout(r, 30));
      }
      await until('2 blocks', async () =>
        (await http(leader.addresses.rpc!, 'GET', '/status')).json<{ block_height: number }>().block_height >= 2
          ? true
          : undefined,
      );
      await recordBlockRoots(leader.addresses.grpc!, 1);
      const recorded: Tick[] = [];
      for await (const t of leader.sequencer.readTicks(1, leader.sequencer.status().currentTick)) recorded.push(t);
      ticks = recorded.map(wireOf);
      busy = recorded.filter((t) => t.transactions.length > 0).map((t) => t.tickNumber);
    } finally {
      await leader.close();
    }
    expect(busy.length).to.be.greaterThan(2);
  });
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  after(() => temp.removeAll());

  const copy = (): WireTick[] => ticks.map((t) => structuredClone(t));
  function badProof(t: WireTick): void {
    t.vdf_proof.proof = (t.vdf_proof.proof[0] === '0' ? '1' : '0') + t.vdf_proof.proof.slice(1);
  }

  async function leaderOf(served: WireTick[], options: Parameters<typeof fakeLeader>[2] = {}): Promise<FakeLeader> {
    const l = await fakeLeader(served, [], options); // no block roots: the roots check waits, it does not halt
    open.push(l);
    return l;
  }

  async function follower(follow: string): Promise<NodeProcess> {
    const dir = await mkdtemp(join(tmpdir(), 'svc-follow-halt-node-'));
    const node = await spawnNode(dir, ['--follow', follow, ...CHAIN], ['grpc', 'rest']);
    open.push({
      close: async () => {
        node.child.kill('SIGKILL');
        await node.exited;
        await rm(dir, { recursive: true, force: true });
      },
    });
    return node;
  }

  const status = async (n: NodeProcess): Promise<Status> =>
    (await http(n.addresses.rest!, 'GET', '/api/v1/status')).json<Status>();
  const metrics = async (n: NodeProcess): Promise<string> => (await http(n.addresses.rest!, 'GET', '/metrics')).text;

  it('a bad tick: keeps running and serving, reports the halt (status, health, metrics), stores nothing of it, retries, resumes on a good leader', async () => {
    const bad = busy[1]!;
    const served = copy();
    badProof(served[bad - 1]!);
    const leader = await leaderOf(served);
    const node = await follower(leader.address);
    const halted = await until(
      'the halt on /api/v1/status',
      async () => (await status(node)).follow.halted ?? undefined,
      WAIT_MS,
    );
    expect(halted).to.include({ code: 'INVALID_PROOF', tick: bad, leader: leader.address });
    expect(halted.message).to.include(`nothing of tick ${bad}`);
    expect(node.child.exitCode, 'the follower exited').to.equal(null);
    // Everything verified is served; nothing of the bad tick is stored.
    expect((await status(node)).latest_tick).to.equal(bad - 1);
    expect((await http(node.addresses.rest!, 'GET', `/api/v1/tick/${bad - 1}`)).status).to.equal(200);
    expect((await http(node.addresses.rest!, 'GET', `/api/v1/tick/${bad}`)).status).to.equal(404);
    // Health: following NOT_SERVING, reads SERVING.
    expect(await health(node.addresses.grpc!, 'svc.follow.v1.Following')).to.equal(2);
    expect(await health(node.addresses.grpc!, '')).to.equal(1);
    expect(await health(node.addresses.grpc!, 'svc.sequencer.v1.SequencerService')).to.equal(1);
    const m = await metrics(node);
    expect(m).to.match(/^svc_follow_halted 1$/m);
    expect(m).to.match(new RegExp(`^svc_follow_halted_tick ${bad}$`, 'm'));
    expect(m).to.include(`svc_follow_halt_info{code="INVALID_PROOF",tick="${bad}",block=""} 1`);
    // It retries (the same bad tick again: refused again, still nothing stored).
    await until(
      'a retry',
      async () => (((await status(node)).follow.halted?.retries ?? 0) >= 1 ? true : undefined),
      WAIT_MS,
    );
    expect((await status(node)).latest_tick).to.equal(bad - 1);
    // The leader now serves the good tick: following resumes, the halt is gone everywhere.
    served[bad - 1] = structuredClone(ticks[bad - 1]!);
    await until(
      'every tick',
      async () => ((await status(node)).latest_tick === ticks.length ? true : undefined),
      WAIT_MS,
    );
    expect((await status(node)).follow.halted).to.equal(null);
    expect(await health(node.addresses.grpc!, 'svc.follow.v1.Following')).to.equal(1);
    expect(await metrics(node)).to.match(/^svc_follow_halted 0$/m);
    expect(node.child.exitCode).to.equal(null);
  });

  it('--follow A,B: after a bad tick from A it follows B to the end', async () => {
    const bad = busy[1]!;
    const served = copy();
    badProof(served[bad - 1]!);
    const a = await leaderOf(served);
    const b = await leaderOf(ticks);
    const node = await follower(`${a.address},${b.address}`);
    await until(
      'every tick from B',
      async () => ((await status(node)).latest_tick === ticks.length ? true : undefined),
      WAIT_MS,
    );
    const s = await status(node);
    expect(s.follow).to.include({ leader: b.address, halted: null });
    expect(node.child.exitCode).to.equal(null);
  });

  it('a malformed resend of a stored tick says that tick is stored (not "nothing of tick 1")', async () => {
    const malformed = structuredClone(ticks[0]!);
    malformed.vdf_proof.output = 'zz';
    const leader = await leaderOf(ticks, { endFirstAfter: 5, resendFirst: [malformed] });
    const node = await follower(leader.address);
    const halted = await until('the halt', async () => (await status(node)).follow.halted ?? undefined, WAIT_MS);
    expect(halted.tick).to.equal(1);
    expect(halted.message).to.not.include('nothing of tick 1');
    expect(halted.message).to.include('tick 1 is stored here already');
    expect((await http(node.addresses.rest!, 'GET', '/api/v1/tick/1')).status).to.equal(200);
    expect((await status(node)).latest_tick).to.equal(5);
  });
});
