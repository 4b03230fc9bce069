/**
 * Mass cancel in the SDK (docs/signing.md "CancelAllData", docs/dex-api.md): the signed
 * body of `POST /orders/cancel-all` and the shape of its answer. An owner cancels every
 * order it has open in one market (or on one side of it) in one signed message; the
 * `request_id` it chooses makes each such message unique (usable once per owner, ever), so
 * the same market can be mass-cancelled again later with a new id.
 */
import { cancelAllMessage, type CancelAllData, type Side } from '../core/browser-safe.js';
import { bytesToHex, sign, toBase58 } from '../crypto/browser-safe.js';

export interface CancelAllBody {
  request_id: string; // decimal u64
  owner: string; // Base58
  market_id: string;
  side?: Side; // absent: both sides
  signature: string; // 128 hex characters
}

/** Sign a mass cancel and produce the POST /orders/cancel-all body. */
export function buildCancelAllBody(data: CancelAllData, secretKey: Uint8Array): CancelAllBody {
  const signature = sign(cancelAllMessage(data), secretKey);
  const body: CancelAllBody = {
    request_id: data.requestId.toString(),
    owner: toBase58(data.owner),
    market_id: data.marketId,
    signature: bytesToHex(signature),
  };
  if (data.side !== undefined) body.side = data.side;
  return body;
}
