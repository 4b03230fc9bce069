/**
 * The book channel's checksum (docs/chain.md "Book checksum"; vectors in
 * docs/book-checksum-vectors.json): a 64-bit value of a market's whole book of levels that
 * every snapshot and delta carries for the book right after it, so a client that folds the
 * deltas computes the same value or knows its book is out of step.
 *
 *   level input  "book" || 0x01 || market_id 16 bytes (the UUID's hex digits in order)
 *                || side u8 (0 bid, 1 ask) || price u64 LE || quantity u128 LE || orders u64 LE
 *                (54 bytes: one SHA-256 block)
 *   level hash   the first 8 bytes of SHA-256(level input), read as a u64 little-endian
 *   checksum     the sum of the level hashes of every level of both sides, modulo 2^64,
 *                written as 16 lowercase hex digits (most significant first); the empty
 *                book's is 0000000000000000
 *
 * A sum rather than a hash of the sorted book, so that the node and a client update it in
 * O(changed levels) per delta: take a changed level's old hash out and put its new one in.
 * Over exact integers (no decimal text), every level (the channel sends every level, not a
 * top N), and the order count as well as the quantity. It detects a book that differs from
 * the node's (a lost, repeated, misapplied or corrupted delta) except with probability about
 * 2^-64 per check; it is not an authentication (anyone can compute it for any book): the
 * state root is. Browser-safe (@noble/hashes); the node's mirror uses this same code.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { UUID_RE } from './market-id.js';

/** The checksum of a book with no level. */
export const EMPTY_BOOK_CHECKSUM = '0000000000000000';

/** A book level's side: 0 bids, 1 asks. */
export type BookSideCode = 0 | 1;

const MASK64 = (1n << 64n) - 1n;
const MAX_ORDERS = BigInt(Number.MAX_SAFE_INTEGER);
const TAG = [0x62, 0x6f, 0x6f, 0x6b, 0x01]; // "book" || version 1
export const LEVEL_INPUT_BYTES = 54;

/** A market id (lowercase UUID) as the 16 bytes a level input carries. */
export function marketIdBytes(marketId: string): Uint8Array {
  if (!UUID_RE.test(marketId)) throw new TypeError(`not a lowercase UUID market id: ${marketId}`);
  const hex = marketId.replaceAll('-', '');
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The 54 bytes hashed for one level; throws a RangeError on a value outside its type or a level that is not there. */
export function levelInput(
  market: Uint8Array,
  side: BookSideCode,
  price: bigint,
  quantity: bigint,
  orders: bigint,
): Uint8Array {
  if (price <= 0n || price > MASK64) throw new RangeError(`price ${price} is not a u64 above 0`);
  if (quantity <= 0n || quantity >> 128n !== 0n) throw new RangeError(`quantity ${quantity} is not a u128 above 0`);
  if (orders <= 0n || orders > MAX_ORDERS) throw new RangeError(`order count ${orders} is not 1..2^53-1`);
  const b = new Uint8Array(LEVEL_INPUT_BYTES);
  b.set(TAG, 0);
  b.set(market, 5);
  b[21] = side;
  const v = new DataView(b.buffer);
  v.setBigUint64(22, price, true);
  v.setBigUint64(30, quantity & MASK64, true);
  v.setBigUint64(38, quantity >> 64n, true);
  v.setBigUint64(46, orders, true);
  return b;
}

/** One level's hash (a u64). */
export function levelHash(
  market: Uint8Array,
  side: BookSideCode,
  price: bigint,
  quantity: bigint,
  orders: bigint,
): bigint {
  const d = sha256(levelInput(market, side, price, quantity, orders));
  return new DataView(d.buffer, d.byteOffset, 8).getBigUint64(0, true);
}

/** A u64 checksum as its 16 hex digits. */
export function checksumHex(value: bigint): string {
  return value.toString(16).padStart(16, '0');
}

/** The running checksum of one market's book: add a level's hash when it appears, remove it when it goes. */
export class BookChecksum {
  readonly market: Uint8Array;
  private sum = 0n;

  constructor(marketId: string) {
    this.market = marketIdBytes(marketId);
  }

  /** The hash of a level of this market. */
  hash(side: BookSideCode, price: bigint, quantity: bigint, orders: bigint): bigint {
    return levelHash(this.market, side, price, quantity, orders);
  }

  add(hash: bigint): void {
    this.sum = (this.sum + hash) & MASK64;
  }

  remove(hash: bigint): void {
    this.sum = (this.sum - hash) & MASK64;
  }

  clear(): void {
    this.sum = 0n;
  }

  get value(): bigint {
    return this.sum;
  }

  hex(): string {
    return checksumHex(this.sum);
  }
}

/** A level as the channel sends it: [price, quantity, orders] (numbers, bigints or decimal text). */
type Int = bigint | number | string;
export type ChecksumRow = readonly [price: Int, quantity: Int, orders: Int];

/** The checksum of a whole book (every level of both sides), computed from scratch. */
export function bookChecksumOf(marketId: string, bids: readonly ChecksumRow[], asks: readonly ChecksumRow[]): string {
  const c = new BookChecksum(marketId);
  for (const [side, rows] of [
    [0, bids],
    [1, asks],
  ] as const) {
    for (const [p, q, n] of rows) c.add(c.hash(side, BigInt(p), BigInt(q), BigInt(n)));
  }
  return c.hex();
}
