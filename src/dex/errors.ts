/**
 * The order book's refusal: one class with a stable `code` (core's coded Refusal), and the
 * one table of the HTTP status each code answers with (docs/dex-api.md), read by every
 * HTTP face of the order book (the node's, the gateways', the batch items' status) and by
 * the gateway channel's refused frames. The gRPC face maps the same codes in its own table
 * (docs/chain.md "SubmitTx"). Rendered as `{"ok": false, "error": "<message>", "code": "<CODE>"}`.
 */
import { Refusal } from '../core/index.js';
import type { DexErrorCode } from './engine/index.js';

export type DexRefusalCode =
  | DexErrorCode
  | 'BAD_REQUEST'
  | 'INVALID_JSON'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BODY_TOO_LARGE'
  | 'INVALID_FIELD'
  | 'MISSING_FIELD'
  | 'INVALID_UUID'
  | 'INVALID_SIDE'
  | 'INVALID_SIGNATURE_FORMAT'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'QUEUE_FULL'
  | 'BATCH_TOO_LARGE'
  | 'UNAVAILABLE'
  | 'TIMEOUT'
  | 'INTERNAL';

/** The HTTP status of each refusal code: stated once. */
export const HTTP_STATUS: Readonly<Record<DexRefusalCode, number>> = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  INVALID_FIELD: 400,
  MISSING_FIELD: 400,
  INVALID_UUID: 400,
  INVALID_SIDE: 400,
  INVALID_SIGNATURE_FORMAT: 400,
  BATCH_TOO_LARGE: 400,
  MALFORMED: 400,
  INVALID_MARKET: 400,
  INVALID_ORDER: 400,
  ORDER_EXPIRED: 400,
  BAD_SIGNATURE: 401,
  NOT_FOUND: 404,
  UNKNOWN_MARKET: 404,
  UNKNOWN_ORDER: 404,
  METHOD_NOT_ALLOWED: 405,
  DUPLICATE_MARKET: 409,
  ORDER_REPLAYED: 409,
  ORDER_NOT_OPEN: 409,
  CANCEL_ALL_REPLAYED: 409,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL: 500,
  QUEUE_FULL: 503,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
};

/** An order book refusal (no stack: it is an answer). */
export class DexRefusal extends Refusal<DexRefusalCode> {
  /** The sequencer refused it as a replay of a transaction it already has (gRPC: ALREADY_EXISTS). */
  readonly replay: boolean;
  constructor(code: DexRefusalCode, message: string, replay = false) {
    super(code, message);
    this.name = 'DexRefusal';
    this.replay = replay;
  }

  /** Its HTTP status (HTTP_STATUS). */
  get status(): number {
    return HTTP_STATUS[this.code];
  }
}

/**
 * The client closed its connection before its request body ended ("aborted"): its own
 * doing, not the node's error, so it is logged at debug and counted, and nothing is answered.
 */
export class ClientGoneError extends Error {
  constructor(message = 'the client closed the connection before the request body ended') {
    super(message);
    this.name = 'ClientGoneError';
  }
}
