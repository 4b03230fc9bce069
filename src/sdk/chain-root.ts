/**
 * Recompute the chain's state_root (docs/chain.md "State root") from data a client can
 * hold: every market (its creation, its book listing with slots, its next trade id) and
 * every (owner, order_id) used, in the order first used (the chain's order transactions,
 * oldest first). Browser-safe (@noble/hashes), written apart from the node's incremental
 * code (src/dex/engine/commitment.ts) so each checks the other; docs/chain-vectors.json has vectors.
 *
 *   market leaf   Borsh { market_id String, base_mint [u8;32], quote_mint [u8;32], name String,
 *                         kind u8, created_seq u64, book_root [u8;32], book_size u32, next_trade_id u64 }
 *   markets_root  RFC 6962 MTH of C entries: market i's leaf at i (creation order), empty
 *                 entries after; C = the smallest power of two >= max(64, market count)
 *   used_ids_root RFC 6962 MTH of the 40-byte leaves owner || order_id u64 LE
 *   state_root    SHA-256("SVC_STATE_ROOT_V1:" || markets_root || u32 C || u32 market_count
 *                         || used_ids_root || u64 used_count)
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { BorshWriter } from '../core/browser-safe.js';
import type { SlotOrderView } from '../core/browser-safe.js';
import { bytesToHex, fromBase58Key, fromHex } from '../crypto/browser-safe.js';
import { prefixed, stateRootOf } from './state-root.js';

export interface MarketStateInput {
  market_id: string;
  base_mint: string; // Base58
  quote_mint: string; // Base58
  name: string;
  kind: 'Spot' | 'Perp';
  created_seq: string | bigint; // continuum_sequence of the market's creation
  next_trade_id: string | bigint; // last trade id + 1 (1 before the first trade)
  tree_size: number; // the book's tree_size (GET .../orderbook?orders=true)
  orders: SlotOrderView[]; // every resting order with its slot
}

export interface UsedIdInput {
  owner: string; // Base58
  order_id: string | bigint;
}

export interface ChainRoots {
  state_root: string; // hex
  markets_root: string;
  markets_size: number;
  used_ids_root: string;
}

const enc = new TextEncoder();

/** RFC 6962 Merkle Tree Hash of already-built leaf entries, by its recursive definition. */
export function merkleTreeHash(entries: Uint8Array[]): Uint8Array {
  if (entries.length === 0) return sha256(new Uint8Array(0));
  if (entries.length === 1) return prefixed(0x00, entries[0]!);
  let k = 1;
  while (k * 2 < entries.length) k *= 2;
  return prefixed(0x01, merkleTreeHash(entries.slice(0, k)), merkleTreeHash(entries.slice(k)));
}

export function marketLeafOf(m: MarketStateInput): Uint8Array {
  return new BorshWriter(256)
    .string(m.market_id)
    .fixed(fromBase58Key(m.base_mint, 'base_mint'), 32)
    .fixed(fromBase58Key(m.quote_mint, 'quote_mint'), 32)
    .string(m.name)
    .u8(m.kind === 'Perp' ? 1 : 0)
    .u64(BigInt(m.created_seq))
    .fixed(fromHex(stateRootOf(m.orders, m.tree_size)), 32)
    .u32(m.tree_size)
    .u64(BigInt(m.next_trade_id))
    .toBytes();
}

export function usedIdLeafOf(u: UsedIdInput): Uint8Array {
  return new BorshWriter(40).fixed(fromBase58Key(u.owner, 'owner'), 32).u64(BigInt(u.order_id)).toBytes();
}

export function chainStateRootOf(markets: MarketStateInput[], usedIds: UsedIdInput[]): ChainRoots {
  let size = 64;
  while (size < markets.length) size *= 2;
  const entries: Uint8Array[] = new Array<Uint8Array>(size).fill(new Uint8Array(0));
  markets.forEach((m, i) => (entries[i] = marketLeafOf(m)));
  const marketsRoot = merkleTreeHash(entries);
  const usedRoot = merkleTreeHash(usedIds.map(usedIdLeafOf));
  const tail = new BorshWriter(96)
    .fixed(marketsRoot, 32)
    .u32(size)
    .u32(markets.length)
    .fixed(usedRoot, 32)
    .u64(BigInt(usedIds.length))
    .toBytes();
  const prefix = enc.encode('SVC_STATE_ROOT_V1:');
  const all = new Uint8Array(prefix.length + tail.length);
  all.set(prefix);
  all.set(tail, prefix.length);
  return {
    state_root: bytesToHex(sha256(all)),
    markets_root: bytesToHex(marketsRoot),
    markets_size: size,
    used_ids_root: bytesToHex(usedRoot),
  };
}
