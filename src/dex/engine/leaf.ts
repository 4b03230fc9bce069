/**
 * The leaf record of a resting order in a market's state root (slot-tree.ts):
 *
 *   Borsh { continuum_sequence u64, order_id u64, owner [u8;32], side u8, price u64,
 *           quantity u64, remaining u64, expiry i64 }                       = 81 bytes
 *
 * One scratch buffer is reused; the Merkle code copies it before hashing.
 */
import type { BookOrder } from './interface.js';

export const LEAF_SIZE = 81;
const scratch = new Uint8Array(LEAF_SIZE);
const view = new DataView(scratch.buffer);

export function encodeLeaf(o: BookOrder): Uint8Array {
  view.setBigUint64(0, o.seq, true);
  view.setBigUint64(8, o.orderId, true);
  scratch.set(o.owner, 16);
  scratch[48] = o.side;
  view.setBigUint64(49, o.price, true);
  view.setBigUint64(57, o.quantity, true);
  view.setBigUint64(65, o.remaining, true);
  view.setBigInt64(73, o.expiry, true);
  return scratch;
}
