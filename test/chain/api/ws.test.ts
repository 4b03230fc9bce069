/**
 * WS /ws/blocks with real `ws` clients: on a whole node (the latest block detail at once,
 * then each new block, equal to GET /blocks/:height; 1,000 clients at once), and against
 * the socket server alone with a synthetic block source, for the hostile cases: a client
 * that never reads is closed with 4000 and never makes the node buffer more than its
 * bound, while the others go on; garbage and oversized frames; wrong paths; dead peers
 * dropped by pings; too many clients refused.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { signedOrderRequest } from '../../../src/chain/api/client/index.js';
import type { BlockDetail } from '../../../src/chain/core/index.js';
import { BlockSocket, CLOSE_TOO_SLOW, CLOSE_UNSUPPORTED_DATA } from '../../../src/chain/api/ws.js';
import { silentLogger } from '../../../src/log/index.js';
import { keyOf, mintOf } from '../support/flow.js';
import { startChainNode, type ChainNode } from '../support/node.js';

/** A client whose messages are queued from the first byte (the server sends on connect). */
const inbox = new WeakMap<WebSocket, { queue: string[]; wake?: () => void }>();

function open(url: string, options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    const box: { queue: string[]; wake?: () => void } = { queue: [] };
    inbox.set(ws, box);
    ws.on('message', (data) => {
      box.queue.push(data.toString());
      box.wake?.();
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function nextMessage(ws: WebSocket, timeoutMs = 30_000): Promise<string> {
  const box = inbox.get(ws)!;
  const until = Date.now() + timeoutMs;
  while (box.queue.length === 0) {
    if (Date.now() > until) throw new Error('no message');
    await new Promise<void>((resolve) => {
      box.wake = resolve;
      setTimeout(resolve, 100);
    });
  }
  return box.queue.shift()!;
}

function closed(ws: WebSocket, timeoutMs = 30_000): Promise<number> {
  return new Promise((resolve, reject) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve(-1);
    const t = setTimeout(() => reject(new Error('not closed')), timeoutMs);
    ws.once('close', (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}

describe('chain: WS /ws/blocks on a whole node', function () {
  this.timeout(180_000);
  let n: ChainNode;
  const alice = keyOf(1);
  before(async () => {
    n = await startChainNode();
    await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } });
    await n.waitForHeight(1);
  });
  after(async () => {
    await n?.close();
  });

  it('sends the latest block detail on connect, then every new block (the JSON of GET /blocks/:height)', async () => {
    const url = `${n.rpc.replace('http', 'ws')}/ws/blocks`;
    const ws = await open(url);
    const first = JSON.parse(await nextMessage(ws)) as BlockDetail;
    const latest = (await n.get('/blocks/latest')).json as BlockDetail;
    expect(first.block.height).to.be.at.least(latest.block.height - 1);
    const answer = await n.client.submit(
      signedOrderRequest(
        {
          orderId: 1n,
          owner: alice.publicKey,
          side: 'Sell',
          price: 5n,
          quantity: 1n,
          expiry: 0n,
          baseMint: mintOf(1),
          quoteMint: mintOf(2),
        },
        alice.secretKey,
      ),
    );
    let got: BlockDetail;
    do got = JSON.parse(await nextMessage(ws)) as BlockDetail;
    while (got.block.height < Number(answer.block_height));
    expect(got.block.transaction_ids).to.include(answer.transaction_id);
    expect(JSON.stringify(got)).to.equal(JSON.stringify((await n.get(`/blocks/${got.block.height}`)).json));
    ws.close();
  });

  it('a new block is sent as the text of its stored records, byte for byte (GET /blocks/:height)', async () => {
    const bob = keyOf(2);
    const ws = await open(`${n.rpc.replace('http', 'ws')}/ws/blocks`);
    await nextMessage(ws); // the latest block, sent on connect
    const order = (owner: typeof alice, orderId: bigint, side: 'Buy' | 'Sell') => {
      const market = { baseMint: mintOf(1), quoteMint: mintOf(2) };
      const intent = { orderId, owner: owner.publicKey, side, price: 7n, quantity: 1n, expiry: 0n, ...market };
      return n.client.submit(signedOrderRequest(intent, owner.secretKey));
    };
    // A market creation, a resting order and the one that trades with it: transactions, a
    // market and events in the blocks that follow.
    const market = n.client.submit({ market: { base_mint: mintOf(3), quote_mint: mintOf(4), name: 'THREE/FOUR' } });
    const answers = await Promise.all([market, order(alice, 10n, 'Sell'), order(bob, 11n, 'Buy')]);
    const last = Math.max(...answers.map((a) => Number(a.block_height)));
    const seen = { transactions: 0, events: 0, markets: 0 };
    let height = 0;
    while (height < last) {
      const text = await nextMessage(ws);
      const detail = JSON.parse(text) as BlockDetail;
      height = detail.block.height;
      expect(text, `block ${height}`).to.equal((await n.get(`/blocks/${height}`)).text);
      seen.transactions += detail.transactions.length;
      seen.events += detail.events.length;
      seen.markets += detail.markets.length;
    }
    expect(seen.transactions).to.be.at.least(2);
    expect(seen.events).to.be.at.least(1);
    expect(seen.markets).to.equal(1);
    ws.close();
  });

  it('1,000 clients connected at once all get the new block', async () => {
    const url = `${n.rpc.replace('http', 'ws')}/ws/blocks`;
    const clients: WebSocket[] = [];
    for (let i = 0; i < 1000; i += 100)
      clients.push(...(await Promise.all(Array.from({ length: 100 }, () => open(url)))));
    const height = (await n.get('/status')).json as { block_height: number };
    const waits = clients.map(
      (ws) =>
        new Promise<number>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error('a client got no new block')), 60_000);
          ws.on('message', (data) => {
            const h = (JSON.parse(data.toString()) as BlockDetail).block.height;
            if (h > height.block_height) {
              clearTimeout(t);
              resolve(h);
            }
          });
        }),
    );
    const answer = await n.client.submit(
      signedOrderRequest(
        {
          orderId: 2n,
          owner: alice.publicKey,
          side: 'Sell',
          price: 6n,
          quantity: 1n,
          expiry: 0n,
          baseMint: mintOf(1),
          quoteMint: mintOf(2),
        },
        alice.secretKey,
      ),
    );
    const heights = await Promise.all(waits);
    expect(heights.every((h) => h >= Number(answer.block_height) || h > height.block_height)).to.equal(true);
    expect(heights).to.have.length(1000);
    await Promise.all(clients.map((ws) => (ws.close(), closed(ws))));
  });
});

