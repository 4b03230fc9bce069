/**
 * The state root over the whole order book (docs/chain.md "State root"), kept
 * incrementally so a root per tick costs about (changed entries x log2 size) hashes,
 * never O(state):
 *
 *   market leaf   Borsh { market_id String, base_mint [u8;32], quote_mint [u8;32],
 *                         name String, kind u8 (0 Spot, 1 Perp), created_seq u64,
 *                         book_root [u8;32], book_size u32, next_trade_id u64 }
 *   markets root  RFC 6962 MTH of a SlotTree (slot = the market's creation index, capacity
 *                 64 doubled when full, empty slots = empty entries), like a book's tree
 *   used-id leaf  owner [u8;32] || order_id u64 LE                          (40 bytes)
 *   used-id root  RFC 6962 MTH of the used-id leaves in the order the ids were first used
 *                 (append-only; kept as the "frontier" of perfect subtrees)
 *   state_root    SHA-256( "SVC_STATE_ROOT_V1:" || markets_root || u32 markets_size ||
 *                          u32 market_count || used_ids_root || u64 used_ids_count )
 *
 * Pure: node:crypto SHA-256, no clock, no I/O. src/sdk/chain-root.ts recomputes the same
 * bytes from JSON views in a browser; docs/chain-vectors.json holds vectors.
 */
import { EMPTY_ROOT, leafHash, nodeHash } from '../../crypto/index.js';
import { sha256 } from '../../crypto/index.js';
import { BorshWriter } from '../../core/index.js';
import type { MarketInfo } from './interface.js';

export const STATE_ROOT_PREFIX = 'SVC_STATE_ROOT_V1:';
const PREFIX_BYTES = new TextEncoder().encode(STATE_ROOT_PREFIX);
export const USED_ID_LEAF_SIZE = 40;

/** The market leaf record of the markets tree. */
export function encodeMarketLeaf(
  info: MarketInfo,
  bookRoot: Uint8Array,
  bookSize: number,
  nextTradeId: bigint,
): Uint8Array {
  return new BorshWriter(256)
    .string(info.marketId)
    .fixed(info.baseMint, 32)
    .fixed(info.quoteMint, 32)
    .string(info.name)
    .u8(info.kind === 'Perp' ? 1 : 0)
    .u64(info.createdSeq)
    .fixed(bookRoot, 32)
    .u32(bookSize)
    .u64(nextTradeId)
    .toBytes();
}

export function encodeUsedIdLeaf(owner: Uint8Array, orderId: bigint): Uint8Array {
  const out = new Uint8Array(USED_ID_LEAF_SIZE);
  out.set(owner, 0);
  new DataView(out.buffer).setBigUint64(32, orderId, true);
  return out;
}

/**
 * An append-only RFC 6962 Merkle tree that keeps only its frontier: frontier[h] is the
 * root of a perfect subtree of 2^h leaves when bit h of `count` is set. Appending costs
 * one hash amortized; the root folds the frontier right to left (O(log n)), which is
 * exactly MTH: the largest perfect subtree is the left child at every split.
 */
export class AppendOnlyMerkle {
  private frontier: Array<Uint8Array | undefined> = [];
  private countValue = 0;

  get count(): number {
    return this.countValue;
  }

  append(leafData: Uint8Array): void {
    let node = leafHash(leafData);
    let h = 0;
    let n = this.countValue;
    while (n % 2 === 1) {
      node = nodeHash(this.frontier[h]!, node);
      this.frontier[h] = undefined;
      h++;
      n = Math.floor(n / 2);
    }
    this.frontier[h] = node;
    this.countValue++;
  }

  root(): Uint8Array {
    let acc: Uint8Array | undefined;
    for (let h = 0; h < this.frontier.length; h++) {
      const f = this.frontier[h];
      if (f === undefined) continue;
      acc = acc === undefined ? f : nodeHash(f, acc);
    }
    return acc ?? EMPTY_ROOT;
  }

  /** The frontier, for snapshots: one 32-byte hash per set bit of count, lowest first. */
  exportFrontier(): Uint8Array[] {
    return this.frontier.filter((f): f is Uint8Array => f !== undefined);
  }

  static restore(count: number, frontier: Uint8Array[]): AppendOnlyMerkle {
    const t = new AppendOnlyMerkle();
    t.countValue = count;
    let k = 0;
    for (let h = 0, n = count; n > 0; h++, n = Math.floor(n / 2)) {
      if (n % 2 === 1) {
        const f = frontier[k++];
        if (f === undefined || f.length !== 32) throw new Error('snapshot: used-id frontier does not match its count');
        t.frontier[h] = f;
      }
    }
    if (k !== frontier.length) throw new Error('snapshot: used-id frontier has extra hashes');
    return t;
  }
}

/** Combine the two component roots into the state root. */
export function combineStateRoot(
  marketsRoot: Uint8Array,
  marketsSize: number,
  marketCount: number,
  usedRoot: Uint8Array,
  usedCount: number,
): Uint8Array {
  const buf = new Uint8Array(PREFIX_BYTES.length + 32 + 4 + 4 + 32 + 8);
  const view = new DataView(buf.buffer);
  let o = 0;
  buf.set(PREFIX_BYTES, o);
  o += PREFIX_BYTES.length;
  buf.set(marketsRoot, o);
  o += 32;
  view.setUint32(o, marketsSize, true);
  o += 4;
  view.setUint32(o, marketCount, true);
  o += 4;
  buf.set(usedRoot, o);
  o += 32;
  view.setBigUint64(o, BigInt(usedCount), true);
  return sha256(buf);
}
