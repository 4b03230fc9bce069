/**
 * The live channels in the real node (startNode: the sequencer, the order book runtime, the
 * chain and its rpc face on 127.0.0.1, LevelDB in a temp dir), with real WebSocket clients
 * on WS /ws and real signed orders over gRPC SubmitTx:
 *  - blocks from a height in the middle of the live feed: every height once, in order,
 *    across the seam, each detail exactly GET /blocks/:height;
 *  - an owner's order events (accepted, partially_filled, filled, cancelled, refused) with
 *    dense sequences, resumed from a sequence after a reconnect, byte for byte;
 *  - a book's snapshot + deltas fold to GET /markets/:id/orderbook's levels;
 *  - bad subscriptions answered with the documented error codes, the socket kept open;
 *  - limits: subscriptions per socket (4001), sockets per address (429); heartbeats;
 *    /ws/blocks still served beside /ws.
 */
import { expect } from 'chai';
import WebSocket from 'ws';
import { ChainClient, signedCancelRequest, signedOrderRequest } from '../../src/chain/api/client/index.js';
import { NodeClient } from '../../src/sequencer/api/client/index.js';
import { toBase58 } from '../../src/crypto/base58.js';
import { marketIdOf } from '../../src/core/market-id.js';
import type { Side } from '../../src/core/order-messages.js';
import { startChainNode, type ChainNode } from '../chain/support/node.js';
import { keyOf, mintOf, orderTx } from '../chain/support/flow.js';
import { TestClient, rawOf, type Msg } from './support/client.js';

const BASE = 31;
const QUOTE = 32;
const MARKET = marketIdOf(mintOf(BASE), mintOf(QUOTE));
/** The owner test's own market (no other test's orders rest there). */
const BASE2 = 33;
const QUOTE2 = 34;
const MARKET2 = marketIdOf(mintOf(BASE2), mintOf(QUOTE2));

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Take every queued message matching `pred` until `done` says the list is complete. */
async function collect(
  c: TestClient,
  pred: (m: Msg) => boolean,
  done: (got: Msg[]) => boolean,
  ms = 20_000,
): Promise<Msg[]> {
  const got: Msg[] = [];
  while (!done(got)) got.push(await c.next(pred, ms));
  return got;
}

