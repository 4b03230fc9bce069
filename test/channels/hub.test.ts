/**
 * The hub alone, with in-memory outlets (no network): 1,000 subscribers of one market get
 * the very same frame buffer for a delta (one encode, one frame), a subscriber whose queue
 * would pass the bound is closed with 4000 while the others still get the message, and an
 * unsubscribed or closed subscription gets nothing more.
 */
import { expect } from 'chai';
import {
  BookSource,
  ChannelHub,
  CLOSE,
  DEFAULT_LIMITS,
  type OwnerLog,
  type ChannelItem,
  type Outlet,
  type ResumableSource,
} from '../../src/channels/index.js';
import { sha256 } from '../../src/crypto/sha256.js';
import { marketIdOf } from '../../src/core/market-id.js';
import { BASE, QUOTE, marketTx, orderTx, seeded } from '../dex/support/orders.js';
import { TickMaker } from './support/ticks.js';

class MemoryOutlet implements Outlet {
  frames: Buffer[] = [];
  queued = 0;
  closedWith: number | undefined;
  open = true;
  send(frame: Buffer): void {
    this.frames.push(frame);
  }
  queuedBytes(): number {
    return this.queued;
  }
  close(code: number): void {
    this.closedWith = code;
    this.open = false;
  }
  terminate(): void {
    this.open = false;
  }
}

const nothing: ResumableSource = {
  head: () => 0,
  replay: async function* (): AsyncIterable<ChannelItem> {},
  onItem: () => () => undefined,
};
const MARKET = marketIdOf(BASE, QUOTE, sha256);

describe('channels: the hub', () => {
  let m: TickMaker;
  let book: BookSource;
  let hub: ChannelHub;
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
      { ...DEFAULT_LIMITS, queueBytes: 1000 },
    );
  });
  afterEach(() => hub.close());

  it('1,000 subscribers of one market get the same frame buffer for a delta', () => {
    const outlets = Array.from({ length: 1000 }, () => new MemoryOutlet());
    for (const o of outlets)
      hub.message(
        hub.connect(o, '127.0.0.1'),
        JSON.stringify({ op: 'subscribe', id: 1, channel: 'book', market_id: MARKET }),
      );
    expect(hub.subscribers('book', MARKET)).to.equal(1000);
    for (const o of outlets) expect(o.frames).to.have.length(3); // welcome, subscribed, snapshot
    expect(new Set(outlets.map((o) => o.frames[2])).size, 'one snapshot frame for all').to.equal(1);
    book.publish(book.derive(m.apply([orderTx(seeded(1).publicKey, 1, 'Buy', 10, 1)])));
    const deltas = new Set(outlets.map((o) => o.frames[3]));
    expect(deltas.size, 'one delta frame for all').to.equal(1);
    expect([...deltas][0]!.toString('utf8', 4)).to.match(
      /^\{"type":"delta","channel":"book","market_id":"[^"]+","seq":1,"tick":2,"checksum":"[0-9a-f]{16}","bids":\[\[10,1,1\]\],"asks":\[\]\}$/,
    );
  });

  it('closes a subscriber whose queue would pass the bound with 4000; the others still receive; nothing after unsubscribe', () => {
    const slow = new MemoryOutlet();
    const fast = new MemoryOutlet();
    const gone = new MemoryOutlet();
    const cg = hub.connect(gone, 'a');
    for (const [o, c] of [
      [slow, hub.connect(slow, 'a')],
      [fast, hub.connect(fast, 'a')],
      [gone, cg],
    ] as const) {
      hub.message(c, JSON.stringify({ op: 'subscribe', id: 'x', channel: 'book', market_id: MARKET }));
      expect(o.frames).to.have.length(3);
    }
    hub.message(cg, JSON.stringify({ op: 'unsubscribe', id: 'x' }));
    expect(gone.frames).to.have.length(4);
    slow.queued = 990;
    book.publish(book.derive(m.apply([orderTx(seeded(1).publicKey, 1, 'Buy', 10, 1)])));
    expect(slow.closedWith).to.equal(CLOSE.tooSlow);
    expect(hub.slowClosed).to.equal(1);
    expect(fast.frames).to.have.length(4);
    expect(gone.frames).to.have.length(4);
    expect(hub.subscribers('book', MARKET)).to.equal(1);
  });

  it('a replay whose client does not read for replayStallMs is closed with 4000', async () => {
    const stored: ResumableSource = {
      head: () => 100,
      replay: async function* (_k: string, from: number, to: number): AsyncIterable<ChannelItem> {
        for (let p = from; p <= to; p++) yield { pos: p, frame: Buffer.from(`{"pos":${p}}`) };
      },
      onItem: () => () => undefined,
    };
    const stalling = new ChannelHub(
      { blocks: stored, orders: nothing as unknown as OwnerLog, book, head: { tick: () => 1, height: () => 100 } },
      { ...DEFAULT_LIMITS, replayLowWaterBytes: 100, replayStallMs: 200 },
    );
    const o = new MemoryOutlet();
    const c = stalling.connect(o, 'a');
    stalling.message(c, JSON.stringify({ op: 'subscribe', id: 1, channel: 'blocks', from_height: 1 }));
    // The client does not read: its queue stays above the replay's low water.
    o.queued = 1_000;
    const t0 = performance.now();
    while (o.closedWith === undefined && performance.now() - t0 < 5_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(o.closedWith).to.equal(CLOSE.tooSlow);
    expect(performance.now() - t0).to.be.below(2_000);
    expect(o.frames).to.have.length(2); // welcome, subscribed: no replayed block was queued
    stalling.close();
  });
});
