/**
 * The book checksum against docs/book-checksum-vectors.json (written from the definition
 * alone by scripts/book-checksum-vectors.mjs): level -> bytes -> hash, whole books, and a
 * snapshot + delta sequence, through each code that computes it: the SDK's functions, the
 * node's mirror (MarketLevels, fed the differences a tick would give) and the SDK's
 * ChannelClient folding the messages as a node sends them. Also the empty book's value,
 * the node's snapshot of an empty market, and the levels a checksum refuses to hash.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { BookSource, MarketLevels, type LevelChange } from '../../src/channels/index.js';
import {
  BookChecksum,
  bookChecksumOf,
  ChannelClient,
  EMPTY_BOOK_CHECKSUM,
  levelHash,
  levelInput,
  marketIdBytes,
  toHex,
  type BookLevels,
  type ChannelConnectionEvents,
  type ChannelError,
} from '../../src/sdk/index.js';
import { cancelTx, marketTx, orderTx, seeded } from '../dex/support/orders.js';
import { TickMaker } from './support/ticks.js';

type Row = [string, string, number];
interface Message {
  type: 'snapshot' | 'delta';
  seq: number;
  first_seq?: number;
  tick: number;
  bids: Row[];
  asks: Row[];
  checksum: string;
}
interface LevelOut {
  input: string;
  hash: string;
}
interface Vectors {
  empty: string;
  levels: Array<{ market_id: string; side: 'bid' | 'ask'; price: string; quantity: string; orders: string } & LevelOut>;
  books: Array<{ what: string; market_id: string; bids: Row[]; asks: Row[]; checksum: string }>;
  sequence: { market_id: string; messages: Message[] };
}

const root = new URL('../../../', import.meta.url);
const vectors = JSON.parse(readFileSync(new URL('docs/book-checksum-vectors.json', root), 'utf8')) as Vectors;
const MARKET = vectors.sequence.market_id;

/** A message as the node writes it: u64 values as exact JSON integers. */
function wire(m: Message): string {
  const rows = (rs: Row[]) => `[${rs.map(([p, q, n]) => `[${p},${q},${n}]`).join(',')}]`;
  const first = m.first_seq === undefined ? '' : `,"first_seq":${m.first_seq}`;
  const head = `{"type":"${m.type}","channel":"book","market_id":"${MARKET}","seq":${m.seq},"tick":${m.tick}${first}`;
  return `${head},"checksum":"${m.checksum}","bids":${rows(m.bids)},"asks":${rows(m.asks)}}`;
}

describe('book checksum: the vectors', () => {
  it('level -> bytes -> hash', () => {
    expect(vectors.levels.length).to.be.at.least(6);
    for (const v of vectors.levels) {
      const side = v.side === 'bid' ? 0 : 1;
      const args = [marketIdBytes(v.market_id), side, BigInt(v.price), BigInt(v.quantity), BigInt(v.orders)] as const;
      expect(toHex(levelInput(...args)), `${v.side} ${v.price}`).to.equal(v.input);
      expect(String(levelHash(...args)), `${v.side} ${v.price}`).to.equal(v.hash);
    }
  });

  it('whole books, and the empty book is 0000000000000000', () => {
    expect(vectors.empty).to.equal(EMPTY_BOOK_CHECKSUM);
    expect(bookChecksumOf(MARKET, [], [])).to.equal(EMPTY_BOOK_CHECKSUM);
    expect(new BookChecksum(MARKET).hex()).to.equal(EMPTY_BOOK_CHECKSUM);
    for (const b of vectors.books) expect(bookChecksumOf(b.market_id, b.bids, b.asks), b.what).to.equal(b.checksum);
  });

  it("the node's mirror, fed each message's level differences, carries each message's checksum", () => {
    const mirror = new MarketLevels(MARKET);
    expect(mirror.checksum()).to.equal(EMPTY_BOOK_CHECKSUM);
    const held = [new Map<string, Row>(), new Map<string, Row>()];
    for (const m of vectors.sequence.messages) {
      const changes: LevelChange[] = [];
      for (const [side, rows] of [
        [0, m.bids],
        [1, m.asks],
      ] as const) {
        if (m.type === 'snapshot') {
          for (const [p, q, n] of held[side]!.values()) {
            changes.push({ side, price: BigInt(p), quantity: -BigInt(q), orders: -n });
          }
          held[side]!.clear();
        }
        for (const row of rows) {
          const old = held[side]!.get(row[0]);
          const quantity = BigInt(row[1]) - BigInt(old?.[1] ?? 0);
          changes.push({ side, price: BigInt(row[0]), quantity, orders: row[2] - (old?.[2] ?? 0) });
          if (row[2] === 0) held[side]!.delete(row[0]);
          else held[side]!.set(row[0], row);
        }
      }
      mirror.apply(changes);
      expect(mirror.checksum(), `after seq ${m.seq}`).to.equal(m.checksum);
    }
    const emptied = vectors.sequence.messages.some((m) => m.checksum === EMPTY_BOOK_CHECKSUM);
    expect(emptied, 'the sequence empties the book once').to.equal(true);
  });

  it("the SDK's ChannelClient folds the sequence to each checksum, and reports none as a mismatch", () => {
    let events: ChannelConnectionEvents | undefined;
    const errors: ChannelError[] = [];
    const dial = (_u: string, e: ChannelConnectionEvents) => {
      events = e;
      return { send: () => undefined, close: () => undefined };
    };
    const client = new ChannelClient({ url: 'ws://x/ws', dial, onError: (e) => errors.push(e) });
    const books: BookLevels[] = [];
    client.book(MARKET, (levels) => books.push(levels));
    events!.message('{"type":"welcome","tick":1,"height":1,"heartbeat_ms":5000,"limits":{}}');
    events!.message(`{"type":"subscribed","id":1,"tick":1,"channel":"book","market_id":"${MARKET}","seq":4}`);
    for (const m of vectors.sequence.messages) events!.message(wire(m));
    client.close();
    expect(errors).to.deep.equal([]);
    const want = vectors.sequence.messages.map((m) => [m.seq, m.checksum]);
    expect(books.map((b) => [b.seq, b.checksum])).to.deep.equal(want);
    const last = books[books.length - 1]!;
    expect(bookChecksumOf(MARKET, last.bids, last.asks)).to.equal(last.checksum);
  });
});