describe('channels in the real node (WS /ws on the rpc port)', function () {
  this.timeout(120_000);
  let n: ChainNode;
  let url: string;
  let chain: ChainClient;
  const alice = keyOf(41);
  const bob = keyOf(42);
  let nextId = 0;
  const order = (
    key: typeof alice,
    side: Side,
    price: number,
    quantity: number,
    id = ++nextId,
    [base, quote] = [BASE, QUOTE],
  ) =>
    chain.submit(
      signedOrderRequest(
        {
          orderId: BigInt(id),
          owner: key.publicKey,
          side,
          price: BigInt(price),
          quantity: BigInt(quantity),
          expiry: 0n,
          baseMint: mintOf(base),
          quoteMint: mintOf(quote),
        },
        key.secretKey,
      ),
    );
  const order2 = (key: typeof alice, side: Side, price: number, quantity: number, id = ++nextId) =>
    order(key, side, price, quantity, id, [BASE2, QUOTE2]);

  before(async () => {
    n = await startChainNode();
    url = `ws://${n.rpc.slice('http://'.length)}/ws`;
    chain = new ChainClient(n.grpc);
    await chain.submit({ market: { base_mint: mintOf(BASE), quote_mint: mintOf(QUOTE), name: 'CHAN/NELS' } });
    await chain.submit({ market: { base_mint: mintOf(BASE2), quote_mint: mintOf(QUOTE2), name: 'OWN/ERS' } });
  });
  after(async () => {
    chain?.close();
    await n?.close();
  });

  it('blocks from a height in the middle of the live feed: every height once, in order, across the seam, each exactly GET /blocks/:height', async () => {
    // Blocks are cut from ticks with order book transactions: keep a few coming.
    let o = 0;
    while (((await n.get('/status')).json as { block_height: number }).block_height < 6)
      await order(keyOf(43 + (o % 2)), o++ % 2 ? 'Sell' : 'Buy', 400 + (o % 5), 1);
    const c = await TestClient.open(url);
    const welcome = await c.next((m) => m.type === 'welcome');
    expect(welcome.height).to.be.at.least(6);
    const from = 3;
    c.send({ op: 'subscribe', id: 'b', channel: 'blocks', from_height: from });
    const sub = await c.next((m) => m.type === 'subscribed');
    expect(sub).to.include({ id: 'b', channel: 'blocks', from_height: from });
    const head = sub.head as number;
    // Orders keep blocks coming while the replay runs and after it.
    let flowing = true;
    const flow = (async () => {
      for (let i = 0; flowing; i++) await order(keyOf(43 + (i % 2)), i % 2 ? 'Sell' : 'Buy', 300 + (i % 7), 1);
    })();
    const blocks = await collect(
      c,
      (m) => m.type === 'block',
      (got) => got.length > 0 && (got[got.length - 1]!.height as number) >= head + 15,
    );
    flowing = false;
    await flow;
    expect(blocks.map((b) => b.height)).to.deep.equal(blocks.map((_, i) => from + i));
    for (const b of blocks.slice(0, 4).concat(blocks.slice(-4))) {
      const rest = await n.get(`/blocks/${b.height as number}`);
      expect(rawOf(b)).to.equal(
        `{"type":"block","channel":"blocks","height":${b.height as number},"tick":${(b.detail as { block: { last_tick: number } }).block.last_tick},"detail":${rest.text}}`,
      );
    }
    c.close();
  });

  it("an owner's events (accepted, partially_filled, filled, cancelled, refused) with dense sequences, resumed from a sequence after a reconnect, byte for byte", async () => {
    const owner = toBase58(alice.publicKey);
    const a = await TestClient.open(url);
    a.send({ op: 'subscribe', id: 1, channel: 'orders', owner });
    const sub = await a.next((m) => m.type === 'subscribed');
    const head0 = sub.head as number;
    expect(sub.from_sequence).to.equal(head0 + 1);

    const sellId = ++nextId;
    await order2(alice, 'Sell', 100, 10, sellId);
    await order2(bob, 'Buy', 100, 4);
    const first = await collect(
      a,
      (m) => m.type === 'order',
      (got) => got.length >= 2,
    );
    expect(first.map((m) => m.event)).to.deep.equal(['accepted', 'partially_filled']);
    a.close();
    await a.closed();

    // While alice is away: the rest fills, a resting order is cancelled, a refused order.
    await order2(bob, 'Buy', 100, 6);
    const restId = ++nextId;
    await order2(alice, 'Sell', 150, 5, restId);
    await chain.submit(
      signedCancelRequest({ orderId: BigInt(restId), owner: alice.publicKey, marketId: MARKET2 }, alice.secretKey),
    );
    // An order for a market that does not exist, straight to the sequencer: signature good, the engine refuses it.
    const bad = orderTx(alice, 777, 'Sell', 100, 1, 91, 92);
    const seqClient = new NodeClient(n.grpc);
    await seqClient.submit({
      tx_id: bad.txId,
      payload: Buffer.from(bad.payload),
      signature: Buffer.from(bad.signature),
      public_key: Buffer.from(bad.publicKey),
      nonce: String(bad.nonce),
      timestamp: String(bad.timestamp),
    });

    const lastSeen = first[first.length - 1]!.seq as number;
    const b = await TestClient.open(url);
    b.send({ op: 'subscribe', id: 'again', channel: 'orders', owner, from_sequence: lastSeen + 1 });
    expect(await b.next((m) => m.type === 'subscribed')).to.include({ from_sequence: lastSeen + 1 });
    const rest = await collect(
      b,
      (m) => m.type === 'order',
      (got) => got.some((m) => m.event === 'refused'),
    );
    expect(
      rest.map((m) => m.event),
      JSON.stringify([...first, ...rest].map(rawOf)),
    ).to.deep.equal(['filled', 'accepted', 'cancelled', 'refused']);
    const all = [...first, ...rest];
    expect(all.map((m) => m.seq)).to.deep.equal(all.map((_, i) => head0 + 1 + i));
    for (const m of all) {
      expect(m.owner).to.equal(owner);
      expect(m.tick).to.be.a('number').greaterThan(0);
    }
    expect(all[1]).to.include({ order_id: sellId, remaining: 6, filled_quantity: 4 });
    expect(all[2]).to.include({ order_id: sellId, remaining: 0, filled_quantity: 10 });
    expect(all[4]).to.include({ order_id: restId, reason: 'cancel', cancelled_quantity: 5 });
    expect(all[5]).to.include({ kind: 'order', order_id: 777 });

    // A third client replays everything from the first sequence: the same bytes as live.
    const c = await TestClient.open(url);
    c.send({ op: 'subscribe', id: 'all', channel: 'orders', owner, from_sequence: head0 + 1 });
    const replay = await collect(
      c,
      (m) => m.type === 'order',
      (got) => got.length >= all.length,
    );
    expect(replay.map(rawOf)).to.deep.equal(all.map(rawOf));
    seqClient.close();
    b.close();
    c.close();
  });

  it("a book's snapshot and deltas fold to GET /markets/:id/orderbook's levels", async () => {
    type DexBook = {
      data: {
        bids: Array<{ price: string; quantity: string; orders: number }>;
        asks: Array<{ price: string; quantity: string; orders: number }>;
        tick_number: number;
      };
    };
    const levelsOf = (rows: number[][]) =>
      rows.map(([p, q, o]) => ({ price: String(p), quantity: String(q), orders: o }));
    // Quiet (no order in flight): the snapshot is the book after its `tick`, no older than the order book API's.
    const { data: before } = (await (await fetch(`${n.dex}/markets/${MARKET}/orderbook?depth=1000`)).json()) as DexBook;
    const c = await TestClient.open(url);
    c.send({ op: 'subscribe', id: 'm', channel: 'book', market_id: MARKET });
    const sub = await c.next((m) => m.type === 'subscribed');
    const snap = await c.next((m) => m.type === 'snapshot');
    expect(snap.seq).to.equal(sub.seq);
    expect(snap.tick as number).to.be.at.least(before.tick_number);
    expect(levelsOf(snap.bids as number[][])).to.deep.equal(before.bids);
    expect(levelsOf(snap.asks as number[][])).to.deep.equal(before.asks);
    const sides: Record<'bids' | 'asks', Map<number, [number, number]>> = { bids: new Map(), asks: new Map() };
    for (const side of ['bids', 'asks'] as const)
      for (const [p, q, o] of snap[side] as number[][]) sides[side].set(p!, [q!, o!]);
    let seq = snap.seq as number;
    const orders = [];
    for (let i = 0; i < 40; i++)
      orders.push(order(i % 3 ? alice : bob, i % 2 ? 'Sell' : 'Buy', 95 + ((i * 7) % 11), 1 + (i % 4)));
    await Promise.all(orders);
    // Fold deltas until one from a tick at or after every order's tick has come, then until quiet.
    let quietSince = Date.now();
    while (Date.now() - quietSince < 600) {
      const i = c.inbox.findIndex((m) => m.type === 'delta');
      if (i < 0) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const d = c.inbox.splice(i, 1)[0]!;
      expect(d.seq).to.equal(++seq);
      expect(d.tick as number, 'every delta after a snapshot is of a later tick').to.be.above(snap.tick as number);
      for (const side of ['bids', 'asks'] as const)
        for (const [p, q, o] of d[side] as number[][]) {
          if (o === 0) sides[side].delete(p!);
          else sides[side].set(p!, [q!, o!]);
        }
      quietSince = Date.now();
    }
    expect(seq).to.be.greaterThan(snap.seq as number);
    const { data: book } = (await (await fetch(`${n.dex}/markets/${MARKET}/orderbook?depth=1000`)).json()) as {
      data: {
        bids: Array<{ price: string; quantity: string; orders: number }>;
        asks: Array<{ price: string; quantity: string; orders: number }>;
        tick_number: number;
      };
    };
    const rows = (m: Map<number, [number, number]>, desc: boolean) =>
      [...m]
        .sort((x, y) => (desc ? y[0] - x[0] : x[0] - y[0]))
        .map(([p, [q, o]]) => ({ price: String(p), quantity: String(q), orders: o }));
    expect(rows(sides.bids, true)).to.deep.equal(book.bids);
    expect(rows(sides.asks, false)).to.deep.equal(book.asks);
    c.close();
  });

  it('subscribed always names the first position to come: the head + 1 when no from_* was given', async () => {
    const c = await TestClient.open(url);
    c.send({ op: 'subscribe', id: 'b', channel: 'blocks' });
    const sub = await c.next((m) => m.type === 'subscribed');
    const latest = ((await (await fetch(`${n.rpc}/status`)).json()) as { block_height: number }).block_height;
    expect(sub.head as number).to.be.at.least(latest);
    expect(sub.from_height).to.equal((sub.head as number) + 1);
    c.close();
  });

  it('refuses bad subscriptions with the documented codes and keeps the socket open', async () => {
    const c = await TestClient.open(url);
    const welcome = await c.next((m) => m.type === 'welcome');
    const asks: Array<[unknown, string]> = [
      ['{"op":', 'malformed_json'],
      [{ op: 'subscribe', id: 1, channel: 'trades' }, 'unknown_channel'],
      [{ op: 'subscribe', id: 2, channel: 'blocks', from_height: (welcome.height as number) + 1000 }, 'out_of_range'],
      [{ op: 'subscribe', id: 3, channel: 'blocks', from_height: 2 ** 60 }, 'out_of_range'],
      [{ op: 'subscribe', id: 4, channel: 'orders', owner: 'not-base58!', from_sequence: 1 }, 'bad_param'],
      [
        { op: 'subscribe', id: 5, channel: 'orders', owner: toBase58(alice.publicKey), from_sequence: 10 ** 9 },
        'out_of_range',
      ],
      [
        { op: 'subscribe', id: 6, channel: 'book', market_id: '00000000-0000-4000-8000-000000000000' },
        'unknown_market',
      ],
      [{ op: 'unsubscribe', id: 7 }, 'unknown_id'],
    ];
    for (const [msg, code] of asks) {
      c.send(msg);
      expect((await c.next((m) => m.type === 'error')).code, JSON.stringify(msg)).to.equal(code);
    }
    c.send({ op: 'subscribe', id: 8, channel: 'book', market_id: MARKET });
    expect(await c.next((m) => m.type === 'subscribed')).to.include({ id: 8, market_id: MARKET });
    c.close();
  });

  it('heartbeats every 5 s with the tick and height; /ws/blocks is still served beside /ws', async () => {
    const c = await TestClient.open(url);
    const hb = await c.next((m) => m.type === 'heartbeat', 7_000);
    expect(hb.tick).to.be.a('number').greaterThan(0);
    expect(hb.height).to.be.a('number').greaterThan(0);
    c.close();
    const legacy = new WebSocket(`ws://${n.rpc.slice('http://'.length)}/ws/blocks`);
    const first = await new Promise<string>((resolve, reject) => {
      legacy.once('message', (d: Buffer) => resolve(d.toString()));
      legacy.once('error', reject);
    });
    expect((JSON.parse(first) as { block: { height: number } }).block.height).to.be.greaterThan(0);
    legacy.close();
  });

  it('a subscribe past 64 on one socket closes it with 4001; a 65th socket from one address is answered 429', async () => {
    const c = await TestClient.open(url);
    for (let i = 0; i < 64; i++)
      c.send({ op: 'subscribe', id: i, channel: 'orders', owner: toBase58(keyOf(100 + i).publicKey) });
    await waitUntil(() => c.inbox.filter((m) => m.type === 'subscribed').length === 64, '64 subscriptions');
    c.send({ op: 'subscribe', id: 64, channel: 'orders', owner: toBase58(keyOf(200).publicKey) });
    expect(await c.closed()).to.equal(4001);
    // The earlier tests' sockets and this one are gone from the node's count (a closed socket is destroyed within 2 s).
    await new Promise((r) => setTimeout(r, 2_500));

    const open: TestClient[] = [];
    for (let i = 0; i < 64; i++) open.push(await TestClient.open(url));
    const refused = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => reject(new Error('a 65th socket was accepted')));
      ws.once('error', () => undefined);
    });
    expect(refused).to.equal(429);
    for (const o of open) o.close();
    await Promise.all(open.map((o) => o.closed()));
    // Closed sockets free their address's slots.
    const again = await TestClient.open(url);
    expect((await again.next((m) => m.type === 'welcome')).type).to.equal('welcome');
    again.close();
  });
});
