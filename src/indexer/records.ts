/**
 * The stream's messages as the indexer reads them (docs/chain.md "Message queue"): a
 * transaction message's body is kept as published (GET /transactions/:id's bytes); a block
 * message is split into its BlockRecord, events and market creations, each re-encoded with
 * the node's one JSON codec, which gives back the node's stored bytes (the producer builds
 * the message by joining exactly those). Anything else in the stream is a DecodeError: the
 * indexer stops there rather than skip it.
 */
import { createHash } from 'node:crypto';
import type { BlockRecord, ExplorerEvent, ExplorerTransaction, MarketCreation } from '../chain/core/index.js';
import { parseId } from '../chain/core/index.js';
import { encodeJson, parseRecordJson } from '../wire/index.js';

export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

export interface TxRecord {
  kind: 'tx';
  seq: number;
  sha256: Buffer;
  json: string;
  tx: ExplorerTransaction;
  batch: number;
  index: number;
}

export interface BlockMessage {
  kind: 'block';
  seq: number;
  sha256: Buffer;
  block: BlockRecord;
  blockJson: string;
  events: Array<{ json: string; event: ExplorerEvent }>;
  markets: Array<{ json: string; market: MarketCreation; batch: number; index: number }>;
  /** Published in its smaller form (larger than the server's max_payload). */
  truncated: boolean;
}

export type StreamRecord = TxRecord | BlockMessage;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One stream message; `prefix` is the subjects' first token (svc). */
export function decodeMessage(seq: number, subject: string, data: Uint8Array, prefix: string): StreamRecord {
  const sha256 = createHash('sha256').update(data).digest();
  let text: string;
  try {
    text = utf8.decode(data);
  } catch {
    throw new DecodeError(`stream message ${seq} (${subject}) is not UTF-8`);
  }
  if (subject === `${prefix}.blocks`) return decodeBlock(seq, sha256, text);
  if (subject.startsWith(`${prefix}.tx.`)) return decodeTx(seq, sha256, text, subject);
  throw new DecodeError(
    `stream message ${seq} has subject ${subject}, which is neither ${prefix}.tx.* nor ${prefix}.blocks`,
  );
}

function decodeTx(seq: number, sha256: Buffer, json: string, subject: string): TxRecord {
  const tx = parse<ExplorerTransaction>(seq, json);
  const known = tx.kind === 'order' || tx.kind === 'cancel' || tx.kind === 'cancel_all';
  if (typeof tx.id !== 'string' || !known || typeof tx.owner !== 'string') {
    throw new DecodeError(`stream message ${seq} (${subject}) is not an ExplorerTransaction`);
  }
  const id = parseId(tx.id, 'transaction id');
  if (typeof id === 'string') throw new DecodeError(`stream message ${seq}: ${id}`);
  if (id.height !== tx.block_height)
    throw new DecodeError(`stream message ${seq}: id ${tx.id} is not of block ${tx.block_height}`);
  if (tx.kind === 'order' && (tx.price === undefined || tx.quantity === undefined || tx.side === undefined)) {
    throw new DecodeError(`stream message ${seq}: order ${tx.id} lacks side, price or quantity`);
  }
  if (tx.kind === 'cancel_all' && !Array.isArray(tx.cancelled_order_ids)) {
    throw new DecodeError(`stream message ${seq}: mass cancel ${tx.id} lacks cancelled_order_ids`);
  }
  return { kind: 'tx', seq, sha256, json, tx, batch: id.batch, index: id.index };
}

function decodeBlock(seq: number, sha256: Buffer, text: string): BlockMessage {
  const body = parse<{ block: BlockRecord; events: ExplorerEvent[]; markets: MarketCreation[]; truncated?: boolean }>(
    seq,
    text,
  );
  const block = body.block;
  if (!block || typeof block.height !== 'number' || !Array.isArray(body.events) || !Array.isArray(body.markets)) {
    throw new DecodeError(`stream message ${seq} (block) is not {block, events, markets}`);
  }
  const markets = body.markets.map((market) => {
    const id = parseId(market.id, 'market creation id');
    if (typeof id === 'string') throw new DecodeError(`stream message ${seq}: ${id}`);
    return { json: encodeJson(market), market, batch: id.batch, index: id.index };
  });
  return {
    kind: 'block',
    seq,
    sha256,
    block,
    blockJson: encodeJson(block),
    events: body.events.map((event) => ({ json: encodeJson(event), event })),
    markets,
    truncated: body.truncated === true,
  };
}

function parse<T>(seq: number, text: string): T {
  try {
    return parseRecordJson<T>(text);
  } catch (err) {
    throw new DecodeError(`stream message ${seq} is not JSON: ${(err as Error).message}`);
  }
}
