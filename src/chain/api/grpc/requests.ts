/**
 * The request messages of svc.chain.v1.ChainService (proto/svc/chain/v1/chain.proto) as
 * schemas for the strict protobuf check (src/wire/proto-reader.ts, docs/api.md "Request
 * decoding"): a request is checked field by field before proto-loader decodes it, so
 * malformed bytes (truncated varints, lengths past the end, field 0, undefined wire types,
 * groups, a known field with the wrong wire type, invalid UTF-8) answer INVALID_ARGUMENT
 * instead of being read as something else.
 */
import { LEN, VARINT, type MessageSchema } from '../../../wire/index.js';

const SIGNED_ORDER: MessageSchema = {
  1: { name: 'order.intent', wireType: LEN },
  2: { name: 'order.signature', wireType: LEN },
};
const SIGNED_CANCEL: MessageSchema = {
  1: { name: 'cancel.data', wireType: LEN },
  2: { name: 'cancel.signature', wireType: LEN },
};
const SIGNED_CANCEL_ALL: MessageSchema = {
  1: { name: 'cancel_all.data', wireType: LEN },
  2: { name: 'cancel_all.signature', wireType: LEN },
};
const CREATE_MARKET: MessageSchema = {
  1: { name: 'market.base_mint', wireType: LEN },
  2: { name: 'market.quote_mint', wireType: LEN },
  3: { name: 'market.name', wireType: LEN, utf8: true },
  4: { name: 'market.kind', wireType: LEN, utf8: true },
};

const SUBMIT_TX: MessageSchema = {
  1: { name: 'order', wireType: LEN, message: SIGNED_ORDER },
  2: { name: 'cancel', wireType: LEN, message: SIGNED_CANCEL },
  3: { name: 'market', wireType: LEN, message: CREATE_MARKET },
};

export const CHAIN_REQUEST_SCHEMAS: Record<string, MessageSchema> = {
  SubmitTx: {
    1: { name: 'order', wireType: LEN, message: SIGNED_ORDER },
    2: { name: 'cancel', wireType: LEN, message: SIGNED_CANCEL },
    3: { name: 'market', wireType: LEN, message: CREATE_MARKET },
    4: { name: 'cancel_all', wireType: LEN, message: SIGNED_CANCEL_ALL },
  },
  SubmitTxBatch: { 1: { name: 'items', wireType: LEN, message: SUBMIT_TX } },
  StreamTx: { 1: { name: 'from_sequence', wireType: VARINT } },
};
