/**
 * The order book's transaction wire format: how a market creation, an order or a cancel
 * rides in a sequencer Transaction, so that replaying the ticks replays the order book.
 *
 *   payload = "DX" (0x44 0x58) || version 0x01 || kind u8 || body
 *     kind 1 CreateMarket: Borsh { base_mint [u8;32], quote_mint [u8;32], name String,
 *                                  market_kind u8 (0 Spot, 1 Perp) }
 *     kind 2 PlaceOrder:   Borsh OrderIntent (129 bytes) || signature [u8;64]
 *     kind 3 CancelOrder:  Borsh CancelOrderData || signature [u8;64]
 *     kind 4 CancelAll:    Borsh CancelAllData || signature [u8;64]
 *
 *   Transaction { tx_id: "dex-<kind>-<random uuid>", payload, signature: the owner's
 *                 ed25519 signature (orders, cancels, mass cancels; empty for markets),
 *                 public_key: the owner (empty for markets), nonce: the first 8 bytes of the
 *                 signing digest for orders and cancels (service.ts digestNonce), 0 for markets,
 *                 timestamp: the node's clock in microseconds at submission }
 *
 * Only the payload is authoritative when applying: the envelope fields are for the
 * sequencer's own views. A payload that does not start with the magic is not ours and is
 * skipped; one that does but fails to decode is skipped as malformed.
 */
import { randomUUID } from 'node:crypto';
import { BorshReader, BorshWriter } from '../../core/index.js';
import { encodeCancelOrderData, encodeOrderIntent, ORDER_INTENT_SIZE, type OrderIntent } from '../../core/index.js';
import { CANCEL_ALL_BOTH_SIDES, type Side } from '../../core/index.js';
import type { Transaction } from '../../core/index.js';
import type { MarketKind } from './interface.js';

export const MAGIC0 = 0x44;
export const MAGIC1 = 0x58;
export const WIRE_VERSION = 1;
export const KIND_MARKET = 1;
export const KIND_ORDER = 2;
export const KIND_CANCEL = 3;
export const KIND_CANCEL_ALL = 4;
const HEADER = 4;
export const MAX_MARKET_NAME_BYTES = 64;

export interface CreateMarketTx {
  kind: 'market';
  baseMint: Uint8Array;
  quoteMint: Uint8Array;
  name: string;
  marketKind: MarketKind;
}

export interface PlaceOrderTx {
  kind: 'order';
  intent: OrderIntent;
  /** The OrderIntent's Borsh bytes exactly as carried (what the signature covers). */
  borsh: Uint8Array;
  signature: Uint8Array;
}

export interface CancelOrderTx {
  kind: 'cancel';
  orderId: bigint;
  owner: Uint8Array;
  marketId: string;
  borsh: Uint8Array;
  signature: Uint8Array;
}

/** Cancel every open order of `owner` in `marketId` (one side, or both when `side` is undefined). */
export interface CancelAllTx {
  kind: 'cancel_all';
  requestId: bigint;
  owner: Uint8Array;
  marketId: string;
  side: Side | undefined;
  borsh: Uint8Array;
  signature: Uint8Array;
}

export type DexTx = CreateMarketTx | PlaceOrderTx | CancelOrderTx | CancelAllTx;
export type Decoded = DexTx | { kind: 'malformed'; reason: string } | undefined;

function header(kind: number): BorshWriter {
  return new BorshWriter(208).u8(MAGIC0).u8(MAGIC1).u8(WIRE_VERSION).u8(kind);
}

export function encodeCreateMarket(m: Omit<CreateMarketTx, 'kind'>): Uint8Array {
  return header(KIND_MARKET)
    .fixed(m.baseMint, 32)
    .fixed(m.quoteMint, 32)
    .string(m.name)
    .u8(m.marketKind === 'Perp' ? 1 : 0)
    .toBytes();
}

export function encodePlaceOrder(intentBorsh: Uint8Array, signature: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + ORDER_INTENT_SIZE + 64);
  out[0] = MAGIC0;
  out[1] = MAGIC1;
  out[2] = WIRE_VERSION;
  out[3] = KIND_ORDER;
  out.set(intentBorsh, HEADER);
  out.set(signature, HEADER + ORDER_INTENT_SIZE);
  return out;
}

export function encodePlaceOrderIntent(intent: OrderIntent, signature: Uint8Array): Uint8Array {
  return encodePlaceOrder(encodeOrderIntent(intent), signature);
}

export function encodeCancelOrder(cancelBorsh: Uint8Array, signature: Uint8Array): Uint8Array {
  return signedPayload(KIND_CANCEL, cancelBorsh, signature);
}

