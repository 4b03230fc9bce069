/**
 * The SDK ChannelClient's own rules on what a node never sends on one socket (so the tests
 * against the real node cannot show them): a duplicate position is dropped; a gap makes the
 * client unsubscribe and subscribe again from the position it expects, ignoring that
 * channel's messages until the node confirms; a book delta out of sequence makes it ask for a
 * new snapshot. The node's side is played by a scripted connection.
 */
import { expect } from 'chai';
import {
  bookChecksumOf,
  ChannelClient,
  type BookLevels,
  type ChannelConnectionEvents,
  type ChannelDial,
} from '../../src/sdk/index.js';

class Script {
  events: ChannelConnectionEvents | undefined;
  readonly sent: Array<Record<string, unknown>> = [];
  readonly dial: ChannelDial = (_url, events) => {
    this.events = events;
    return {
      send: (text) => this.sent.push(JSON.parse(text) as Record<string, unknown>),
      close: () => events.close(1000, ''),
    };
  };
  push(m: Record<string, unknown>): void {
    this.events!.message(JSON.stringify(m));
  }
}

const MARKET = '11111111-2222-4333-8444-555555555555';
type Rows = Array<[number | bigint, number | bigint, number]>;
const sum = (bids: Rows, asks: Rows) => bookChecksumOf(MARKET, bids, asks);

describe('sdk ChannelClient: duplicates, gaps and lost deltas', () => {
  it('drops a duplicate block, resubscribes from the expected height on a gap, and ignores the old subscription until confirmed', () => {
    const s = new Script();
    const client = new ChannelClient({ url: 'ws://x/ws', dial: s.dial });
    const heights: number[] = [];
    client.blocks({ fromHeight: 5 }, (m) => heights.push(m.height));
    s.push({ type: 'welcome', tick: 1, height: 9, heartbeat_ms: 5000, limits: {} });
    expect(s.sent).to.deep.equal([{ op: 'subscribe', id: 1, channel: 'blocks', from_height: 5 }]);
    s.push({ type: 'subscribed', id: 1, tick: 1, channel: 'blocks', from_height: 5, head: 9 });
    const block = (height: number) => ({
      type: 'block',
      channel: 'blocks',
      height,
      tick: height,
      detail: { block: { height } },
    });
    s.push(block(5));
    s.push(block(5)); // duplicate
    s.push(block(6));
    s.push(block(8)); // gap: 7 is missing
    expect(s.sent.slice(1)).to.deep.equal([
      { op: 'unsubscribe', id: 1 },
      { op: 'subscribe', id: 2, channel: 'blocks', from_height: 7 },
    ]);
    s.push(block(9)); // of the old subscription, before the new one is confirmed
    s.push({ type: 'unsubscribed', id: 1, tick: 1 });
    s.push({ type: 'subscribed', id: 2, tick: 1, channel: 'blocks', from_height: 7, head: 9 });
    s.push(block(7));
    s.push(block(8));
    s.push(block(9));
    expect(heights).to.deep.equal([5, 6, 7, 8, 9]);
    client.close();
  });

  it('asks for a new book snapshot when a delta is out of sequence, and folds levels exactly (u64 above 2^53)', () => {
    const s = new Script();
    const client = new ChannelClient({ url: 'ws://x/ws', dial: s.dial });
    const books: BookLevels[] = [];
    client.book(MARKET, (levels) => books.push(levels));
    s.push({ type: 'welcome', tick: 1, height: 1, heartbeat_ms: 5000, limits: {} });
    s.push({ type: 'subscribed', id: 1, tick: 1, channel: 'book', market_id: MARKET, seq: 3 });
    const big = 18446744073709551615n;
    const first = sum(
      [
        [100, 5, 1],
        [99, big, 2],
      ],
      [[101, 1, 1]],
    );
    s.events!.message(
      `{"type":"snapshot","channel":"book","market_id":"${MARKET}","seq":3,"tick":1,"checksum":"${first}","bids":[[100,5,1],[99,${big},2]],"asks":[[101,1,1]]}`,
    );
    const after = sum(
      [[99, big, 2]],
      [
        [101, 1, 1],
        [102, 3, 1],
      ],
    );
    s.push({
      type: 'delta',
      channel: 'book',
      market_id: MARKET,
      seq: 4,
      tick: 2,
      checksum: after,
      bids: [[100, 0, 0]],
      asks: [[102, 3, 1]],
    });
    expect(books[books.length - 1]).to.deep.equal({
      marketId: MARKET,
      seq: 4,
      tick: 2,
      checksum: after,
      bids: [[99, big, 2]],
      asks: [
        [101, 1, 1],
        [102, 3, 1],
      ],
    });
    s.push({
      type: 'delta',
      channel: 'book',
      market_id: MARKET,
      seq: 6,
      tick: 3,
      checksum: sum([[99, big, 2]], [[102, 3, 1]]),
      bids: [],
      asks: [[101, 0, 0]],
    }); // 5 was lost
    expect(books).to.have.length(2);
    expect(s.sent.slice(-2)).to.deep.equal([
      { op: 'unsubscribe', id: 1 },
      { op: 'subscribe', id: 2, channel: 'book', market_id: MARKET },
    ]);
    client.close();
  });

  it('applies a folded delta (first_seq = previous seq + 1) and asks for a new snapshot when one does not follow', () => {
    const s = new Script();
    const client = new ChannelClient({ url: 'ws://x/ws', dial: s.dial });
    const books: BookLevels[] = [];
    client.book(MARKET, (levels) => books.push(levels));
    s.push({ type: 'welcome', tick: 1, height: 1, heartbeat_ms: 5000, limits: {} });
    s.push({ type: 'subscribed', id: 1, tick: 1, channel: 'book', market_id: MARKET, seq: 3 });
    s.push({
      type: 'snapshot',
      channel: 'book',
      market_id: MARKET,
      seq: 3,
      tick: 1,
      checksum: sum([[100, 5, 1]], []),
      bids: [[100, 5, 1]],
      asks: [],
    });
    const folded = sum([[98, 2, 1]], [[103, 4, 2]]);
    s.push({
      type: 'delta',
      channel: 'book',
      market_id: MARKET,
      seq: 7,
      first_seq: 4,
      tick: 5,
      checksum: folded,
      bids: [
        [100, 0, 0],
        [98, 2, 1],
      ],
      asks: [[103, 4, 2]],
    });
    expect(books[books.length - 1]).to.deep.equal({
      marketId: MARKET,
      seq: 7,
      tick: 5,
      checksum: folded,
      bids: [[98, 2, 1]],
      asks: [[103, 4, 2]],
    });
    s.push({
      type: 'delta',
      channel: 'book',
      market_id: MARKET,
      seq: 8,
      tick: 6,
      checksum: sum([[98, 2, 1]], []),
      bids: [],
      asks: [[103, 0, 0]],
    });
    expect(books[books.length - 1]!.seq).to.equal(8);
    const sent = s.sent.length;
    s.push({
      type: 'delta',
      channel: 'book',
      market_id: MARKET,
      seq: 12,
      first_seq: 10,
      tick: 7,
      checksum: sum([[98, 2, 1]], []),
      bids: [],
      asks: [],
    }); // 9 was lost
    expect(books).to.have.length(3);
    expect(s.sent.slice(sent)).to.deep.equal([
      { op: 'unsubscribe', id: 1 },
      { op: 'subscribe', id: 2, channel: 'book', market_id: MARKET },
    ]);
    client.close();
  });
});