describe('book checksum: the documents', () => {
  it('docs/chain.md defines it, with the empty value and the vectors; the AsyncAPI requires it', () => {
    const chainMd = readFileSync(new URL('docs/chain.md', root), 'utf8');
    const from = chainMd.indexOf('**Book checksum.**');
    const section = chainMd.slice(from, chainMd.indexOf('### Sequences across restarts'));
    expect(section).to.include(`\`${EMPTY_BOOK_CHECKSUM}\``);
    expect(section).to.include('(book-checksum-vectors.json)');
    expect(section).to.include('price u64 LE || quantity u128 LE || orders u64 LE');
    const asyncapi = readFileSync(new URL('docs/channels.asyncapi.yaml', root), 'utf8');
    const required = /required: \[type, channel, market_id, seq, tick, checksum, bids, asks\]/g;
    expect(asyncapi.match(required), 'on snapshot and delta').to.have.length(2);
  });
});

describe('book checksum: edges', () => {
  it("a market with no level: the node's snapshot says 0000000000000000, and so does a book emptied again", () => {
    const m = new TickMaker();
    const source = new BookSource();
    source.derive(m.apply([marketTx()]));
    const marketId = m.engine.state.marketList()[0]!.info.marketId;
    const snapshot = (): Record<string, unknown> => {
      const f = source.snapshot(marketId)!.frame;
      return JSON.parse(f.toString('utf8', f[1]! === 126 ? 4 : 2)) as Record<string, unknown>;
    };
    expect(snapshot()).to.include({ type: 'snapshot', seq: 0, checksum: EMPTY_BOOK_CHECKSUM, market_id: marketId });
    expect(snapshot().bids).to.deep.equal([]);
    const owner = seeded(4).publicKey;
    source.derive(m.apply([orderTx(owner, 1, 'Buy', 100, 5)]));
    expect(snapshot().checksum).to.equal(bookChecksumOf(marketId, [[100, 5, 1]], []));
    const [gone] = source.derive(m.apply([cancelTx(owner, 1, marketId)]));
    expect(gone!.item.book!.checksum).to.equal(EMPTY_BOOK_CHECKSUM);
    expect(snapshot()).to.include({ seq: 2, checksum: EMPTY_BOOK_CHECKSUM });
    const mirror = new MarketLevels(MARKET);
    mirror.set(0, 100n, 5n, 1);
    mirror.set(0, 100n, 7n, 2); // replacing a level takes its old term out
    expect(mirror.checksum()).to.equal(bookChecksumOf(MARKET, [[100n, 7n, 2]], []));
    mirror.apply([{ side: 0, price: 100n, quantity: -7n, orders: -2 }]);
    expect(mirror.checksum()).to.equal(EMPTY_BOOK_CHECKSUM);
  });

  it('refuses to hash what is not a level: zero or out-of-type values, a market id not a lowercase UUID', () => {
    const market = marketIdBytes(MARKET);
    const bad: Array<[bigint, bigint, bigint]> = [
      [0n, 1n, 1n],
      [1n << 64n, 1n, 1n],
      [1n, 0n, 1n],
      [1n, 1n << 128n, 1n],
      [1n, 1n, 0n],
      [1n, 1n, 1n << 53n],
    ];
    for (const [p, q, n] of bad) expect(() => levelHash(market, 0, p, q, n), `${p} ${q} ${n}`).to.throw(RangeError);
    expect(() => marketIdBytes(MARKET.toUpperCase())).to.throw(TypeError);
    expect(() => marketIdBytes('not-a-uuid')).to.throw(TypeError);
  });

  it('tells apart a level on the other side, with another order count, of another market', () => {
    const base = bookChecksumOf(MARKET, [['100', '5', 1]], []);
    expect(bookChecksumOf(MARKET, [], [['100', '5', 1]])).to.not.equal(base);
    expect(bookChecksumOf(MARKET, [['100', '5', 2]], [])).to.not.equal(base);
    expect(bookChecksumOf('00000000-0000-4000-8000-000000000001', [['100', '5', 1]], [])).to.not.equal(base);
    // Sum, not XOR: a level counted twice does not cancel out.
    expect(
      bookChecksumOf(
        MARKET,
        [
          ['100', '5', 1],
          ['100', '5', 1],
        ],
        [],
      ),
    ).to.not.equal(EMPTY_BOOK_CHECKSUM);
  });
});
