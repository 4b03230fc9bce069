/**
 * Recompute a market's state root from the full book listing
 * (GET /markets/:id/orderbook?orders=true), so a client can check the `merkle_root` of the
 * book and of its receipts (docs/dex-api.md "State root"): the RFC 6962 Merkle Tree Hash of
 * `tree_size` entries, a resting order's 81-byte Borsh record in its slot, empty bytes
 * elsewhere. Browser-safe (@noble/hashes).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { BorshWriter } from '../core/browser-safe.js';
import type { SlotOrderView } from '../core/browser-safe.js';
import { bytesToHex, fromBase58Key } from '../crypto/browser-safe.js';

export function leafRecord(o: SlotOrderView): Uint8Array {
  return new BorshWriter(81)
    .u64(BigInt(o.continuum_sequence))
    .u64(BigInt(o.order_id))
    .fixed(fromBase58Key(o.owner, 'owner'), 32)
    .u8(o.side === 'Buy' ? 0 : 1)
    .u64(BigInt(o.price))
    .u64(BigInt(o.quantity))
    .u64(BigInt(o.remaining))
    .i64(BigInt(o.expiry))
    .toBytes();
}

/** SHA-256(tag || parts...): the RFC 6962 leaf (0x00) and node (0x01) hashes. */
export function prefixed(tag: number, ...parts: Uint8Array[]): Uint8Array {
  let n = 1;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  out[0] = tag;
  let o = 1;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return sha256(out);
}

/** The state root (hex) of a book listing with `treeSize` slots (a power of two). */
export function stateRootOf(orders: SlotOrderView[], treeSize: number): string {
  if (!Number.isInteger(treeSize) || treeSize < 1 || (treeSize & (treeSize - 1)) !== 0)
    throw new RangeError('tree_size must be a power of two');
  const empty = prefixed(0x00);
  let level: Uint8Array[] = new Array<Uint8Array>(treeSize).fill(empty);
  for (const o of orders) {
    if (o.slot < 0 || o.slot >= treeSize) throw new RangeError(`slot ${o.slot} outside the tree`);
    level[o.slot] = prefixed(0x00, leafRecord(o));
  }
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(prefixed(0x01, level[i]!, level[i + 1]!));
    level = next;
  }
  return bytesToHex(level[0]!);
}
