/**
 * The SDK ChannelClient's book checksum check with the node's side played by a scripted
 * connection (the real node never sends a book that does not add up; the test against it,
 * test/sdk/channel-client-node-checksum.test.ts, corrupts a delta in transit): a delta or snapshot whose
 * folded levels do not give its checksum, one without a checksum and one with a level that
 * cannot be folded are each reported (`checksum_mismatch`), not handed to the handler, and
 * answered with a new subscription; mismatches in a row back off.
 */
import { expect } from 'chai';
import { bookChecksumOf, ChannelClient } from '../../src/sdk/index.js';
import type { BookLevels, ChannelConnectionEvents, ChannelDial, ChannelError } from '../../src/sdk/index.js';

const MARKET = '11111111-2222-4333-8444-555555555555';
type Rows = Array<[number, number, number]>;
const sum = (bids: Rows, asks: Rows) => bookChecksumOf(MARKET, bids, asks);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Script {
  events: ChannelConnectionEvents | undefined;
  readonly sent: Array<Record<string, unknown>> = [];
  readonly dial: ChannelDial = (_url, events) => {
    this.events = events;
    const send = (text: string) => void this.sent.push(JSON.parse(text) as Record<string, unknown>);
    return { send, close: () => events.close(1000, '') };
  };
  push(m: Record<string, unknown>): void {
    this.events!.message(JSON.stringify(m));
  }
  book(type: 'snapshot' | 'delta', seq: number, bids: Rows, asks: Rows, checksum: string | undefined): void {
    this.push({ type, channel: 'book', market_id: MARKET, seq, tick: seq, checksum, bids, asks });
  }
}

/** A client with a confirmed book subscription (wire id 1) and a snapshot of one bid at 100. */
function started(): { s: Script; client: ChannelClient; books: BookLevels[]; errors: ChannelError[] } {
  const s = new Script();
  const errors: ChannelError[] = [];
  const client = new ChannelClient({ url: 'ws://x/ws', dial: s.dial, onError: (e) => errors.push(e) });
  const books: BookLevels[] = [];
  client.book(MARKET, (levels) => books.push(levels));
  s.push({ type: 'welcome', tick: 1, height: 1, heartbeat_ms: 5000, limits: {} });
  s.push({ type: 'subscribed', id: 1, tick: 1, channel: 'book', market_id: MARKET, seq: 3 });
  s.book('snapshot', 3, [[100, 5, 1]], [], sum([[100, 5, 1]], []));
  return { s, client, books, errors };
}

const resubscribed = (id: number) => [
  { op: 'unsubscribe', id: id - 1 },
  { op: 'subscribe', id, channel: 'book', market_id: MARKET },
];

describe('sdk ChannelClient: the book checksum', () => {
  it('a corrupted delta: reported, not handed on, and a new snapshot is asked for and folded', () => {
    const { s, client, books, errors } = started();
    // The node's delta says the bid at 100 is now 4 in 1 order; it arrives saying 40.
    s.book('delta', 4, [[100, 40, 1]], [], sum([[100, 4, 1]], []));
    expect(books).to.have.length(1);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ code: 'checksum_mismatch', marketId: MARKET, seq: 4 });
    expect(errors[0]!.message).to.match(/checksum is [0-9a-f]{16}, the message says [0-9a-f]{16}/);
    expect(client.checksumMismatches).to.equal(1);
    expect(s.sent.slice(-2)).to.deep.equal(resubscribed(2));
    s.book(
      'delta',
      5,
      [[101, 1, 1]],
      [],
      sum(
        [
          [100, 4, 1],
          [101, 1, 1],
        ],
        [],
      ),
    ); // of the old subscription: ignored
    s.push({ type: 'subscribed', id: 2, tick: 5, channel: 'book', market_id: MARKET, seq: 5 });
    s.book(
      'snapshot',
      5,
      [
        [101, 1, 1],
        [100, 4, 1],
      ],
      [],
      sum(
        [
          [101, 1, 1],
          [100, 4, 1],
        ],
        [],
      ),
    );
    s.book(
      'delta',
      6,
      [],
      [[103, 2, 1]],
      sum(
        [
          [101, 1, 1],
          [100, 4, 1],
        ],
        [[103, 2, 1]],
      ),
    );
    expect(books.map((b) => b.seq)).to.deep.equal([3, 5, 6]);
    expect(books[2]).to.deep.include({
      bids: [
        [101, 1, 1],
        [100, 4, 1],
      ],
      asks: [[103, 2, 1]],
    });
    expect(errors).to.have.length(1);
    client.close();
  });

  it('a delta without a checksum, or with a level that cannot be folded, is a mismatch too', () => {
    for (const [bids, checksum] of [
      [[[100, 4, 1]], undefined],
      [[[100, 4, 0]], sum([[100, 4, 1]], [])], // quantity without orders
      [[[0, 4, 1]], '0123456789abcdef'], // price 0
    ] as Array<[Rows, string | undefined]>) {
      const { s, client, books, errors } = started();
      s.book('delta', 4, bids, [], checksum);
      expect(books, JSON.stringify(bids)).to.have.length(1);
      expect(errors.map((e) => e.code)).to.deep.equal(['checksum_mismatch']);
      expect(s.sent.slice(-2)).to.deep.equal(resubscribed(2));
      client.close();
    }
  });

  it('mismatches in a row: the next subscription waits (250 ms doubling), a good snapshot resets it', async () => {
    const { s, client, books, errors } = started();
    s.book('delta', 4, [[100, 40, 1]], [], sum([[100, 4, 1]], []));
    expect(s.sent.slice(-2)).to.deep.equal(resubscribed(2));
    s.push({ type: 'subscribed', id: 2, tick: 5, channel: 'book', market_id: MARKET, seq: 4 });
    s.book('snapshot', 4, [[100, 40, 1]], [], sum([[100, 4, 1]], [])); // a snapshot that does not add up either
    const sent = s.sent.length;
    expect(errors).to.have.length(2);
    await sleep(100);
    expect(s.sent.length, 'not at once').to.equal(sent);
    await sleep(400);
    expect(s.sent.slice(sent)).to.deep.equal(resubscribed(3));
    s.push({ type: 'subscribed', id: 3, tick: 5, channel: 'book', market_id: MARKET, seq: 4 });
    s.book('snapshot', 4, [[100, 4, 1]], [], sum([[100, 4, 1]], []));
    expect(books.map((b) => b.seq)).to.deep.equal([3, 4]);
    s.book('delta', 5, [[100, 40, 1]], [], sum([[100, 4, 1]], [])); // the first of a new run: at once again
    expect(s.sent.slice(-2)).to.deep.equal(resubscribed(4));
    client.close();
  });
});
