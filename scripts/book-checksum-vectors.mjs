// Writes docs/book-checksum-vectors.json (docs/chain.md "Book checksum"): level inputs,
// level hashes and book checksums, and snapshot + delta sequences with the checksum after
// each, computed here from the definition alone (node:crypto, plain bigints), apart from the
// code (src/core/book-checksum.ts) that test/channels/checksum.test.ts checks against it.
// Run: node scripts/book-checksum-vectors.mjs
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';

const MARKET = '5f0c2a9e-8b1d-4c3e-9a7f-0123456789ab';
const OTHER = '00000000-0000-4000-8000-000000000001';
const M64 = (1n << 64n) - 1n;

function le(value, bytes) {
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) out[i] = Number((value >> BigInt(8 * i)) & 0xffn);
  return out;
}

function input(market, side, price, quantity, orders) {
  const id = Buffer.from(market.replaceAll('-', ''), 'hex');
  const head = [Buffer.from('book'), Buffer.from([1]), id, Buffer.from([side])];
  return Buffer.concat([...head, le(price, 8), le(quantity, 16), le(orders, 8)]);
}

function hash(market, side, price, quantity, orders) {
  const d = createHash('sha256')
    .update(input(market, side, price, quantity, orders))
    .digest();
  return d.readBigUInt64LE(0);
}

const hex = (v) => v.toString(16).padStart(16, '0');

function checksum(market, bids, asks) {
  let sum = 0n;
  for (const [side, rows] of [
    [0, bids],
    [1, asks],
  ]) {
    for (const [p, q, n] of rows) sum = (sum + hash(market, side, BigInt(p), BigInt(q), BigInt(n))) & M64;
  }
  return hex(sum);
}

const levelCases = [
  [MARKET, 0, 100n, 5n, 1n],
  [MARKET, 1, 100n, 5n, 1n],
  [MARKET, 0, 100n, 5n, 2n],
  [OTHER, 0, 100n, 5n, 1n],
  [MARKET, 1, 1n, 1n, 1n],
  [MARKET, 1, M64, M64, 1n],
  [MARKET, 0, 18_446_744_073_709_551_557n, (1n << 64n) + 7n, 3n], // a level of several u64 orders: quantity above 2^64
  [MARKET, 0, 9_007_199_254_740_993n, 340_282_366_920_938_463_463_374_607_431_768_211_455n, 9_007_199_254_740_991n],
];
const levels = levelCases.map(([market, side, price, quantity, orders]) => ({
  market_id: market,
  side: side === 0 ? 'bid' : 'ask',
  price: String(price),
  quantity: String(quantity),
  orders: String(orders),
  input: input(market, side, price, quantity, orders).toString('hex'),
  hash: String(hash(market, side, price, quantity, orders)),
}));

const books = [
  { what: 'the empty book', market_id: MARKET, bids: [], asks: [] },
  { what: 'one bid', market_id: MARKET, bids: [['100', '5', 1]], asks: [] },
  { what: 'the same level as an ask', market_id: MARKET, bids: [], asks: [['100', '5', 1]] },
  {
    what: 'two levels a side',
    market_id: MARKET,
    bids: [
      ['99', '7', 2],
      ['98', '1', 1],
    ],
    asks: [
      ['101', '3', 1],
      ['103', '18446744073709551615', 4],
    ],
  },
].map((b) => ({ ...b, checksum: checksum(b.market_id, b.bids, b.asks) }));

// A client folding these messages in order holds the book whose checksum each one carries.
const messages = [
  {
    type: 'snapshot',
    seq: 4,
    tick: 10,
    bids: [
      ['99', '7', 2],
      ['98', '1', 1],
    ],
    asks: [['101', '3', 1]],
  },
  { type: 'delta', seq: 5, tick: 11, bids: [['99', '4', 1]], asks: [] }, // a level changed
  { type: 'delta', seq: 6, tick: 12, bids: [['100', '2', 1]], asks: [['101', '0', 0]] }, // a new best bid, an ask gone
  // folded 7..9
  {
    type: 'delta',
    seq: 9,
    first_seq: 7,
    tick: 15,
    bids: [['98', '0', 0]],
    asks: [
      ['102', '18446744073709551615', 1],
      ['104', '6', 2],
    ],
  },
  // the book emptied
  {
    type: 'delta',
    seq: 10,
    tick: 16,
    bids: [
      ['100', '0', 0],
      ['99', '0', 0],
    ],
    asks: [
      ['102', '0', 0],
      ['104', '0', 0],
    ],
  },
  { type: 'delta', seq: 11, tick: 17, bids: [], asks: [['105', '1', 1]] },
];
const held = [new Map(), new Map()];
const sequence = messages.map((m) => {
  if (m.type === 'snapshot') for (const side of held) side.clear();
  for (const [side, rows] of [
    [0, m.bids],
    [1, m.asks],
  ]) {
    for (const row of rows) {
      if (row[1] === '0' && row[2] === 0) held[side].delete(row[0]);
      else held[side].set(row[0], row);
    }
  }
  return { ...m, checksum: checksum(MARKET, [...held[0].values()], [...held[1].values()]) };
});

const vectors = {
  description: [
    'Book checksum vectors (docs/chain.md "Book checksum").',
    'level input = "book" || 0x01 || market_id 16 bytes || side u8 (bid 0, ask 1)',
    '|| price u64 LE || quantity u128 LE || orders u64 LE;',
    'level hash = first 8 bytes of SHA-256(input) as u64 LE (decimal here);',
    'checksum = sum of the level hashes of every level mod 2^64, as 16 lowercase hex digits.',
    'Values are decimal strings in levels and books; sequence messages are the channel messages of one market',
    `(market_id ${MARKET}) with rows [price, quantity, orders] (price and quantity as decimal strings here,`,
    'exact JSON integers on the wire), each with the checksum of the book a client holds after folding it.',
  ].join(' '),
  empty: hex(0n),
  levels,
  books,
  sequence: { market_id: MARKET, messages: sequence },
};
writeFileSync(new URL('../docs/book-checksum-vectors.json', import.meta.url), `${JSON.stringify(vectors, null, 1)}\n`);
console.log('book-checksum-vectors: docs/book-checksum-vectors.json');
