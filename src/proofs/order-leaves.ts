/**
 * The committed records an order state proof carries (docs/proofs.md "Order state proof"),
 * as a verifier reads them: the 81-byte book leaf, the Borsh market leaf and the 40-byte
 * used-id leaf (docs/dex-api.md, docs/chain.md "State root"), and the state_root they
 * combine into. Strict: a decoder meets a malformed record with a StepFailure of its step.
 * Browser-safe; written apart from the engine's encoders, so each checks the other.
 */
import { BorshReader } from '../core/browser-safe.js';
import { toBase58Key } from '../crypto/browser-safe.js';
import { sha256 as sha256Parts } from '../vdf/browser-safe.js';
import { StepFailure } from './fields.js';
import type { OrderLeaf, OrderStateStep } from './interface.js';

const sha256 = (data: Uint8Array): Uint8Array => sha256Parts(data);

export const BOOK_LEAF_BYTES = 81;
export const USED_ID_LEAF_BYTES = 40;
const STATE_ROOT_PREFIX = new TextEncoder().encode('SVC_STATE_ROOT_V1:');
/** Tree sizes here are powers of two up to 2^31, the largest that a u32 (their width in the leaves and the state root) holds. */
export const MAX_TREE_SIZE = 2 ** 31;
/** book_entries (a whole book) is for small books; a bigger one is refused at `shape`. */
export const MAX_BOOK_ENTRIES = 4096;

/** owner [u8;32] || order_id u64 LE. */
export function usedIdLeaf(owner: Uint8Array, orderId: bigint): Uint8Array {
  const out = new Uint8Array(USED_ID_LEAF_BYTES);
  out.set(owner, 0);
  new DataView(out.buffer).setBigUint64(32, orderId, true);
  return out;
}

export function decodeBookLeaf(step: OrderStateStep, b: Uint8Array): OrderLeaf & { ownerBytes: Uint8Array } {
  if (b.length !== BOOK_LEAF_BYTES)
    throw new StepFailure(step, `a book leaf is ${BOOK_LEAF_BYTES} bytes, not ${b.length}`);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const side = b[48]!;
  if (side > 1) throw new StepFailure(step, `book leaf side ${side} is neither 0 (Buy) nor 1 (Sell)`);
  const ownerBytes = b.slice(16, 48);
  return {
    continuum_sequence: v.getBigUint64(0, true).toString(),
    order_id: v.getBigUint64(8, true).toString(),
    owner: toBase58Key(ownerBytes),
    ownerBytes,
    side: side === 0 ? 'Buy' : 'Sell',
    price: v.getBigUint64(49, true).toString(),
    quantity: v.getBigUint64(57, true).toString(),
    remaining: v.getBigUint64(65, true).toString(),
    expiry: v.getBigInt64(73, true).toString(),
  };
}

export interface MarketLeaf {
  marketId: string;
  baseMint: Uint8Array;
  quoteMint: Uint8Array;
  bookRoot: Uint8Array;
  bookSize: number;
}

export function decodeMarketLeaf(b: Uint8Array): MarketLeaf {
  const step: OrderStateStep = 'market_leaf';
  try {
    const r = new BorshReader(b);
    const marketId = r.string(64);
    const baseMint = r.fixed(32);
    const quoteMint = r.fixed(32);
    r.string(256); // name
    const kind = r.u8();
    r.u64(); // created_seq
    const bookRoot = r.fixed(32);
    const bookSize = r.u32();
    r.u64(); // next_trade_id
    if (r.remaining !== 0) throw new StepFailure(step, `market leaf has ${r.remaining} bytes after its fields`);
    if (kind > 1) throw new StepFailure(step, `market kind ${kind} is neither 0 (Spot) nor 1 (Perp)`);
    if (!isTreeSize(bookSize)) throw new StepFailure(step, `book_size ${bookSize} is not a power of two >= 64`);
    return { marketId, baseMint, quoteMint, bookRoot, bookSize };
  } catch (e) {
    if (e instanceof StepFailure) throw e;
    throw new StepFailure(step, `market leaf: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export function isTreeSize(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 64 && n <= MAX_TREE_SIZE && (n & (n - 1)) === 0;
}

export function combineStateRootBytes(
  marketsRoot: Uint8Array,
  marketsSize: number,
  marketCount: number,
  usedRoot: Uint8Array,
  usedCount: number,
): Uint8Array {
  const buf = new Uint8Array(STATE_ROOT_PREFIX.length + 32 + 4 + 4 + 32 + 8);
  const v = new DataView(buf.buffer);
  let o = STATE_ROOT_PREFIX.length;
  buf.set(STATE_ROOT_PREFIX, 0);
  buf.set(marketsRoot, o);
  o += 32;
  v.setUint32(o, marketsSize, true);
  v.setUint32(o + 4, marketCount, true);
  o += 8;
  buf.set(usedRoot, o);
  v.setBigUint64(o + 32, BigInt(usedCount), true);
  return sha256(buf);
}
