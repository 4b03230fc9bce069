/**
 * The JetStream producer inside the real `svc node` binary, with a real nats-server:
 * signed orders flow in through the order book API, and the stream must hold every
 * transaction and block of the node's chain (read back over the explorer REST) exactly
 * once, in order, byte for byte what GET /transactions/:id answers, even across
 *  - the node killed with SIGKILL mid-publish and restarted on the same database,
 *  - NATS down when the node starts (the node keeps sequencing, says so in its log and
 *    /metrics) and NATS killed mid-run, each time catching up once NATS is back.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkStream,
  isBlock,
  isTx,
  readStream,
  type ExpectedBlock,
  type StreamMessage,
} from '../../support/jetstream.js';
import { natsServer, type NatsServer } from '../../support/nats-server.js';
import { spawnNode, type NodeProcess } from '../../support/node-process.js';
import { startOrderFlow } from '../../support/order-flow.js';

const FACES = ['grpc', 'rest', 'dex', 'rpc'];
const NODE_ARGS = ['--idle-tick-ms', '20', '--block-ms', '100'];

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 45_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not there yet
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface BlockDetailJson {
  block: { height: number; transaction_ids: string[] };
  transactions: { id: string; market_id: string }[];
}

/** The node's chain, blocks 1..height, read over its explorer REST. */
async function nodeChain(rpc: string): Promise<ExpectedBlock[]> {
  const { block_height } = await getJson<{ block_height: number }>(`${rpc}/status`);
  const blocks: ExpectedBlock[] = [];
  for (let h = 1; h <= block_height; h++) {
    const d = await getJson<BlockDetailJson>(`${rpc}/blocks/${h}`);
    expect(d.transactions.map((t) => t.id)).to.deep.equal(d.block.transaction_ids);
    blocks.push({ height: h, txIds: d.block.transaction_ids, marketIds: d.transactions.map((t) => t.market_id) });
  }
  return blocks;
}

/**
 * Wait until the stream ends with the node's latest block and has stopped moving (the
 * flow is over, so the open block holds no transactions once the last one is cut).
 */
async function settled(rpc: string, nats: NatsServer, minTx: number): Promise<StreamMessage[]> {
  let messages: StreamMessage[] = [];
  await until(
    'the stream to hold the whole chain',
    async () => {
      const { block_height } = await getJson<{ block_height: number }>(`${rpc}/status`);
      messages = await readStream(nats.url);
      const last = messages.at(-1);
      const txs = messages.filter(isTx).length;
      return txs >= minTx && last !== undefined && isBlock(last) && last.msgId === String(block_height);
    },
    60_000,
  );
  return messages;
}

async function metric(rest: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${rest}/metrics`)).text();
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

describe('end to end: the node publishes its chain to NATS JetStream', function () {
  this.timeout(180_000);
  let dir: string;
  let node: NodeProcess | undefined;
  let nats: NatsServer | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-mq-'));
  });
  afterEach(async () => {
    node?.child.kill('SIGKILL');
    await node?.exited;
    node = undefined;
    await nats?.dispose();
    nats = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('every transaction and block once, in order, across a kill -9 of the node mid-publish', async () => {
    nats = await natsServer();
    node = await spawnNode(dir, [...NODE_ARGS, '--mq-url', nats.url], FACES);
    let flow = await startOrderFlow(`http://${node.addresses.dex}`, { seed: 1, concurrency: 6 });
    await until('some blocks in the stream', async () => (await readStream(nats!.url)).some(isBlock));
    await new Promise((r) => setTimeout(r, 500));
    node.child.kill('SIGKILL'); // orders still flowing, the producer mid-window
    await node.exited;
    const first = await flow.stop();
    const before = await readStream(nats.url);
    expect(before.length).to.be.greaterThan(0);

    node = await spawnNode(dir, [...NODE_ARGS, '--mq-url', nats.url], FACES);
    flow = await startOrderFlow(`http://${node.addresses.dex}`, { seed: 2, concurrency: 6 });
    await new Promise((r) => setTimeout(r, 1_500));
    const second = await flow.stop();
    const rpc = `http://${node.addresses.rpc}`;
    const messages = await settled(rpc, nats, first + second);
    const chain = await nodeChain(rpc);
    checkStream(messages, chain);
    // What was in the stream before the kill is untouched, byte for byte.
    before.forEach((m, i) => {
      expect(messages[i]!.msgId).to.equal(m.msgId);
      expect(Buffer.from(messages[i]!.data).equals(Buffer.from(m.data))).to.equal(true);
    });
    // A transaction message is exactly GET /transactions/:id.
    // (Block 1 holds only the flow's market creation: the first message is that block.)
    for (const m of [...messages.filter(isTx).slice(0, 1), ...messages.filter(isTx).slice(-3)]) {
      const body = await (await fetch(`${rpc}/transactions/${m.msgId}`)).text();
      expect(Buffer.from(m.data).toString()).to.equal(body);
    }
    // A block message carries the block record and its events.
    const lastBlock = messages.at(-1)!.json<{ block: { height: number; state_root: number[] }; events: unknown[] }>();
    const detail = await getJson<{ block: { state_root: number[] } }>(`${rpc}/blocks/${lastBlock.block.height}`);
    expect(lastBlock.block.state_root).to.deep.equal(detail.block.state_root);
  });

  it('NATS down at start and killed mid-run: the node keeps sequencing, says so, and the stream catches up', async () => {
    nats = await natsServer({ start: false });
    node = await spawnNode(dir, [...NODE_ARGS, '--mq-url', nats.url, '--log-level', 'info'], FACES);
    const rest = `http://${node.addresses.rest}`;
    const rpc = `http://${node.addresses.rpc}`;
    const flow = await startOrderFlow(`http://${node.addresses.dex}`, { seed: 3, concurrency: 4 });
    await until(
      'blocks while NATS is down',
      async () => (await getJson<{ block_height: number }>(`${rpc}/status`)).block_height >= 3,
    );
    expect(flow.placed()).to.be.greaterThan(0);
    expect(await metric(rest, 'svc_mq_connected')).to.equal(0);
    expect(await metric(rest, 'svc_mq_lag_blocks')).to.be.greaterThan(0);
    expect(node.stderr()).to.match(/mq: NATS JetStream unavailable; the node goes on sequencing/);

    await nats.start();
    await until('connected', async () => (await metric(rest, 'svc_mq_connected')) === 1);
    await until('some published', async () => ((await metric(rest, 'svc_mq_published_height')) ?? 0) > 0);
    await nats.kill();
    await until('disconnect seen', async () => (await metric(rest, 'svc_mq_connected')) === 0);
    const placedWhileDown = flow.placed();
    await until('orders while NATS is down again', () => flow.placed() > placedWhileDown + 20);
    await nats.start();
    const placed = await flow.stop();
    const messages = await settled(rpc, nats, placed);
    checkStream(messages, await nodeChain(rpc));
    expect(await metric(rest, 'svc_mq_lag_blocks')).to.equal(0);
    expect(node.stderr()).to.match(/mq: NATS is back; catching the stream up/);
  });
});
