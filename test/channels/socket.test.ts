/**
 * The channels socket with real `ws` clients on a real http.Server (the harness: real
 * engine, real LevelDB): welcome and heartbeats; bad input answered with its code while the
 * socket stays usable; the documented close codes (4001 for 1,000 subscriptions on one
 * socket, 1003, 1009, 1008); per-address sockets; the blocks seam under a live feed (every
 * height exactly once, in order); the book snapshot + deltas reproducing the engine's book;
 * the orders channel live and resumed from a sequence.
 */
import { expect } from 'chai';
import WebSocket from 'ws';
import { CLOSE, DEFAULT_LIMITS, levelsOfBook } from '../../src/channels/index.js';
import { sha256 } from '../../src/crypto/sha256.js';
import { toBase58Key } from '../../src/crypto/base58.js';
import { marketIdOf } from '../../src/core/market-id.js';
import { BASE, QUOTE, cancelTx, marketTx, mint, orderTx, seeded } from '../dex/support/orders.js';
import { ChannelsHarness } from './support/harness.js';
import { TestClient, type Msg } from './support/client.js';

const alice = seeded(1).publicKey;
const bob = seeded(2).publicKey;
const MARKET = marketIdOf(BASE, QUOTE, sha256);

describe('channels: the WebSocket with real clients', function () {
  this.timeout(60_000);
  let h: ChannelsHarness;
  before(async () => {
    h = await ChannelsHarness.start({ heartbeatMs: 200, socketsPerAddress: 40 });
    await h.apply([marketTx()]);
    h.book.seed([], 1);
  });
  after(async () => {
    await h?.close();
  });

  it('welcomes with the head and the limits, then sends heartbeats naming the tick', async () => {
    const c = await TestClient.open(h.url);
    const w = await c.next((m) => m.type === 'welcome');
    expect(w).to.include({ tick: h.publishedTick, height: h.blocks.latestHeight(), heartbeat_ms: 200 });
    expect(w.limits).to.deep.equal({
      subscriptions: 64,
      message_bytes: 4096,
      messages_per_second: 50,
      queue_bytes: 4 * 1024 * 1024,
    });
    const hb = await c.next((m) => m.type === 'heartbeat');
    expect(hb).to.deep.equal({ type: 'heartbeat', tick: h.publishedTick, height: h.blocks.latestHeight() });
    c.close();
  });

  it('answers bad input with its code and goes on serving the socket', async () => {
    const c = await TestClient.open(h.url);
    const cases: Array<[unknown, string]> = [
      ['{nope', 'malformed_json'],
      [{ op: 'subscribe', id: 'a', channel: 'trades' }, 'unknown_channel'],
      [{ op: 'launch', id: 'a' }, 'unknown_op'],
      [{ op: 'subscribe', id: 'a', channel: 'blocks', from_height: -1 }, 'out_of_range'],
      [{ op: 'subscribe', id: 'a', channel: 'blocks', from_height: 1e20 }, 'out_of_range'],
      [{ op: 'subscribe', id: 'a', channel: 'blocks', from_height: 1.25 }, 'bad_param'],
      [{ op: 'subscribe', id: 'a', channel: 'blocks', from_height: 1000 }, 'out_of_range'], // beyond the head + 1
      [{ op: 'subscribe', id: 'a', channel: 'orders', owner: 'not-base58!' }, 'bad_param'],
      [{ op: 'subscribe', id: 'a', channel: 'orders', owner: toBase58Key(alice), from_sequence: 5 }, 'out_of_range'],
      [
        { op: 'subscribe', id: 'a', channel: 'book', market_id: '00000000-0000-4000-8000-000000000000' },
        'unknown_market',
      ],
      [{ op: 'unsubscribe', id: 'zz' }, 'unknown_id'],
    ];
    for (const [msg, code] of cases) {
      c.send(msg);
      const e = await c.next((m) => m.type === 'error');
      expect(e.code, JSON.stringify(msg)).to.equal(code);
      expect(e.tick).to.equal(h.publishedTick);
    }
    // An unknown owner is a valid, empty channel.
    c.send({ op: 'subscribe', id: 'stranger', channel: 'orders', owner: toBase58Key(new Uint8Array(32).fill(9)) });
    expect(await c.next((m) => m.type === 'subscribed')).to.include({
      id: 'stranger',
      channel: 'orders',
      from_sequence: 1,
      head: 0,
    });
    c.send({ op: 'subscribe', id: 'stranger', channel: 'blocks' });
    expect((await c.next((m) => m.type === 'error')).code).to.equal('duplicate_id');
    c.send({ op: 'subscribe', id: 'again', channel: 'orders', owner: toBase58Key(new Uint8Array(32).fill(9)) });
    expect((await c.next((m) => m.type === 'error')).code).to.equal('already_subscribed');
    c.send({ op: 'unsubscribe', id: 'stranger' });
    expect(await c.next((m) => m.type === 'unsubscribed')).to.include({ id: 'stranger' });
    c.close();
  });

  it('1,000 subscribe messages on one socket: the 65th closes it with 4001; the node goes on', async () => {
    const c = await TestClient.open(h.url);
    for (let i = 0; i < 1000; i++)
      c.send({
        op: 'subscribe',
        id: i,
        channel: 'orders',
        owner: toBase58Key(new Uint8Array(32).fill(i % 250).map((b, k) => (k === 0 ? i >> 8 : b))),
      });
    expect(await c.closed()).to.equal(CLOSE.tooManySubscriptions);
    expect(c.inbox.filter((m) => m.type === 'subscribed')).to.have.length(DEFAULT_LIMITS.subscriptions);
    const other = await TestClient.open(h.url);
    await other.next((m) => m.type === 'welcome');
    other.close();
  });

  it('closes a binary message with 1003, a frame above 4 KiB with 1009, a flood with 1008, bytes that are not UTF-8 with 1007', async () => {
    const a = await TestClient.open(h.url);
    a.ws.send(Buffer.from([1, 2, 3]));
    expect(await a.closed()).to.equal(CLOSE.unsupportedData);
    const b = await TestClient.open(h.url);
    b.send(`{"op":"subscribe","id":"${'x'.repeat(5000)}"}`);
    expect(await b.closed()).to.equal(CLOSE.tooBig);
    const c = await TestClient.open(h.url);
    for (let i = 0; i < 500; i++) c.send({ op: 'unsubscribe', id: i });
    expect(await c.closed()).to.equal(CLOSE.policy);
    const d = await TestClient.open(h.url);
    d.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect(await d.closed()).to.equal(CLOSE.invalidPayload);
  });

  it('refuses sockets past the per-address limit with 429', async () => {
    const open: TestClient[] = [];
    for (let i = 0; i < 40; i++) open.push(await TestClient.open(h.url));
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(h.url);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
    expect(status).to.equal(429);
    for (const c of open) c.close();
    await Promise.all(open.map((c) => c.closed()));
  });

  it('blocks from_height in the middle of a live feed: every height exactly once, in order', async () => {
    for (let i = 0; i < 300; i++) h.blocks.produce(h.publishedTick);
    const c = await TestClient.open(h.url);
    let live = true;
    const feeder = (async () => {
      while (live) {
        h.blocks.produce(h.publishedTick);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    c.send({ op: 'subscribe', id: 1, channel: 'blocks', from_height: 150 });
    const ack = await c.next((m) => m.type === 'subscribed');
    expect(ack).to.include({ channel: 'blocks', from_height: 150 });
    const target = (ack.head as number) + 100;
    const heights: number[] = [];
    while (heights.length === 0 || heights[heights.length - 1]! < target) {
      const m = await c.next((x) => x.type === 'block');
      heights.push(m.height as number);
      expect(m.tick).to.equal((m.detail as { block: { last_tick: number } }).block.last_tick);
    }
    live = false;
    await feeder;
    expect(heights).to.deep.equal(Array.from({ length: target - 150 + 1 }, (_, i) => 150 + i));
    c.close();
  });

  it('book: a snapshot, then one delta per changing tick; folding them gives the engine book', async () => {
    const c = await TestClient.open(h.url);
    await h.apply([orderTx(alice, 1, 'Sell', 105, 4), orderTx(alice, 2, 'Buy', 95, 3)]);
    c.send({ op: 'subscribe', id: 'b', channel: 'book', market_id: MARKET });
    const ack = await c.next((m) => m.type === 'subscribed');
    const snap = await c.next((m) => m.type === 'snapshot');
    expect(snap.seq).to.equal(ack.seq);
    const bids = new Map<number, [number, number]>((snap.bids as number[][]).map(([p, q, n]) => [p!, [q!, n!]]));
    const asks = new Map<number, [number, number]>((snap.asks as number[][]).map(([p, q, n]) => [p!, [q!, n!]]));
    let seq = snap.seq as number;
    const ticks: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = await h.apply([
        orderTx(bob, 10 + i, i % 2 ? 'Buy' : 'Sell', 96 + (i % 9), 1 + (i % 4)),
        ...(i % 5 === 4 ? [cancelTx(bob, 10 + i - 2, MARKET)] : []),
      ]);
      ticks.push(t.tick.tickNumber);
    }
    await h.apply([orderTx(bob, 1000, 'Buy', 1, 1, 0n, QUOTE, BASE)]); // no market for that pair: no delta
    for (;;) {
      const d = await c.next((m) => m.type === 'delta');
      expect(d.seq).to.equal(seq + 1);
      seq = d.seq as number;
      expect(ticks).to.include(d.tick);
      for (const [side, rows] of [
        [bids, d.bids],
        [asks, d.asks],
      ] as const) {
        for (const [p, q, n] of rows as number[][]) {
          if (n === 0) side.delete(p!);
          else side.set(p!, [q!, n!]);
        }
      }
      if (d.tick === ticks[ticks.length - 1]) break;
    }
    const engine = levelsOfBook(h.ticks.engine.state.markets.get(MARKET)!.book);
    const asRows = (m: Map<number, [number, number]>, desc: boolean) =>
      [...m].sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0])).map(([p, [q, n]]) => [BigInt(p), BigInt(q), n]);
    expect(asRows(bids, true)).to.deep.equal(engine.bids);
    expect(asRows(asks, false)).to.deep.equal(engine.asks);
    c.close();
  });

  it('orders: live events with dense sequences, and a resume from a sequence', async () => {
    const owner = toBase58Key(alice);
    const c = await TestClient.open(h.url);
    c.send({ op: 'subscribe', id: 'o', channel: 'orders', owner });
    const ack = await c.next((m) => m.type === 'subscribed');
    const head = ack.head as number;
    // A market of its own, so the fills are exactly these.
    await h.apply([marketTx(mint(5), mint(6), 'FIVE/SIX')]);
    const other = marketIdOf(mint(5), mint(6), sha256);
    await h.apply([orderTx(alice, 50, 'Sell', 200, 2, 0n, mint(5), mint(6))]);
    await h.apply([orderTx(bob, 51, 'Buy', 200, 1, 0n, mint(5), mint(6)), cancelTx(alice, 50, other)]);
    const got: Msg[] = [];
    for (let i = 0; i < 3; i++) got.push(await c.next((m) => m.type === 'order'));
    expect(got.map((m) => [m.seq, m.event, m.order_id])).to.deep.equal([
      [head + 1, 'accepted', 50],
      [head + 2, 'partially_filled', 50],
      [head + 3, 'cancelled', 50],
    ]);
    expect(
      got.every((m) => m.owner === owner && typeof m.tick === 'number' && typeof m.continuum_sequence === 'number'),
    ).to.equal(true);
    const r = await TestClient.open(h.url);
    r.send({ op: 'subscribe', id: 'o', channel: 'orders', owner, from_sequence: head + 2 });
    await r.next((m) => m.type === 'subscribed');
    const resumed = [await r.next((m) => m.type === 'order'), await r.next((m) => m.type === 'order')];
    expect(resumed).to.deep.equal(got.slice(1));
    await h.apply([orderTx(alice, 52, 'Sell', 300, 1)]);
    expect((await r.next((m) => m.type === 'order')).seq).to.equal(head + 4);
    c.close();
    r.close();
  });
});
