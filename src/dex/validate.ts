/**
 * Validation of the JSON request bodies into typed values, with one precise 400 per
 * problem (docs/dex-api.md "Errors"). u64 fields accept a JSON integer (up to 2^53 - 1)
 * or a decimal string (up to 2^64 - 1); keys and mints are Base58 of exactly 32 bytes;
 * signatures are 128 hex characters.
 */
import { fromBase58Key, fromHex } from '../crypto/index.js';
import type { CancelAllData, OrderIntent } from '../core/index.js';
import { UUID_RE } from '../core/index.js';
import { I64_MAX, U64_MAX } from '../core/index.js';
import { DexRefusal } from './errors.js';
import type { MarketKind } from './engine/index.js';

type Body = Record<string, unknown>;

export function asObject(body: unknown): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new DexRefusal('BAD_REQUEST', 'the body must be a JSON object');
  return body as Body;
}

function field(b: Body, name: string): unknown {
  const v = b[name];
  if (v === undefined || v === null) throw new DexRefusal('MISSING_FIELD', `missing field: ${name}`);
  return v;
}

function integer(b: Body, name: string, min: bigint, max: bigint): bigint {
  const v = field(b, name);
  let n: bigint;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v))
      throw new DexRefusal('INVALID_FIELD', `${name} must be an integer (use a decimal string above 2^53)`);
    n = BigInt(v);
  } else if (typeof v === 'string' && /^-?\d{1,20}$/.test(v)) {
    n = BigInt(v);
  } else {
    throw new DexRefusal('INVALID_FIELD', `${name} must be an integer or a decimal string`);
  }
  if (n < min || n > max) throw new DexRefusal('INVALID_FIELD', `${name} out of range [${min}, ${max}]`);
  return n;
}

function key(b: Body, name: string): Uint8Array {
  const v = field(b, name);
  if (typeof v !== 'string') throw new DexRefusal('INVALID_FIELD', `${name} must be a Base58 string`);
  try {
    return fromBase58Key(v, name);
  } catch (err) {
    throw new DexRefusal('INVALID_FIELD', (err as Error).message);
  }
}

function signature(b: Body): Uint8Array {
  const v = field(b, 'signature');
  if (typeof v !== 'string' || !/^[0-9a-fA-F]{128}$/.test(v)) {
    throw new DexRefusal('INVALID_SIGNATURE_FORMAT', 'signature must be 128 hex characters (64 bytes)');
  }
  return fromHex(v);
}

export function uuid(text: string, name = 'market_id'): string {
  if (!UUID_RE.test(text)) throw new DexRefusal('INVALID_UUID', `${name} must be a lowercase UUID`);
  return text;
}

export function parseCreateMarket(body: unknown): {
  baseMint: Uint8Array;
  quoteMint: Uint8Array;
  name: string;
  kind: MarketKind;
} {
  const b = asObject(body);
  const baseMint = key(b, 'base_mint');
  const quoteMint = key(b, 'quote_mint');
  const name = field(b, 'name');
  if (typeof name !== 'string') throw new DexRefusal('INVALID_FIELD', 'name must be a string');
  const kind = b.kind ?? 'Spot';
  if (kind !== 'Spot' && kind !== 'Perp') throw new DexRefusal('INVALID_FIELD', 'kind must be "Spot" or "Perp"');
  return { baseMint, quoteMint, name, kind };
}

export function parsePlaceOrder(body: unknown): { intent: OrderIntent; signature: Uint8Array } {
  const b = asObject(body);
  const orderId = integer(b, 'order_id', 0n, U64_MAX);
  const owner = key(b, 'owner');
  const side = field(b, 'side');
  if (side !== 'Buy' && side !== 'Sell') throw new DexRefusal('INVALID_SIDE', 'side must be "Buy" or "Sell"');
  const price = integer(b, 'price', 0n, U64_MAX);
  if (price === 0n) throw new DexRefusal('INVALID_FIELD', 'price must be > 0');
  const quantity = integer(b, 'quantity', 0n, U64_MAX);
  if (quantity === 0n) throw new DexRefusal('INVALID_FIELD', 'quantity must be > 0');
  const expiry = integer(b, 'expiry', 0n, I64_MAX);
  const baseMint = key(b, 'base_mint');
  const quoteMint = key(b, 'quote_mint');
  return { intent: { orderId, owner, side, price, quantity, expiry, baseMint, quoteMint }, signature: signature(b) };
}

export function parseCancel(body: unknown): {
  orderId: bigint;
  owner: Uint8Array;
  marketId: string;
  signature: Uint8Array;
} {
  const b = asObject(body);
  const orderId = integer(b, 'order_id', 0n, U64_MAX);
  const owner = key(b, 'owner');
  const m = field(b, 'market_id');
  if (typeof m !== 'string') throw new DexRefusal('INVALID_UUID', 'market_id must be a UUID string');
  return { orderId, owner, marketId: uuid(m), signature: signature(b) };
}

/** POST /orders/cancel-all: `{request_id, owner, market_id, side?: "Buy"|"Sell", signature}` (side absent: both). */
export function parseCancelAll(body: unknown): { data: CancelAllData; signature: Uint8Array } {
  const b = asObject(body);
  const requestId = integer(b, 'request_id', 0n, U64_MAX);
  const owner = key(b, 'owner');
  const m = field(b, 'market_id');
  if (typeof m !== 'string') throw new DexRefusal('INVALID_UUID', 'market_id must be a UUID string');
  const side = b.side ?? undefined;
  if (side !== undefined && side !== 'Buy' && side !== 'Sell') {
    throw new DexRefusal('INVALID_SIDE', 'side must be "Buy" or "Sell" (or absent: both)');
  }
  const data: CancelAllData = { requestId, owner, marketId: uuid(m) };
  if (side !== undefined) data.side = side;
  return { data, signature: signature(b) };
}
