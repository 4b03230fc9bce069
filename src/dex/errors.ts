/**
 * The order book API's errors: one class carrying the HTTP status and a stable `code`,
 * rendered as `{"ok": false, "error": "<message>", "code": "<CODE>"}` (docs/dex-api.md).
 */
import { StacklessError } from '../core/index.js';
import type { DexErrorCode } from './engine/index.js';

export type ApiErrorCode =
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
  | 'QUEUE_FULL'
  | 'BATCH_TOO_LARGE'
  | 'UNAVAILABLE'
  | 'TIMEOUT'
  | 'INTERNAL';

/** A refusal with its HTTP status and code (no stack: it is an answer, src/core StacklessError). */
export class ApiError extends StacklessError {
  readonly status: number;
  readonly code: ApiErrorCode;
  /** The sequencer refused it as a replay of a transaction it already has (gRPC: ALREADY_EXISTS). */
  readonly replay: boolean;
  constructor(status: number, code: ApiErrorCode, message: string, replay = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.replay = replay;
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

/** HTTP status of each outcome of applying a transaction. */
export const STATUS_OF: Record<DexErrorCode, number> = {
  MALFORMED: 400,
  INVALID_MARKET: 400,
  DUPLICATE_MARKET: 409,
  UNKNOWN_MARKET: 404,
  INVALID_ORDER: 400,
  ORDER_EXPIRED: 400,
  ORDER_REPLAYED: 409,
  BAD_SIGNATURE: 401,
  UNKNOWN_ORDER: 404,
  ORDER_NOT_OPEN: 409,
  CANCEL_ALL_REPLAYED: 409,
};

export function apiErrorOf(code: DexErrorCode, message: string): ApiError {
  return new ApiError(STATUS_OF[code], code, message);
}
