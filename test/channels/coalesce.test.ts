/**
 * Book deltas for a subscriber that is behind, on the hub with in-memory outlets: while its
 * queue holds coalesceBytes or more its deltas are held and folded; once it has room they go
 * out as one delta with `first_seq` .. `seq` whose levels, folded onto the book the client
 * had, give exactly the source's book, and whose checksum is the source's book's after `seq`;
 * a subscriber with room gets every delta alone, the
 * same frame as before; an unsubscribed one gets nothing held.
 */
import { expect } from 'chai';
import {
  BookSource,
  ChannelHub,
  DEFAULT_LIMITS,
  type OwnerLog,
  type ChannelItem,
  type Outlet,
  type ResumableSource,
} from '../../src/channels/index.js';
import { marketIdOf } from '../../src/core/market-id.js';
import { sha256 } from '../../src/crypto/sha256.js';
import { bookChecksumOf, EMPTY_BOOK_CHECKSUM } from '../../src/sdk/index.js';
import { BASE, QUOTE, marketTx, orderTx, seeded } from '../dex/support/orders.js';
import { TickMaker } from './support/ticks.js';

class MemoryOutlet implements Outlet {
  frames: Buffer[] = [];
  queued = 0;
  open = true;
  send(frame: Buffer): void {
    this.frames.push(frame);
  }
  queuedBytes(): number {
    return this.queued;
  }
  close(): void {
    this.open = false;
  }
  terminate(): void {
    this.open = false;
  }
  messages(): Array<Record<string, unknown>> {
    return this.frames.map(
      (f) => JSON.parse(f.toString('utf8', f[1]! === 126 ? 4 : f[1]! === 127 ? 10 : 2)) as Record<string, unknown>,
    );
  }
}

const nothing: ResumableSource = {
  head: () => 0,
  replay: async function* (): AsyncIterable<ChannelItem> {},
  onItem: () => () => undefined,
};
const MARKET = marketIdOf(BASE, QUOTE, sha256);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Row = [number, number, number];

/** Fold snapshot and deltas the way a client does: by price, a level with 0 orders is gone. */
function fold(messages: Array<Record<string, unknown>>): { bids: Row[]; asks: Row[] } {
  const bids = new Map<number, Row>();
  const asks = new Map<number, Row>();
  for (const m of messages) {
    if (m.type !== 'snapshot' && m.type !== 'delta') continue;
    for (const [side, rows] of [
      [bids, m.bids],
      [asks, m.asks],
    ] as const)
      for (const r of rows as Row[]) r[2] === 0 ? side.delete(r[0]) : side.set(r[0], r);
  }
  return { bids: [...bids.values()].sort((a, b) => b[0] - a[0]), asks: [...asks.values()].sort((a, b) => a[0] - b[0]) };
}

