/**
 * The orders channel across a kill -9 of the real `svc node` binary: a client follows an
 * owner's events while signed orders flow, the node is killed mid-flow and started again on
 * the same database; the client resumes from the sequence after the last it received and
 * gets every later event once, in order (no gap, no duplicate), the node numbering new
 * events on from the stored counts; a replay from sequence 1 after the restart gives, byte
 * for byte, the messages the client received live before the kill.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainClient } from '../../src/chain/api/client/index.js';
import { toBase58 } from '../../src/crypto/base58.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { keyOf, mintOf } from '../chain/support/flow.js';
import { TestClient, rawOf, type Msg } from './support/client.js';
import { orderFlow } from './support/order-flow.js';

const FACES = ['grpc', 'rest', 'dex', 'rpc'];
const ARGS = ['--idle-tick-ms', '20', '--block-ms', '50', '--snapshot-txs', '40'];

describe('channels: orders resumed across a kill -9 of the node binary', function () {
  this.timeout(180_000);
  let dir: string;
  let node: NodeProcess | undefined;
  const alice = keyOf(51);
  const bob = keyOf(52);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-channels-restart-'));
  });
  after(async () => {
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  const flow = (client: ChainClient, firstId: number) =>
    orderFlow(client, firstId, {
      owners: [alice, bob],
      mints: [61, 62],
      prices: { from: 98, spread: 5 },
      maxQuantity: 3,
    });

  it('resumes from the next sequence with no gap and no duplicate; the replay is byte for byte the live messages', async () => {
    const owner = toBase58(alice.publicKey);
    node = await spawnNode(dir, ARGS, FACES);
    let client = new ChainClient(node.addresses.grpc!);
    await client.submit({ market: { base_mint: mintOf(61), quote_mint: mintOf(62), name: 'KILL/NINE' } });
    const live = await TestClient.open(`ws://${node.addresses.rpc}/ws`);
    live.send({ op: 'subscribe', id: 'a', channel: 'orders', owner, from_sequence: 1 });
    await live.next((m) => m.type === 'subscribed');
    let orders = flow(client, 0);
    const before: Msg[] = [];
    while (before.length < 40) before.push(await live.next((m) => m.type === 'order'));
    node.child.kill('SIGKILL');
    await node.exited;
    const lastId = await orders.stop();
    client.close();
    expect(await live.closed()).to.equal(1006);
    // What arrived before the socket dropped.
    before.push(...live.inbox.filter((m) => m.type === 'order'));
    expect(before.map((m) => m.seq)).to.deep.equal(before.map((_, i) => i + 1));

    node = await spawnNode(dir, ARGS, FACES);
    client = new ChainClient(node.addresses.grpc!);
    const resumed = await TestClient.open(`ws://${node.addresses.rpc}/ws`);
    const next = before.length + 1;
    resumed.send({ op: 'subscribe', id: 'a', channel: 'orders', owner, from_sequence: next });
    expect(await resumed.next((m) => m.type === 'subscribed')).to.include({ from_sequence: next });
    orders = flow(client, lastId + 1000);
    const after: Msg[] = [];
    while (after.length < 30) after.push(await resumed.next((m) => m.type === 'order'));
    await orders.stop();
    expect(after.map((m) => m.seq)).to.deep.equal(after.map((_, i) => next + i));
    const firstTickAfter = after[0]!.tick as number;
    expect(firstTickAfter).to.be.at.least(before[before.length - 1]!.tick as number);

    const replay = await TestClient.open(`ws://${node.addresses.rpc}/ws`);
    replay.send({ op: 'subscribe', id: 'r', channel: 'orders', owner, from_sequence: 1 });
    const all: Msg[] = [];
    while (all.length < before.length + after.length) all.push(await replay.next((m) => m.type === 'order'));
    expect(all.map(rawOf)).to.deep.equal([...before, ...after].map(rawOf));
    client.close();
    resumed.close();
    replay.close();
  });
});