/** A mass cancel's payload: its CancelAllData's Borsh bytes and the owner's signature. */
export function encodeCancelAll(cancelAllBorsh: Uint8Array, signature: Uint8Array): Uint8Array {
  return signedPayload(KIND_CANCEL_ALL, cancelAllBorsh, signature);
}

function signedPayload(kind: number, borsh: Uint8Array, signature: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + borsh.length + 64);
  out[0] = MAGIC0;
  out[1] = MAGIC1;
  out[2] = WIRE_VERSION;
  out[3] = kind;
  out.set(borsh, HEADER);
  out.set(signature, HEADER + borsh.length);
  return out;
}

export function encodeCancelPayload(
  orderId: bigint,
  owner: Uint8Array,
  marketId: string,
  signature: Uint8Array,
): Uint8Array {
  return encodeCancelOrder(encodeCancelOrderData({ orderId, owner, marketId }), signature);
}

/** Is this payload an order book transaction at all (magic and version)? */
export function isDexPayload(p: Uint8Array): boolean {
  return p.length >= HEADER && p[0] === MAGIC0 && p[1] === MAGIC1 && p[2] === WIRE_VERSION;
}

export function decodePayload(p: Uint8Array): Decoded {
  if (!isDexPayload(p)) return undefined;
  try {
    const kind = p[3];
    const body = p.subarray(HEADER);
    if (kind === KIND_ORDER) {
      if (body.length !== ORDER_INTENT_SIZE + 64) return { kind: 'malformed', reason: 'order payload size' };
      const r = new BorshReader(body);
      const orderId = r.u64();
      const owner = r.fixed(32);
      const sideByte = r.u8();
      if (sideByte > 1) return { kind: 'malformed', reason: 'side' };
      const intent: OrderIntent = {
        orderId,
        owner,
        side: sideByte === 0 ? 'Buy' : 'Sell',
        price: r.u64(),
        quantity: r.u64(),
        expiry: r.i64(),
        baseMint: r.fixed(32),
        quoteMint: r.fixed(32),
      };
      return { kind: 'order', intent, borsh: body.subarray(0, ORDER_INTENT_SIZE), signature: r.fixed(64) };
    }
    if (kind === KIND_CANCEL) {
      const r = new BorshReader(body);
      const orderId = r.u64();
      const owner = r.fixed(32);
      const marketId = r.string(64);
      const end = r.offset;
      const signature = r.fixed(64);
      if (r.remaining !== 0) return { kind: 'malformed', reason: 'trailing bytes' };
      return { kind: 'cancel', orderId, owner, marketId, borsh: body.subarray(0, end), signature };
    }
    if (kind === KIND_CANCEL_ALL) return decodeCancelAll(body);
    if (kind === KIND_MARKET) {
      const r = new BorshReader(body);
      const baseMint = r.fixed(32);
      const quoteMint = r.fixed(32);
      const name = r.string(MAX_MARKET_NAME_BYTES);
      const k = r.u8();
      if (k > 1) return { kind: 'malformed', reason: 'market kind' };
      if (r.remaining !== 0) return { kind: 'malformed', reason: 'trailing bytes' };
      return { kind: 'market', baseMint, quoteMint, name, marketKind: k === 1 ? 'Perp' : 'Spot' };
    }
    return { kind: 'malformed', reason: `unknown kind ${kind}` };
  } catch (err) {
    return { kind: 'malformed', reason: (err as Error).message };
  }
}

/** CancelAllData || signature; the side byte is 0 Buy, 1 Sell, 2 both. */
function decodeCancelAll(body: Uint8Array): Decoded {
  const r = new BorshReader(body);
  const requestId = r.u64();
  const owner = r.fixed(32);
  const marketId = r.string(64);
  const sideByte = r.u8();
  if (sideByte > CANCEL_ALL_BOTH_SIDES) return { kind: 'malformed', reason: 'side' };
  const end = r.offset;
  const signature = r.fixed(64);
  if (r.remaining !== 0) return { kind: 'malformed', reason: 'trailing bytes' };
  const side: Side | undefined = sideByte === 0 ? 'Buy' : sideByte === 1 ? 'Sell' : undefined;
  return { kind: 'cancel_all', requestId, owner, marketId, side, borsh: body.subarray(0, end), signature };
}

const EMPTY = new Uint8Array(0);

/** Wrap a payload in a sequencer Transaction (see the header comment for each field). */
export type TxIdKind = 'market' | 'order' | 'cancel' | 'cancel-all';

export function toTransaction(
  kind: TxIdKind,
  payload: Uint8Array,
  owner?: Uint8Array,
  signature?: Uint8Array,
  nonce = 0n,
): Transaction {
  return {
    txId: `dex-${kind}-${randomUUID()}`,
    payload,
    signature: signature ?? EMPTY,
    publicKey: owner ?? EMPTY,
    nonce,
    timestamp: BigInt(Date.now()) * 1000n,
  };
}
