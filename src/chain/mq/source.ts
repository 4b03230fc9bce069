/**
 * The producer's view of the chain: adapts the node's ChainReader (stored data only) to
 * MqSource, and renders the message bodies with the chain's own JSON writer, so a
 * transaction in the stream is byte for byte the ExplorerTransaction that
 * GET /transactions/:id answers.
 *
 * Block body, the fullest form that fits the server's max_payload:
 *   1. {"block": BlockRecord, "events": [ExplorerEvent, ...]}
 *   2. the same with transaction_ids, event_ids, continuum_sequences and events emptied,
 *      and "truncated": true (fetch GET /blocks/:height for the lists)
 *   3. form 2 without batch_summaries
 */
import type { BlockDetail, BlockRecord, ChainReader, ExplorerTransaction } from '../interface.js';
import { encodeJson } from '../json.js';
import type { MqBlock, MqSource, MqTx } from './interface.js';

const utf8 = new TextEncoder();

export function chainSource(chain: ChainReader): MqSource {
  return {
    latestHeight: () => chain.latestHeight(),
    async transactionsAfter(after, limit) {
      const out: MqTx[] = [];
      if (limit <= 0 || after >= chain.lastStoredSequence()) return out;
      for await (const batch of chain.readTransactionsFrom(after + 1n)) {
        for (const tx of batch.transactions) {
          if (tx.continuum_sequence <= after) continue;
          out.push(mqTx(tx));
          if (out.length >= limit) return out; // leaving the loop closes the reader
        }
      }
      return out;
    },
    async block(height) {
      const detail = await chain.readBlock(height);
      return detail && mqBlock(detail);
    },
    onStored(listener) {
      const offTx = chain.onTransactions(() => listener());
      const offBlock = chain.onBlock(() => listener());
      return () => {
        offTx();
        offBlock();
      };
    },
  };
}

export function mqTx(tx: ExplorerTransaction): MqTx {
  return { id: tx.id, height: tx.block_height, marketId: tx.market_id, continuumSequence: tx.continuum_sequence, body: utf8.encode(encodeJson(tx)) };
}

export function mqBlock(detail: BlockDetail): MqBlock {
  const { block, transactions, events } = detail;
  let last = 0n;
  for (const tx of transactions) if (tx.continuum_sequence > last) last = tx.continuum_sequence;
  return {
    height: block.height,
    stateRoot: Buffer.from(block.state_root).toString('hex'),
    lastContinuumSequence: last,
    body(maxBytes) {
      const full = utf8.encode(encodeJson({ block, events }));
      if (full.length <= maxBytes) return full;
      const lean: BlockRecord = {
        ...block,
        transaction_ids: [],
        event_ids: [],
        batch_summaries: block.batch_summaries.map((b) => ({ ...b, continuum_sequences: [] })),
      };
      const truncated = utf8.encode(encodeJson({ block: lean, events: [], truncated: true }));
      if (truncated.length <= maxBytes) return truncated;
      return utf8.encode(encodeJson({ block: { ...lean, batch_summaries: [] }, events: [], truncated: true }));
    },
  };
}