describe('channels: book deltas for a subscriber that is behind', () => {
  let m: TickMaker;
  let book: BookSource;
  let hub: ChannelHub;
  let orderId = 0;
  const owner = seeded(3).publicKey;
  const tick = (...levels: Array<['Buy' | 'Sell', number]>): void => {
    const txs = levels.map(([side, price]) => orderTx(owner, ++orderId, side, price, 1 + (orderId % 3)));
    book.publish(book.derive(m.apply(txs)));
  };
  beforeEach(() => {
    m = new TickMaker();
    book = new BookSource();
    book.derive(m.apply([marketTx()]));
    hub = new ChannelHub(
      {
        blocks: nothing,
        orders: nothing as unknown as OwnerLog,
        book,
        head: { tick: () => m.tickNumber, height: () => 0 },
      },
      { ...DEFAULT_LIMITS, coalesceBytes: 1000, coalescePollMs: 5 },
    );
  });
  afterEach(() => hub.close());

  it('holds and folds deltas while the queue is at coalesceBytes, sends one first_seq..seq delta once there is room', async () => {
    const slow = new MemoryOutlet();
    const fast = new MemoryOutlet();
    for (const o of [slow, fast])
      hub.message(
        hub.connect(o, '127.0.0.1'),
        JSON.stringify({ op: 'subscribe', id: 'b', channel: 'book', market_id: MARKET }),
      );
    expect(slow.messages()[2]).to.include({ type: 'snapshot', checksum: EMPTY_BOOK_CHECKSUM }); // the empty book's
    tick(['Buy', 10]);
    expect(slow.frames).to.have.length(4); // welcome, subscribed, snapshot, delta 1
    slow.queued = 1000; // behind from here
    tick(['Buy', 10], ['Buy', 11]);
    tick(['Sell', 20]);
    tick(['Buy', 11], ['Sell', 21]);
    tick(['Sell', 10]); // trades against the bid at 11 (best) ... and the level changes again
    expect(slow.frames, 'nothing sent while behind').to.have.length(4);
    expect(fast.frames).to.have.length(8);
    expect(hub.foldedDeltas).to.equal(3);
    slow.queued = 999;
    await sleep(30); // the poll finds room
    expect(slow.frames).to.have.length(5);
    const [folded] = slow.messages().slice(4);
    expect(folded).to.include({ type: 'delta', first_seq: 2, seq: 5, tick: m.tickNumber, market_id: MARKET });
    expect(fold(slow.messages())).to.deep.equal(fold(fast.messages()));
    const rows = book.rows(MARKET)!;
    expect(fold(slow.messages())).to.deep.equal({
      bids: rows.bids.map((r) => r.map(Number)),
      asks: rows.asks.map((r) => r.map(Number)),
    });
    const folded1 = fold(slow.messages());
    expect(folded!.checksum, 'the folded delta carries the checksum after its seq').to.equal(book.checksum(MARKET));
    expect(folded!.checksum).to.equal(bookChecksumOf(MARKET, folded1.bids, folded1.asks));
    expect(folded!.checksum).to.equal(fast.messages()[7]!.checksum);
    // Back with room: the next delta is the shared frame itself, no first_seq.
    slow.queued = 0;
    tick(['Buy', 9]);
    expect(slow.frames[5]).to.equal(fast.frames[8]);
    expect(slow.messages()[5]).to.not.have.property('first_seq');
  });

  it('a single held delta goes out as it was; the next delta flushes what is held before it', () => {
    const slow = new MemoryOutlet();
    const fast = new MemoryOutlet();
    for (const o of [slow, fast])
      hub.message(
        hub.connect(o, '127.0.0.1'),
        JSON.stringify({ op: 'subscribe', id: 'b', channel: 'book', market_id: MARKET }),
      );
    slow.queued = 5000;
    tick(['Buy', 10]);
    slow.queued = 0;
    tick(['Buy', 12]); // folds 1 and 2 (room now): one delta 1..2
    const msgs = slow.messages().slice(3);
    expect(msgs).to.have.length(1);
    expect(msgs[0]).to.include({ first_seq: 1, seq: 2 });
    slow.queued = 5000;
    tick(['Buy', 13]);
    slow.queued = 0;
    tick(['Sell', 30]);
    const more = slow.messages().slice(4);
    expect(more.map((x) => [x.first_seq, x.seq])).to.deep.equal([[3, 4]]);
    expect(fold(slow.messages())).to.deep.equal(fold(fast.messages()));
  });

  it('an unsubscribed subscription sends nothing it held', async () => {
    const slow = new MemoryOutlet();
    const c = hub.connect(slow, '127.0.0.1');
    hub.message(c, JSON.stringify({ op: 'subscribe', id: 'b', channel: 'book', market_id: MARKET }));
    slow.queued = 5000;
    tick(['Buy', 10]);
    tick(['Buy', 11]);
    slow.queued = 0;
    hub.message(c, JSON.stringify({ op: 'unsubscribe', id: 'b' }));
    await sleep(30);
    expect(slow.messages().map((x) => x.type)).to.deep.equal(['welcome', 'subscribed', 'snapshot', 'unsubscribed']);
  });
});
