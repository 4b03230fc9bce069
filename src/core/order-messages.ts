/**
 * The byte formats that get signed (docs/signing.md states each byte):
 *
 *   OrderIntent      (Borsh) order_id u64, owner [u8;32], side u8 (0 Buy, 1 Sell), price u64,
 *                    quantity u64, expiry i64 (unix seconds, 0 = no expiry), base_mint [u8;32],
 *                    quote_mint [u8;32]                                     = 129 bytes
 *   CancelOrderData  (Borsh) order_id u64, owner [u8;32], market_id String (lowercase UUID text)
 *   CancelAllData    (Borsh) request_id u64, owner [u8;32], market_id String, side u8
 *                    (0 Buy, 1 Sell, 2 both sides)
 *   ReceiptData      (Borsh) order_id u64, owner [u8;32], timestamp_ms u64, sequencer_id String,
 *                    merkle_root [u8;32], tick_number u64, continuum_sequence u64, tx_hash [u8;32]
 *
 *   signing message = UTF-8( lowercase hex( SHA-256( prefix || borsh ) ) )   (64 bytes)
 *   prefixes: "SVC_DEX_ORDER:", "SVC_DEX_CANCEL:", "SVC_DEX_CANCEL_ALL:", "SVC_DEX_RECEIPT:"
 *
 * The SHA-256 is pluggable so the server can use node:crypto while the SDK stays
 * browser-safe with @noble/hashes (the default).
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { BorshWriter } from './borsh.js';
import { bytesToHex } from '../crypto/browser-safe.js';

export type Side = 'Buy' | 'Sell';
export type Sha256 = (data: Uint8Array) => Uint8Array;

export const ORDER_PREFIX = 'SVC_DEX_ORDER:';
export const CANCEL_PREFIX = 'SVC_DEX_CANCEL:';
export const CANCEL_ALL_PREFIX = 'SVC_DEX_CANCEL_ALL:';
export const RECEIPT_PREFIX = 'SVC_DEX_RECEIPT:';
export const ORDER_INTENT_SIZE = 129;

export interface OrderIntent {
  orderId: bigint;
  owner: Uint8Array; // 32-byte ed25519 public key
  side: Side;
  price: bigint; // u64, > 0
  quantity: bigint; // u64, > 0
  expiry: bigint; // i64 unix seconds; 0 = good until cancelled
  baseMint: Uint8Array; // 32 bytes
  quoteMint: Uint8Array; // 32 bytes
}

export interface CancelOrderData {
  orderId: bigint;
  owner: Uint8Array;
  marketId: string; // lowercase UUID text
}

/** Cancel every open order of `owner` in one market (one side, or both when `side` is undefined). */
export interface CancelAllData {
  requestId: bigint; // u64 chosen by the owner: usable once per owner, ever
  owner: Uint8Array;
  marketId: string; // lowercase UUID text
  side?: Side; // undefined = both sides
}

/** The side byte of CancelAllData: 0 Buy, 1 Sell, 2 both. */
export const CANCEL_ALL_BOTH_SIDES = 2;

/** The fields a receipt signature covers (the JSON receipt adds encodings of the same). */
export interface ReceiptData {
  orderId: bigint;
  owner: Uint8Array;
  timestampMs: bigint;
  sequencerId: string;
  merkleRoot: Uint8Array; // 32 bytes
  tickNumber: bigint;
  continuumSequence: bigint;
  txHash: Uint8Array; // full 32-byte SHA-256 of the sequencer transaction
}

export function sideToByte(side: Side): number {
  return side === 'Buy' ? 0 : 1;
}

export function encodeOrderIntent(o: OrderIntent): Uint8Array {
  return new BorshWriter(ORDER_INTENT_SIZE)
    .u64(o.orderId)
    .fixed(o.owner, 32)
    .u8(sideToByte(o.side))
    .u64(o.price)
    .u64(o.quantity)
    .i64(o.expiry)
    .fixed(o.baseMint, 32)
    .fixed(o.quoteMint, 32)
    .toBytes();
}

export function encodeCancelOrderData(c: CancelOrderData): Uint8Array {
  return new BorshWriter(96).u64(c.orderId).fixed(c.owner, 32).string(c.marketId).toBytes();
}

export function encodeCancelAllData(c: CancelAllData): Uint8Array {
  const side = c.side === undefined ? CANCEL_ALL_BOTH_SIDES : sideToByte(c.side);
  return new BorshWriter(96).u64(c.requestId).fixed(c.owner, 32).string(c.marketId).u8(side).toBytes();
}

export function encodeReceiptData(r: ReceiptData): Uint8Array {
  return new BorshWriter(192)
    .u64(r.orderId)
    .fixed(r.owner, 32)
    .u64(r.timestampMs)
    .string(r.sequencerId)
    .fixed(r.merkleRoot, 32)
    .u64(r.tickNumber)
    .u64(r.continuumSequence)
    .fixed(r.txHash, 32)
    .toBytes();
}

const utf8 = new TextEncoder();

/** UTF-8 bytes of hex(SHA-256(prefix || borsh)). */
export function signingMessage(prefix: string, borsh: Uint8Array, sha256: Sha256 = nobleSha256): Uint8Array {
  const p = utf8.encode(prefix);
  const buf = new Uint8Array(p.length + borsh.length);
  buf.set(p, 0);
  buf.set(borsh, p.length);
  return utf8.encode(bytesToHex(sha256(buf)));
}

export function orderMessage(o: OrderIntent, sha256?: Sha256): Uint8Array {
  return signingMessage(ORDER_PREFIX, encodeOrderIntent(o), sha256);
}

export function cancelMessage(c: CancelOrderData, sha256?: Sha256): Uint8Array {
  return signingMessage(CANCEL_PREFIX, encodeCancelOrderData(c), sha256);
}

export function cancelAllMessage(c: CancelAllData, sha256?: Sha256): Uint8Array {
  return signingMessage(CANCEL_ALL_PREFIX, encodeCancelAllData(c), sha256);
}

export function receiptMessage(r: ReceiptData, sha256?: Sha256): Uint8Array {
  return signingMessage(RECEIPT_PREFIX, encodeReceiptData(r), sha256);
}
