/**
 * `svc/sdk`: the browser-safe client of the order book API. Keys and signatures
 * (@noble/ed25519), the exact signing messages of spec/2 (Borsh + SHA-256 + hex), the
 * JSON bodies, a fetch client, and receipt verification; a transaction proof client
 * (docs/proofs.md). No node:* imports. The byte helpers, keys, signed messages, the API's
 * answer types and the book checksum are the node's own (src/core, src/crypto), re-exported
 * here under the SDK's names (`toHex` and `equalBytes` are bytesToHex and bytesEqual).
 */
export {
  BASE58_KEY_MAX_CHARS,
  BASE58_KEY_MIN_CHARS,
  bytesEqual as equalBytes,
  bytesToHex as toHex,
  concatBytes,
  fromBase58,
  fromBase58Key,
  fromHex,
  toBase58,
  toBase58Key,
} from '../crypto/browser-safe.js';
// The order book's signed messages and their Borsh bytes (spec/2): shared with the node, whose engine reads the same bytes.
export { BorshReader, BorshWriter, I64_MAX, I64_MIN, U64_MAX } from '../core/browser-safe.js';
export {
  CANCEL_ALL_BOTH_SIDES,
  CANCEL_ALL_PREFIX,
  CANCEL_PREFIX,
  ORDER_INTENT_SIZE,
  ORDER_PREFIX,
  RECEIPT_PREFIX,
  cancelAllMessage,
  cancelMessage,
  encodeCancelAllData,
  encodeCancelOrderData,
  encodeOrderIntent,
  encodeReceiptData,
  orderMessage,
  receiptMessage,
  sideToByte,
  signingMessage,
  type CancelAllData,
  type CancelOrderData,
  type OrderIntent,
  type ReceiptData,
  type Sha256,
  type Side,
} from '../core/browser-safe.js';
export {
  generateKeyPair,
  keyFileOf,
  keyPairFromSeed,
  sequencerIdOf,
  sign,
  verify,
  type KeyFile,
  type KeyPair,
} from '../crypto/browser-safe.js';
export { ed25519EncodingViolation, SMALL_ORDER_POINTS, type Ed25519Violation } from '../crypto/browser-safe.js';
export type {
  CancelAllResult,
  CancelResult,
  CancelledOrderView,
  HealthView,
  LevelView,
  MarketView,
  OrderBookView,
  OrderResult,
  Receipt,
  SlotOrderView,
  TradeView,
} from '../core/browser-safe.js';
export * from './api-json.js';
export * from './cancel-all.js';
export * from './client.js';
export { marketIdOf } from '../core/browser-safe.js';
export * from './state-root.js';
export * from './chain-root.js';
export { UUID_RE } from '../core/browser-safe.js';
export * from './exact-json.js';
export {
  BookChecksum,
  EMPTY_BOOK_CHECKSUM,
  LEVEL_INPUT_BYTES,
  bookChecksumOf,
  checksumHex,
  levelHash,
  levelInput,
  marketIdBytes,
  type BookSideCode,
  type ChecksumRow,
} from '../core/browser-safe.js';
export * from './channel-client.js';
