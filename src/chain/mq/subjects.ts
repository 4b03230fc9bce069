/**
 * Names and message shapes of the JetStream producer, written once (docs/chain.md
 * "JetStream"):
 *
 *   stream  SVC (file storage, limits retention, one writer: the node)
 *   svc.tx.<market_id>   one message per sequenced order book transaction
 *                        body: the ExplorerTransaction JSON (as GET /transactions/:id)
 *   svc.blocks           one message per block
 *                        body: {"block": BlockRecord, "events": [ExplorerEvent]} (smaller forms
 *                        when that exceeds the server's max_payload, see source.ts)
 *
 * Headers of every message (nothing else: the subject says the kind, the body the rest):
 *   Nats-Msg-Id                  transaction id, or the block height in decimal (deduplication)
 *   Nats-Expected-Last-Sequence  the stream sequence the message must follow (no gap)
 *
 * Order: the transactions of block h in continuum_sequence order, then block h, then those
 * of block h + 1, and so on: the stream's last message alone says where to resume.
 */
import type { MqBlock, MqMessage, MqTx } from './interface.js';

export const DEFAULT_STREAM = 'SVC';
export const DEFAULT_SUBJECT_PREFIX = 'svc';

export const HEADER_MSG_ID = 'Nats-Msg-Id';

/** A subject token may not hold '.', '*', '>' or white space; market ids are UUID text. */
const TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

export interface Subjects {
  stream: string;
  prefix: string;
  /** The subjects the stream must capture. */
  filters: string[];
  tx(marketId: string): string;
  blocks: string;
  /** What a subject of this stream carries, or undefined for a foreign one. */
  kindOf(subject: string): 'tx' | 'block' | undefined;
}

export function subjects(stream = DEFAULT_STREAM, prefix = DEFAULT_SUBJECT_PREFIX): Subjects {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(stream)) throw new Error(`invalid JetStream stream name '${stream}'`);
  if (!/^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64})*$/.test(prefix))
    throw new Error(`invalid subject prefix '${prefix}'`);
  return {
    stream,
    prefix,
    filters: [`${prefix}.tx.*`, `${prefix}.blocks`],
    // A market id that is not a valid token (never so for the node's UUIDs) goes to "_".
    tx: (marketId) => `${prefix}.tx.${TOKEN.test(marketId) ? marketId : '_'}`,
    blocks: `${prefix}.blocks`,
    kindOf: (subject) =>
      subject === `${prefix}.blocks` ? 'block' : subject.startsWith(`${prefix}.tx.`) ? 'tx' : undefined,
  };
}

export function txMessage(names: Subjects, tx: MqTx): MqMessage {
  return {
    kind: 'tx',
    subject: names.tx(tx.marketId),
    msgId: tx.id,
    data: tx.body,
    height: tx.height,
  };
}

export function blockMessage(names: Subjects, block: MqBlock, maxPayload: number): MqMessage {
  return {
    kind: 'block',
    subject: names.blocks,
    msgId: String(block.height),
    // The headers travel in the same frame: leave them room.
    data: block.body(Math.max(1024, maxPayload - 1024)),
    height: block.height,
  };
}
