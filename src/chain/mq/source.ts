/**
 * The producer's view of the chain: adapts the node's ChainReader (stored data only) to
 * MqSource. Records go out as stored: a transaction message is byte for byte the
 * ExplorerTransaction JSON that GET /transactions/:id answers, read without parsing it
 * (the few fields the producer needs are picked out of the text).
 *
 * Block body, the fullest form that fits the server's max_payload:
 *   1. {"block": BlockRecord, "events": [ExplorerEvent, ...], "markets": [MarketCreation, ...]}
 *   2. the same with transaction_ids, event_ids, continuum_sequences, events and markets emptied,
 *      and "truncated": true (fetch GET /blocks/:height for the lists)
 *   3. form 2 without batch_summaries
 */
import type { BlockDetail, BlockRecord, ChainReader, ExplorerTransaction } from '../core/index.js';
import { encodeJson, parseRecordJson } from '../../wire/index.js';
import type { MqBlock, MqSource, MqTx } from './interface.js';

const utf8 = new TextEncoder();

/** What the producer reads of the chain. */
export type StoredChain = Pick<
  ChainReader,
  'latestHeight' | 'lastStoredSequence' | 'readTransactionJsons' | 'readBlockJsons' | 'onTransactions' | 'onBlock'
>;

export function chainSource(chain: StoredChain): MqSource {
  return {
    latestHeight: () => chain.latestHeight(),
    async transactionsAfter(after, limit) {
      if (limit <= 0 || after >= chain.lastStoredSequence()) return [];
      const jsons = await chain.readTransactionJsons(after + 1n, limit);
      return jsons.map(storedTx);
    },
    async block(height) {
      const stored = await chain.readBlockJsons(height);
      if (!stored) return undefined;
      const block = parseRecordJson<BlockRecord>(stored.block);
      return blockOf(
        block,
        `{"block":${stored.block},"events":[${stored.events.join(',')}],"markets":[${stored.markets.join(',')}]}`,
      );
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

// Keys of the stored JSON (written by encodeJson). Inside a JSON string every '"' is
// escaped, so `"market_id":"` can only be the real key (as json.ts argues for its reader).
const ID = /"id":"([0-9a-f]{16}-[0-9a-f]{4,8}-[0-9a-f]{4,8})"/;
const HEIGHT = /"block_height":(\d{1,16})[,}]/;
const MARKET = /"market_id":"([^"\\]{1,128})"/;
const SEQUENCE = /"continuum_sequence":(\d{1,20})[,}]/;

/** A stored ExplorerTransaction JSON text as an MqTx, its bytes unchanged. */
export function storedTx(json: string): MqTx {
  const id = ID.exec(json)?.[1];
  const height = HEIGHT.exec(json)?.[1];
  const market = MARKET.exec(json)?.[1];
  const sequence = SEQUENCE.exec(json)?.[1];
  if (id === undefined || height === undefined || market === undefined || sequence === undefined) {
    throw new Error(
      `stored transaction record lacks id, block_height, market_id or continuum_sequence: ${json.slice(0, 120)}`,
    );
  }
  return { id, height: Number(height), marketId: market, continuumSequence: BigInt(sequence), body: utf8.encode(json) };
}

/** An ExplorerTransaction object as an MqTx (the same bytes as its stored JSON). */
export function mqTx(tx: ExplorerTransaction): MqTx {
  return {
    id: tx.id,
    height: tx.block_height,
    marketId: tx.market_id,
    continuumSequence: tx.continuum_sequence,
    body: utf8.encode(encodeJson(tx)),
  };
}

/** A block detail object as an MqBlock (the same bytes as from its stored JSON). */
export function mqBlock(detail: BlockDetail): MqBlock {
  return blockOf(detail.block, encodeJson({ block: detail.block, events: detail.events, markets: detail.markets }));
}

function blockOf(block: BlockRecord, fullJson: string): MqBlock {
  let last = 0n;
  for (const b of block.batch_summaries) for (const s of b.continuum_sequences) if (s > last) last = s;
  return {
    height: block.height,
    stateRoot: Buffer.from(block.state_root).toString('hex'),
    lastContinuumSequence: last,
    body(maxBytes) {
      const full = utf8.encode(fullJson);
      if (full.length <= maxBytes) return full;
      const lean: BlockRecord = {
        ...block,
        transaction_ids: [],
        event_ids: [],
        batch_summaries: block.batch_summaries.map((b) => ({ ...b, continuum_sequences: [] })),
      };
      const truncated = utf8.encode(encodeJson({ block: lean, events: [], markets: [], truncated: true }));
      if (truncated.length <= maxBytes) return truncated;
      return utf8.encode(
        encodeJson({ block: { ...lean, batch_summaries: [] }, events: [], markets: [], truncated: true }),
      );
    },
  };
}
