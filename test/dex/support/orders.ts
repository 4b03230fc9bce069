/** Test helpers: deterministic keys and mints, and decoded order book transactions. */
import { keyPairFromSeed, type KeyPair } from '../../../src/crypto/keys.js';
import {
  encodeCancelAllData,
  encodeCancelOrderData,
  encodeOrderIntent,
  type OrderIntent,
  type Side,
} from '../../../src/core/order-messages.js';
import type { CancelAllTx, CancelOrderTx, CreateMarketTx, PlaceOrderTx } from '../../../src/dex/engine/index.js';

export function seeded(n: number): KeyPair {
  const seed = new Uint8Array(32);
  seed.fill(n & 0xff);
  seed[0] = 0x5e;
  return keyPairFromSeed(seed);
}

export function mint(n: number): Uint8Array {
  const m = new Uint8Array(32);
  m.fill(n);
  return m;
}

export const BASE = mint(1);
export const QUOTE = mint(2);

export function marketTx(base = BASE, quote = QUOTE, name = 'BASE/QUOTE'): CreateMarketTx {
  return { kind: 'market', baseMint: base, quoteMint: quote, name, marketKind: 'Spot' };
}

export function orderTx(
  owner: Uint8Array,
  orderId: number | bigint,
  side: Side,
  price: number | bigint,
  quantity: number | bigint,
  expiry = 0n,
  base = BASE,
  quote = QUOTE,
): PlaceOrderTx {
  const intent: OrderIntent = {
    orderId: BigInt(orderId),
    owner,
    side,
    price: BigInt(price),
    quantity: BigInt(quantity),
    expiry,
    baseMint: base,
    quoteMint: quote,
  };
  return { kind: 'order', intent, borsh: encodeOrderIntent(intent), signature: new Uint8Array(64) };
}

export function cancelTx(owner: Uint8Array, orderId: number | bigint, marketId: string): CancelOrderTx {
  const borsh = encodeCancelOrderData({ orderId: BigInt(orderId), owner, marketId });
  return { kind: 'cancel', orderId: BigInt(orderId), owner, marketId, borsh, signature: new Uint8Array(64) };
}

/** A mass cancel of `owner` in `marketId` (one side, or both when `side` is undefined). */
export function cancelAllTx(owner: Uint8Array, requestId: number | bigint, marketId: string, side?: Side): CancelAllTx {
  const data = { requestId: BigInt(requestId), owner, marketId, ...(side !== undefined ? { side } : {}) };
  return {
    kind: 'cancel_all',
    requestId: BigInt(requestId),
    owner,
    marketId,
    side,
    borsh: encodeCancelAllData(data),
    signature: new Uint8Array(64),
  };
}
