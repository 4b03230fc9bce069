/**
 * The SDK's ChannelClient (src/sdk/channel-client.ts) against the real `svc node` binary:
 * blocks from height 1, an owner's events from sequence 1 and a market's book, while signed
 * orders flow; in the middle the client's socket is dropped, and then the node is killed
 * (kill -9) and started again on the same database and port. The handlers see every height
 * and every sequence exactly once, in order; the events equal a fresh replay from sequence 1;
 * the book, re-snapshotted after the restart, folds to GET /markets/:id/orderbook.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ChainClient } from '../../src/chain/api/client/index.js';
import { orderFlow } from '../channels/support/order-flow.js';
import {
  ChannelClient,
  marketIdOf,
  toBase58,
  type BlockMessage,
  type BookLevels,
  type ChannelDial,
  type OrderMessage,
} from '../../src/sdk/index.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { keyOf, mintOf } from '../chain/support/flow.js';
import { freePort, waitUntil } from '../channels/support/wait.js';

const FACES = ['grpc', 'rest', 'dex', 'rpc'];
const BASE = 71;
const QUOTE = 72;
const MARKET = marketIdOf(mintOf(BASE), mintOf(QUOTE));

/** The SDK's dial over the `ws` package (Node 20 has no global WebSocket). */
const wsDial: ChannelDial = (url, events) => {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  ws.on('open', () => events.open());
  ws.on('message', (data: Buffer) => events.message(data.toString()));
  ws.on('close', (code: number, reason: Buffer) => events.close(code, reason.toString()));
  ws.on('error', () => undefined);
  return { send: (text) => ws.send(text), close: () => ws.terminate() };
};

describe('sdk ChannelClient: automatic resume against the real node (socket drop, kill -9 and restart)', function () {
  this.timeout(180_000);
  let dir: string;
  let node: NodeProcess | undefined;
  const clients: ChannelClient[] = [];
  const alice = keyOf(81);
  const bob = keyOf(82);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-channels-sdk-'));
  });
  after(async () => {
    for (const c of clients) c.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  /** Orders that cross often on their own connection, until stopped (closed with the flow). */
  function flow(grpc: string, firstId: number): { stop(): Promise<number> } {
    const client = new ChainClient(grpc);
    const orders = orderFlow(client, firstId, {
      owners: [alice, bob],
      mints: [BASE, QUOTE],
      prices: { from: 97, spread: 7 },
      maxQuantity: 4,
    });
    return {
      stop: async () => {
        const last = await orders.stop();
        client.close();
        return last;
      },
    };
  }

  it('delivers every block and event once, in order, and a book equal to the node, across a dropped socket and a node restart', async () => {
    const port = await freePort();
    const args = [
      '--idle-tick-ms',
      '20',
      '--block-ms',
      '50',
      '--snapshot-txs',
      '40',
      '--rpc-addr',
      `127.0.0.1:${port}`,
    ];
    node = await spawnNode(dir, args, FACES);
    const setup = new ChainClient(node.addresses.grpc!);
    await setup.submit({ market: { base_mint: mintOf(BASE), quote_mint: mintOf(QUOTE), name: 'SDK/RESUME' } });
    setup.close();

    const url = `ws://127.0.0.1:${port}/ws`;
    const client = new ChannelClient({ url, dial: wsDial, reconnectMs: 100, maxReconnectMs: 500 });
    clients.push(client);
    const blocks: BlockMessage[] = [];
    const events: OrderMessage[] = [];
    let book: BookLevels | undefined;
    let snapshots = 0;
    client.blocks({ fromHeight: 1 }, (m) => blocks.push(m));
    client.orders(toBase58(alice.publicKey), { fromSequence: 1 }, (m) => events.push(m));
    client.book(MARKET, (levels, m) => {
      book = levels;
      if (m.type === 'snapshot') snapshots++;
    });

    let orders = flow(node.addresses.grpc!, 0);
    await waitUntil(() => events.length >= 15, '15 events');
    client.dropConnection();
    await waitUntil(() => client.connections >= 2 && events.length >= 30, '30 events after a dropped socket');
    node.child.kill('SIGKILL');
    await node.exited;
    const lastId = await orders.stop();
    const beforeRestart = { blocks: blocks.length, events: events.length };

    node = await spawnNode(dir, args, FACES);
    orders = flow(node.addresses.grpc!, lastId + 1000);
    await waitUntil(
      () => events.length >= beforeRestart.events + 20 && blocks.length >= beforeRestart.blocks + 5,
      '20 more events after the restart',
    );
    await orders.stop();
    await new Promise((r) => setTimeout(r, 700)); // the last ticks' messages
    expect(client.connections).to.be.at.least(3);
    expect(snapshots).to.be.at.least(2);

    expect(blocks.map((b) => b.height)).to.deep.equal(blocks.map((_, i) => i + 1));
    for (const b of blocks) expect((b.detail as { block: { height: number } }).block.height).to.equal(b.height);
    expect(events.map((e) => e.seq)).to.deep.equal(events.map((_, i) => i + 1));

    // A fresh client replays the owner's events from 1: the same messages.
    const fresh = new ChannelClient({ url, dial: wsDial });
    clients.push(fresh);
    const replay: OrderMessage[] = [];
    fresh.orders(toBase58(alice.publicKey), { fromSequence: 1 }, (m) => replay.push(m));
    await waitUntil(() => replay.length >= events.length, 'the replay');
    expect(replay.slice(0, events.length)).to.deep.equal(events);

    const res = await fetch(`http://${node.addresses.dex}/markets/${MARKET}/orderbook?depth=1000`);
    const { data } = (await res.json()) as {
      data: {
        bids: Array<{ price: string; quantity: string; orders: number }>;
        asks: Array<{ price: string; quantity: string; orders: number }>;
      };
    };
    const rows = (levels: BookLevels['bids']) =>
      levels.map(([p, q, o]) => ({ price: String(p), quantity: String(q), orders: o }));
    expect(rows(book!.bids)).to.deep.equal(data.bids);
    expect(rows(book!.asks)).to.deep.equal(data.asks);
  });
});