/** A block source the test drives: blocks of any size, on demand. */
class FakeBlocks {
  private listeners = new Set<(d: BlockDetail) => void>();
  height = 0;
  onBlock(l: (d: BlockDetail) => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  latestDetailJson() {
    return this.height === 0
      ? undefined
      : { height: this.height, json: JSON.stringify({ block: { height: this.height } }) };
  }
  emit(bytes: number): void {
    this.height++;
    const d = {
      block: { height: this.height, padding: 'x'.repeat(bytes) },
      transactions: [],
      events: [],
    } as unknown as BlockDetail;
    for (const l of this.listeners) l(d);
  }
}

describe('chain: WS /ws/blocks against hostile clients', function () {
  this.timeout(60_000);
  let server: Server;
  let blocks: FakeBlocks;
  let sockets: BlockSocket;
  let url: string;
  const start = async (options: Partial<{ maxClients: number; maxQueueBytes: number; pingMs: number }> = {}) => {
    blocks = new FakeBlocks();
    server = createServer((_req, res) => res.end());
    sockets = new BlockSocket(blocks, silentLogger(), {
      maxClients: 10_000,
      maxQueueBytes: 256 * 1024,
      pingMs: 60_000,
      ...options,
    });
    sockets.attach(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws/blocks`;
  };
  afterEach(async () => {
    sockets.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a client that never reads is closed with 4000; the node never queues past the bound; others keep getting blocks', async () => {
    await start();
    const reader = await open(url);
    let readerGot = 0;
    reader.on('message', () => readerGot++);
    const stalled = await open(url);
    (stalled as unknown as { _socket: { pause(): void } })._socket.pause(); // stop reading from TCP
    const stalledClose = closed(stalled, 60_000);
    let maxQueued = 0;
    for (let i = 0; i < 400 && sockets.slowClosed === 0; i++) {
      blocks.emit(64 * 1024);
      for (const c of (sockets as unknown as { clients: Set<{ ws: WebSocket }> }).clients)
        maxQueued = Math.max(maxQueued, c.ws.bufferedAmount);
      await new Promise((r) => setImmediate(r));
    }
    expect(sockets.slowClosed).to.equal(1);
    expect(maxQueued).to.be.at.most(256 * 1024 + 64 * 1024 + 1024);
    (stalled as unknown as { _socket: { resume(): void } })._socket.resume();
    const code = await stalledClose;
    expect([CLOSE_TOO_SLOW, 1006]).to.include(code);
    const before = readerGot;
    blocks.emit(100);
    await new Promise((r) => setTimeout(r, 200));
    expect(readerGot).to.be.greaterThan(before);
    expect(sockets.size).to.equal(1);
    reader.close();
  });

  it('closes a client that sends data (1003) or an oversized frame (1009); refuses other paths (404) and too many clients (503)', async () => {
    await start({ maxClients: 3 });
    const a = await open(url);
    a.send('hello');
    expect(await closed(a)).to.equal(CLOSE_UNSUPPORTED_DATA);
    const b = await open(url);
    b.send(Buffer.alloc(64 * 1024, 1));
    expect(await closed(b)).to.equal(1009);
    const c = await open(url);
    c.send(Buffer.from([0xde, 0xad, 0xbe, 0xef]), { binary: true });
    expect(await closed(c)).to.equal(CLOSE_UNSUPPORTED_DATA);
    await open(url.replace('/ws/blocks', '/ws/nope')).then(
      () => expect.fail('should be refused'),
      (err: Error) => expect(err.message).to.match(/404/),
    );
    const keep = await Promise.all([open(url), open(url), open(url)]);
    await open(url).then(
      () => expect.fail('should be refused'),
      (err: Error) => expect(err.message).to.match(/503/),
    );
    expect(sockets.size).to.equal(3);
    for (const k of keep) k.close();
  });

  it('drops a peer that stops answering pings; sends the latest block on connect', async () => {
    await start({ pingMs: 100 });
    blocks.emit(10);
    const silent = await open(url, { autoPong: false });
    const first = JSON.parse(await nextMessage(silent)) as { block: { height: number } };
    expect(first.block.height).to.equal(1);
    const alive = await open(url);
    alive.on('message', () => undefined);
    expect(await closed(silent, 5_000)).to.equal(1006);
    expect(alive.readyState).to.equal(WebSocket.OPEN);
    alive.close();
  });
});
