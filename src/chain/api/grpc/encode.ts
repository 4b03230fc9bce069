/**
 * Encoding of svc.chain.v1 messages (proto/svc/chain/v1/chain.proto) with the node's one
 * protobuf writer (src/wire): a StreamTx message (TxBatch) is encoded ONCE
 * and the same bytes go to every stream. u64 fields stay exact (bigint). Field numbers
 * must match the .proto; test/chain/api/grpc.test.ts decodes them with proto-loader.
 */
import { ScratchWriter, Writer } from '../../../wire/index.js';
import type { ExplorerTransaction, MarketCreation, TransactionBatch } from '../../core/index.js';

export function writeExplorerTransaction(w: Writer, t: ExplorerTransaction): void {
  w.string(1, t.id).uint(2, t.block_height).uint(3, t.batch_index).string(4, t.kind);
  w.string(5, t.market_id)
    .string(6, t.market_name)
    .string(7, t.market_kind)
    .string(8, t.owner)
    .string(9, t.side ?? '');
  w.uint64(10, t.price ?? 0n)
    .uint64(11, t.quantity ?? 0n)
    .string(12, t.base_mint ?? '')
    .string(13, t.quote_mint ?? '');
  w.uint64(14, t.order_id).uint(15, t.timestamp_ms).uint64(16, t.continuum_sequence).string(17, t.signature);
  w.uint(18, t.tick_number)
    .uint(19, t.sequence_number)
    .string(20, t.tx_hash)
    .uint64(21, t.expiry ?? 0n);
  w.string(22, t.status ?? '')
    .uint64(23, t.filled_quantity ?? 0n)
    .uint64(24, t.cancelled_quantity ?? 0n);
  // repeated uint64, unpacked: every id written, 0 included
  for (const id of t.cancelled_order_ids ?? []) w.varint(25 << 3).varint64(id);
}

const batchScratch = new ScratchWriter();

/** One StreamTx message, built in scratch space and copied out at its exact size. */
export function encodeTxBatch(b: TransactionBatch): Buffer {
  return batchScratch.encode((w) => {
    w.uint(1, b.tick_number).uint(2, b.block_height).uint(3, b.batch_index).string(4, b.batch_hash);
    for (const t of b.transactions) w.nested(5, (inner) => writeExplorerTransaction(inner, t));
  });
}

export function writeMarketCreation(w: Writer, m: MarketCreation): void {
  w.string(1, m.id)
    .uint(2, m.block_height)
    .uint(3, m.batch_index)
    .string(4, m.market_id)
    .string(5, m.market_name)
    .string(6, m.market_kind);
  w.string(7, m.base_mint).string(8, m.quote_mint).uint(9, m.timestamp_ms).uint64(10, m.continuum_sequence);
  w.uint(11, m.tick_number).uint(12, m.sequence_number).string(13, m.tx_hash);
}

/**
 * SubmitTxResponse: the stored record in `transaction` (an order, a cancel or a mass
 * cancel) or `market` (a market creation).
 */
export function encodeSubmitTxResponse(t: ExplorerTransaction | MarketCreation): Buffer {
  const w = new Writer(512);
  w.uint(1, t.sequence_number)
    .uint(2, t.tick_number)
    .string(3, t.id)
    .uint64(4, t.continuum_sequence)
    .uint(5, t.block_height)
    .string(6, t.tx_hash);
  if ('kind' in t) w.nested(7, (inner) => writeExplorerTransaction(inner, t));
  else w.nested(8, (inner) => writeMarketCreation(inner, t));
  return w.finish();
}
