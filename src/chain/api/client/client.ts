/**
 * A Node client of svc.chain.v1.ChainService (@grpc/grpc-js + proto-loader from the .proto,
 * the standard decoding): SubmitTx with signed orders, cancels and market creations built
 * from the same signed bytes as the order book API, and StreamTx. Used by `svc chain`, the
 * tests and bench:chain. u64 fields arrive as decimal strings (proto-loader `longs: String`).
 */
import * as grpc from '@grpc/grpc-js';
import { sign } from '../../../crypto/index.js';
import {
  cancelMessage,
  encodeCancelOrderData,
  encodeOrderIntent,
  orderMessage,
  type CancelOrderData,
  type OrderIntent,
} from '../../../core/index.js';
import { cancelAllMessage, encodeCancelAllData, type CancelAllData } from '../../../core/index.js';
import { loadChainPackage } from './proto.js';

export interface WireExplorerTransaction {
  id: string;
  block_height: string;
  batch_index: number;
  kind: string;
  market_id: string;
  market_name: string;
  market_kind: string;
  owner: string;
  side: string;
  price: string;
  quantity: string;
  base_mint: string;
  quote_mint: string;
  order_id: string;
  timestamp_ms: string;
  continuum_sequence: string;
  signature: string;
  tick_number: string;
  sequence_number: string;
  tx_hash: string;
  expiry: string;
  status: string;
  filled_quantity: string;
  cancelled_quantity: string;
  cancelled_order_ids: string[]; // mass cancels: the orders it ended
}

export interface WireSubmitTxResponse {
  sequence_number: string;
  tick_number: string;
  transaction_id: string;
  continuum_sequence: string;
  block_height: string;
  tx_hash: string;
  /** The stored order or cancel; null for a market creation. */
  transaction: WireExplorerTransaction | null;
  /** The stored market creation; null for an order or a cancel. */
  market: WireMarketCreation | null;
}

export interface WireMarketCreation {
  id: string;
  block_height: string;
  batch_index: number;
  market_id: string;
  market_name: string;
  market_kind: string;
  base_mint: string;
  quote_mint: string;
  timestamp_ms: string;
  continuum_sequence: string;
  tick_number: string;
  sequence_number: string;
  tx_hash: string;
}

export interface WireTxBatch {
  tick_number: string;
  block_height: string;
  batch_index: number;
  batch_hash: string;
  transactions: WireExplorerTransaction[];
}

/** One item's result of SubmitTxBatch: SubmitTx's answer, or the status SubmitTx would have failed with. */
export interface WireSubmitTxBatchResult {
  result: 'ok' | 'error';
  ok?: WireSubmitTxResponse;
  error?: { code: number; details: string };
}

export type SubmitTxRequest =
  | { order: { intent: Uint8Array; signature: Uint8Array } }
  | { cancel: { data: Uint8Array; signature: Uint8Array } }
  | { market: { base_mint: Uint8Array; quote_mint: Uint8Array; name: string; kind?: string } }
  | { cancel_all: { data: Uint8Array; signature: Uint8Array } };

/** The SubmitTx request of an order signed with `secretKey` (docs/signing.md). */
export function signedOrderRequest(intent: OrderIntent, secretKey: Uint8Array): SubmitTxRequest {
  return { order: { intent: encodeOrderIntent(intent), signature: sign(orderMessage(intent), secretKey) } };
}

export function signedCancelRequest(data: CancelOrderData, secretKey: Uint8Array): SubmitTxRequest {
  return { cancel: { data: encodeCancelOrderData(data), signature: sign(cancelMessage(data), secretKey) } };
}

/** The SubmitTx request of a mass cancel signed with `secretKey` (docs/signing.md "CancelAllData"). */
export function signedCancelAllRequest(data: CancelAllData, secretKey: Uint8Array): SubmitTxRequest {
  return { cancel_all: { data: encodeCancelAllData(data), signature: sign(cancelAllMessage(data), secretKey) } };
}

type Unary = (
  req: object,
  meta: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res: unknown) => void,
) => grpc.ClientUnaryCall;

export class ChainClient {
  readonly raw: grpc.Client & {
    SubmitTx: Unary;
    SubmitTxBatch: Unary;
    StreamTx: (req: object, opts?: grpc.CallOptions) => grpc.ClientReadableStream<WireTxBatch>;
  };

  constructor(address: string, options: grpc.ChannelOptions = {}) {
    const pkg = grpc.loadPackageDefinition(loadChainPackage()) as unknown as {
      svc: { chain: { v1: { ChainService: grpc.ServiceClientConstructor } } };
    };
    this.raw = new pkg.svc.chain.v1.ChainService(address, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
      'grpc-node.flow_control_window': 16 * 1024 * 1024,
      ...options,
    }) as unknown as ChainClient['raw'];
  }

  submit(req: SubmitTxRequest, deadlineMs = 60_000): Promise<WireSubmitTxResponse> {
    return new Promise((resolve, reject) => {
      this.raw.SubmitTx(toWire(req), new grpc.Metadata(), { deadline: Date.now() + deadlineMs }, (err, res) =>
        err ? reject(err) : resolve(res as WireSubmitTxResponse),
      );
    });
  }

  /** SubmitTxBatch: up to 64 orders and cancels, one result per item in their order (docs/chain.md "SubmitTxBatch"). */
  submitBatch(items: SubmitTxRequest[], deadlineMs = 60_000): Promise<WireSubmitTxBatchResult[]> {
    return new Promise((resolve, reject) => {
      const req = { items: items.map(toWire) };
      this.raw.SubmitTxBatch(req, new grpc.Metadata(), { deadline: Date.now() + deadlineMs }, (err, res) =>
        err ? reject(err) : resolve((res as { results: WireSubmitTxBatchResult[] }).results),
      );
    });
  }

  /** StreamTx from a continuum_sequence (0 / omitted = live). */
  stream(fromSequence: bigint | string | number = 0): grpc.ClientReadableStream<WireTxBatch> {
    return this.raw.StreamTx({ from_sequence: String(fromSequence) });
  }

  close(): void {
    this.raw.close();
  }
}

function toWire(req: SubmitTxRequest): object {
  const b = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  if ('order' in req) return { order: { intent: b(req.order.intent), signature: b(req.order.signature) } };
  if ('cancel' in req) return { cancel: { data: b(req.cancel.data), signature: b(req.cancel.signature) } };
  if ('cancel_all' in req) {
    return { cancel_all: { data: b(req.cancel_all.data), signature: b(req.cancel_all.signature) } };
  }
  return {
    market: {
      base_mint: b(req.market.base_mint),
      quote_mint: b(req.market.quote_mint),
      name: req.market.name,
      kind: req.market.kind ?? '',
    },
  };
}
