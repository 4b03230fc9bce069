/**
 * SubmitTx's checks that need no state (docs/chain.md "gRPC"): field sizes, a signature
 * present, the signed bytes decoding to an order, a cancel, a mass cancel or a market creation. Pure, so
 * they run on the main thread or on an intake thread alike; with `signOff` an intake
 * thread also checks the ed25519 signature and builds the transaction payload and nonce,
 * so the main thread is left with the state checks and the order (dex/order-entry.ts
 * placeChecked / cancelChecked, the same path as the order book's gateway processes).
 */
import { status as grpcStatus } from '@grpc/grpc-js';
import { sha256 } from '../../../crypto/index.js';
import { digestNonce } from '../../../dex/index.js';
import {
  type MarketKind,
  decodePayload,
  encodeCancelOrder,
  encodeCancelPayload,
  encodePlaceOrder,
  encodePlaceOrderIntent,
} from '../../../dex/engine/index.js';
import { encodeCancelAll } from '../../../dex/engine/index.js';
import { UUID_RE } from '../../../core/index.js';
import { ORDER_INTENT_SIZE, cancelMessage, orderMessage, type OrderIntent } from '../../../core/index.js';
import { cancelAllMessage, encodeCancelAllData, type CancelAllData } from '../../../core/index.js';
import { verifyOne } from '../../../crypto/index.js';
import type { IntakeRefusal } from '../../../intake/index.js';
import { checkMessage } from '../../../wire/index.js';
import { chainServiceDefinition } from '../client/index.js';
import { CHAIN_REQUEST_SCHEMAS } from './requests.js';

/** SubmitTxRequest as proto-loader decodes it (oneof `tx` names the set field). */
export interface SubmitTxRequest {
  tx?: 'order' | 'cancel' | 'market' | 'cancel_all';
  order?: { intent: Uint8Array; signature: Uint8Array };
  cancel?: { data: Uint8Array; signature: Uint8Array };
  market?: { base_mint: Uint8Array; quote_mint: Uint8Array; name: string; kind: string };
  cancel_all?: { data: Uint8Array; signature: Uint8Array };
}

/** Most SubmitTx requests one intake task checks (the requests of one turn go together). */
export const SUBMIT_TX_PER_TASK = 64;

export type CheckedSubmitTx =
  | { tx: 'order'; intent: OrderIntent; signature: Uint8Array }
  | { tx: 'cancel'; orderId: bigint; owner: Uint8Array; marketId: string; signature: Uint8Array }
  | { tx: 'cancel_all'; data: CancelAllData; signature: Uint8Array }
  | { tx: 'market'; baseMint: Uint8Array; quoteMint: Uint8Array; name: string; kind: MarketKind };

/** An order or cancel with its signature checked and its transaction payload built. */
export type SignedOff =
  | { tx: 'order'; intent: OrderIntent; payload: Uint8Array; nonce: bigint; signatureValid: boolean }
  | {
      tx: 'cancel';
      orderId: bigint;
      owner: Uint8Array;
      marketId: string;
      payload: Uint8Array;
      nonce: bigint;
      signatureValid: boolean;
    }
  | { tx: 'cancel_all'; data: CancelAllData; payload: Uint8Array; nonce: bigint; signatureValid: boolean }
  | { tx: 'market'; baseMint: Uint8Array; quoteMint: Uint8Array; name: string; kind: MarketKind };

const invalid = (details: string): IntakeRefusal => ({ refused: { code: grpcStatus.INVALID_ARGUMENT, details } });
const unsigned = (details: string): IntakeRefusal => ({ refused: { code: grpcStatus.UNAUTHENTICATED, details } });

let submitTxDecoder: ((buf: Buffer) => unknown) | undefined;

/** SubmitTx request bytes: the strict reader's check (./requests.ts), then proto-loader; never throws. */
export function decodeSubmitTxRequest(bytes: Uint8Array): SubmitTxRequest | IntakeRefusal {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    checkMessage(CHAIN_REQUEST_SCHEMAS.SubmitTx!, buf);
    submitTxDecoder ??= (chainServiceDefinition().SubmitTx as unknown as { requestDeserialize: (b: Buffer) => unknown })
      .requestDeserialize;
    return submitTxDecoder(buf) as SubmitTxRequest;
  } catch (err) {
    return invalid(`malformed SubmitTx request: ${(err as Error).message}`);
  }
}

