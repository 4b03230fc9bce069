/**
 * The JSON shapes of the order book API that clients build and read (docs/dex-api.md):
 * place-order and cancel bodies, receipts, and the response envelope. u64 values travel as
 * decimal strings (JSON numbers lose precision above 2^53); keys and mints as Base58;
 * signatures and hashes as lowercase hex.
 */
import { U64_MAX } from '../core/browser-safe.js';
import { bytesToHex, fromBase58Key, fromHex, toBase58 } from '../crypto/browser-safe.js';
import {
  cancelMessage,
  orderMessage,
  receiptMessage,
  type CancelOrderData,
  type OrderIntent,
  type ReceiptData,
  type Side,
} from '../core/browser-safe.js';
import { sequencerIdOf, sign, verify } from '../crypto/browser-safe.js';
import type { Receipt } from '../core/browser-safe.js';

export interface PlaceOrderBody {
  order_id: string;
  owner: string;
  side: Side;
  price: string;
  quantity: string;
  expiry: string;
  base_mint: string;
  quote_mint: string;
  signature: string; // 128 hex characters
}

export interface CancelOrderBody {
  order_id: string;
  owner: string;
  market_id: string;
  signature: string;
}

export interface CreateMarketBody {
  base_mint: string;
  quote_mint: string;
  name: string;
  kind?: 'Spot' | 'Perp';
}

export type Envelope<T> = { ok: true; data: T } | { ok: false; error: string; code: string };

/** Sign an order intent and produce the POST /orders body. */
export function buildOrderBody(intent: OrderIntent, secretKey: Uint8Array): PlaceOrderBody {
  const signature = sign(orderMessage(intent), secretKey);
  return {
    order_id: intent.orderId.toString(),
    owner: toBase58(intent.owner),
    side: intent.side,
    price: intent.price.toString(),
    quantity: intent.quantity.toString(),
    expiry: intent.expiry.toString(),
    base_mint: toBase58(intent.baseMint),
    quote_mint: toBase58(intent.quoteMint),
    signature: bytesToHex(signature),
  };
}

/** Sign a cancellation and produce the POST /orders/cancel body. */
export function buildCancelBody(data: CancelOrderData, secretKey: Uint8Array): CancelOrderBody {
  const signature = sign(cancelMessage(data), secretKey);
  return {
    order_id: data.orderId.toString(),
    owner: toBase58(data.owner),
    market_id: data.marketId,
    signature: bytesToHex(signature),
  };
}

const U64_TEXT = /^\d{1,20}$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;

function u64Text(value: unknown, name: string): bigint {
  if (typeof value !== 'string' || !U64_TEXT.test(value)) throw new TypeError(`${name} must be a decimal u64 string`);
  const n = BigInt(value);
  if (n > U64_MAX) throw new TypeError(`${name} is above 2^64 - 1`);
  return n;
}

function safeInteger(value: unknown, name: string): bigint {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new TypeError(`${name} must be a non-negative integer`);
  return BigInt(value);
}

/**
 * The signed fields of a JSON receipt, decoded; throws on malformed fields. Every field's
 * shape and length is checked before it is decoded, so a hostile answer costs linear time.
 */
export function receiptDataOf(r: Receipt): ReceiptData {
  if (
    typeof r.merkle_root !== 'string' ||
    !HEX64.test(r.merkle_root) ||
    typeof r.tx_hash !== 'string' ||
    !HEX64.test(r.tx_hash)
  ) {
    throw new TypeError('merkle_root and tx_hash are 32 bytes (64 hex)');
  }
  if (typeof r.sequencer_id !== 'string' || r.sequencer_id.length > 64)
    throw new TypeError('sequencer_id must be a short string');
  if (typeof r.owner !== 'string') throw new TypeError('owner must be Base58');
  return {
    orderId: u64Text(r.order_id, 'order_id'),
    owner: fromBase58Key(r.owner, 'owner'),
    timestampMs: safeInteger(r.timestamp_ms, 'timestamp_ms'),
    sequencerId: r.sequencer_id,
    merkleRoot: fromHex(r.merkle_root),
    tickNumber: safeInteger(r.tick_number, 'tick_number'),
    continuumSequence: u64Text(r.continuum_sequence, 'continuum_sequence'),
    txHash: fromHex(r.tx_hash),
  };
}

export interface ReceiptVerdict {
  valid: boolean;
  reason?: string;
}

/**
 * Check a receipt: rebuild ReceiptData's signing message and verify `sequencer_signature`
 * against the sequencer's public key; also check that `sequencer_id` is the one derived
 * from that key and that `continuum_sequence` agrees with `tick_number`.
 */
export function verifyReceiptDetailed(receipt: Receipt, sequencerPublicKey: Uint8Array): ReceiptVerdict {
  let data: ReceiptData;
  let signature: Uint8Array;
  try {
    data = receiptDataOf(receipt);
    if (typeof receipt.sequencer_signature !== 'string' || !/^[0-9a-fA-F]{128}$/.test(receipt.sequencer_signature)) {
      throw new TypeError('sequencer_signature must be 64 bytes (128 hex)');
    }
    signature = fromHex(receipt.sequencer_signature);
  } catch (err) {
    return { valid: false, reason: `malformed receipt: ${(err as Error).message}` };
  }
  if (signature.length !== 64) return { valid: false, reason: 'sequencer_signature must be 64 bytes' };
  if (sequencerIdOf(sequencerPublicKey) !== receipt.sequencer_id) {
    return { valid: false, reason: 'sequencer_id does not belong to this public key' };
  }
  if (data.continuumSequence >> 32n !== data.tickNumber) {
    return { valid: false, reason: 'continuum_sequence does not match tick_number' };
  }
  if (!verify(signature, receiptMessage(data), sequencerPublicKey)) {
    return { valid: false, reason: 'signature does not verify' };
  }
  return { valid: true };
}

export function verifyReceipt(receipt: Receipt, sequencerPublicKey: Uint8Array): boolean {
  return verifyReceiptDetailed(receipt, sequencerPublicKey).valid;
}
