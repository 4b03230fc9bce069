/**
 * The door of the core: what every layer shares and nothing below it (no I/O, no Node
 * built-ins but node:crypto's SHA-256 through src/crypto): the transaction and tick types,
 * the transaction's Borsh bytes and hashes, the clock in microseconds, the order book's
 * signed messages (spec/2), its API's answer types and the book checksum (hex, Base58 and
 * keys are src/crypto's). src/store, src/sequencer, the faces and the SDK import it; it
 * imports none of them.
 */
export type * from './types.js';
export {
  shortHash,
  isShortHash,
  checkServedTxHash,
  transactionBytes,
  transactionBytesLength,
  writeTransactionBytesFromText,
} from './tx-hash.js';
export { txBodyLength, writeTxBody, readTxBody, TX_BODY_HEADER } from './tx-record.js';
export * from './time.js';
export { BorshReader, BorshWriter, I64_MAX, U64_MAX } from './borsh.js';
export {
  encodeOrderIntent,
  encodeCancelOrderData,
  encodeCancelAllData,
  signingMessage,
  orderMessage,
  cancelMessage,
  cancelAllMessage,
  receiptMessage,
  type Side,
  ORDER_PREFIX,
  CANCEL_PREFIX,
  CANCEL_ALL_PREFIX,
  ORDER_INTENT_SIZE,
  type OrderIntent,
  type CancelOrderData,
  type CancelAllData,
  CANCEL_ALL_BOTH_SIDES,
  type ReceiptData,
} from './order-messages.js';
export { marketIdOf, UUID_RE } from './market-id.js';
export { StacklessError } from './stackless-error.js';
export { Refusal } from './refusal.js';
export type {
  Receipt,
  MarketView,
  OrderBookView,
  TradeView,
  OrderResult,
  CancelResult,
  HealthView,
  CancelledOrderView,
  CancelAllResult,
} from './api-views.js';
export { BookChecksum } from './book-checksum.js';