/** The request's bytes checked and decoded, or why not. */
export function checkSubmitTx(req: SubmitTxRequest): CheckedSubmitTx | IntakeRefusal {
  switch (req.tx) {
    case 'order': {
      const { intent, signature } = req.order!;
      if (intent.length !== ORDER_INTENT_SIZE)
        return invalid(
          `order.intent must be the ${ORDER_INTENT_SIZE}-byte Borsh OrderIntent, got ${intent.length} bytes`,
        );
      if (signature.length === 0) return unsigned('order.signature is missing: orders must be signed by their owner');
      if (signature.length !== 64) return invalid(`order.signature must be 64 bytes, got ${signature.length}`);
      const d = decodePayload(encodePlaceOrder(intent, signature));
      if (d?.kind !== 'order')
        return invalid(`order.intent is not a valid OrderIntent${d?.kind === 'malformed' ? `: ${d.reason}` : ''}`);
      return { tx: 'order', intent: d.intent, signature: d.signature };
    }
    case 'cancel': {
      const { data, signature } = req.cancel!;
      if (data.length < 44 || data.length > 44 + 64)
        return invalid(`cancel.data must be a Borsh CancelOrderData (44..108 bytes), got ${data.length} bytes`);
      if (signature.length === 0)
        return unsigned('cancel.signature is missing: cancels must be signed by the order owner');
      if (signature.length !== 64) return invalid(`cancel.signature must be 64 bytes, got ${signature.length}`);
      const d = decodePayload(encodeCancelOrder(data, signature));
      if (d?.kind !== 'cancel')
        return invalid(`cancel.data is not a valid CancelOrderData${d?.kind === 'malformed' ? `: ${d.reason}` : ''}`);
      if (!UUID_RE.test(d.marketId)) return invalid('cancel.data: market_id must be a lowercase UUID');
      return { tx: 'cancel', orderId: d.orderId, owner: d.owner, marketId: d.marketId, signature: d.signature };
    }
    case 'cancel_all':
      return checkCancelAll(req.cancel_all!);
    case 'market': {
      const m = req.market!;
      if (m.base_mint.length !== 32 || m.quote_mint.length !== 32)
        return invalid('market.base_mint and market.quote_mint must be 32 bytes each');
      const kind = m.kind === '' ? 'Spot' : m.kind;
      if (kind !== 'Spot' && kind !== 'Perp')
        return invalid(`market.kind must be "Spot" or "Perp", got '${m.kind.slice(0, 20)}'`);
      return {
        tx: 'market',
        baseMint: new Uint8Array(m.base_mint),
        quoteMint: new Uint8Array(m.quote_mint),
        name: m.name,
        kind,
      };
    }
    default:
      return invalid('tx is required: one of order, cancel, market or cancel_all');
  }
}

/** Check the signature and build the payload and nonce (what a gateway process does for POST /orders). */
export function signOff(c: Exclude<CheckedSubmitTx, { tx: 'market' }>): Exclude<SignedOff, { tx: 'market' }>;
export function signOff(c: CheckedSubmitTx): SignedOff;
export function signOff(c: CheckedSubmitTx): SignedOff {
  if (c.tx === 'order') {
    const message = orderMessage(c.intent, sha256);
    const signatureValid = verifyOne({ publicKey: c.intent.owner, message, signature: c.signature });
    return {
      tx: 'order',
      intent: c.intent,
      payload: encodePlaceOrderIntent(c.intent, c.signature),
      nonce: digestNonce(message),
      signatureValid,
    };
  }
  if (c.tx === 'cancel') {
    const message = cancelMessage({ orderId: c.orderId, owner: c.owner, marketId: c.marketId }, sha256);
    const signatureValid = verifyOne({ publicKey: c.owner, message, signature: c.signature });
    const payload = encodeCancelPayload(c.orderId, c.owner, c.marketId, c.signature);
    return {
      tx: 'cancel',
      orderId: c.orderId,
      owner: c.owner,
      marketId: c.marketId,
      payload,
      nonce: digestNonce(message),
      signatureValid,
    };
  }
  if (c.tx === 'cancel_all') {
    const message = cancelAllMessage(c.data, sha256);
    const signatureValid = verifyOne({ publicKey: c.data.owner, message, signature: c.signature });
    const payload = encodeCancelAll(encodeCancelAllData(c.data), c.signature);
    return { tx: 'cancel_all', data: c.data, payload, nonce: digestNonce(message), signatureValid };
  }
  return c;
}

/**
 * A mass cancel's bytes: a Borsh CancelAllData (45..109 bytes: its market_id is at most
 * 64) and a 64-byte signature.
 */
function checkCancelAll(req: { data: Uint8Array; signature: Uint8Array }): CheckedSubmitTx | IntakeRefusal {
  const { data, signature } = req;
  if (data.length < 45 || data.length > 45 + 64) {
    return invalid(`cancel_all.data must be a Borsh CancelAllData (45..109 bytes), got ${data.length} bytes`);
  }
  if (signature.length === 0)
    return unsigned('cancel_all.signature is missing: mass cancels must be signed by the owner');
  if (signature.length !== 64) return invalid(`cancel_all.signature must be 64 bytes, got ${signature.length}`);
  const d = decodePayload(encodeCancelAll(data, signature));
  if (d?.kind !== 'cancel_all') {
    return invalid(`cancel_all.data is not a valid CancelAllData${d?.kind === 'malformed' ? `: ${d.reason}` : ''}`);
  }
  if (!UUID_RE.test(d.marketId)) return invalid('cancel_all.data: market_id must be a lowercase UUID');
  const c: CancelAllData = { requestId: d.requestId, owner: d.owner, marketId: d.marketId };
  if (d.side !== undefined) c.side = d.side;
  return { tx: 'cancel_all', data: c, signature: d.signature };
}
