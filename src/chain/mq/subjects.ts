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
 * Headers of every message:
 *   Nats-Msg-Id             transaction id, or the block height in decimal (deduplication)
 *   Nats-Expected-Last-Sequence  set by the producer: the stream sequence it must follow
 *   Svc-Kind                tx | block
 *   Svc-Height              block height (of the transaction's block)
 *   Svc-Continuum-Sequence  transactions only, decimal
 *   Svc-State-Root          blocks only, 64 hex characters
 *
 * Order: the transactions of block h in continuum_sequence order, then block h, then those
 * of block h + 1, and so on: the stream's last message alone says where to resume.
 */
import type { MqBlock, MqMessage, MqTx } from './interface.js';

export const DEFAULT_STREAM = 'SVC';
export const DEFAULT_SUBJECT_PREFIX = 'svc';

export const HEADER_KIND = 'Svc-Kind';
export const HEADER_HEIGHT = 'Svc-Height';
export const HEADER_SEQUENCE = 'Svc-Continuum-Sequence';
export const HEADER_STATE_ROOT = 'Svc-State-Root';
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
}

export function subjects(stream = DEFAULT_STREAM, prefix = DEFAULT_SUBJECT_PREFIX): Subjects {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(stream)) throw new Error(`invalid JetStream stream name '${stream}'`);
  if (!/^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64})*$/.test(prefix)) throw new Error(`invalid subject prefix '${prefix}'`);
  return {
    stream,
    prefix,
    filters: [`${prefix}.tx.*`, `${prefix}.blocks`],
    // A market id that is not a valid token (never so for the node's UUIDs) goes to "_".
    tx: (marketId) => `${prefix}.tx.${TOKEN.test(marketId) ? marketId : '_'}`,
    blocks: `${prefix}.blocks`,
  };
}

export function txMessage(names: Subjects, tx: MqTx): MqMessage {
  return {
    kind: 'tx',
    subject: names.tx(tx.marketId),
    msgId: tx.id,
    headers: { [HEADER_KIND]: 'tx', [HEADER_HEIGHT]: String(tx.height), [HEADER_SEQUENCE]: tx.continuumSequence.toString() },
    data: tx.body,
    height: tx.height,
  };
}

export function blockMessage(names: Subjects, block: MqBlock, maxPayload: number): MqMessage {
  return {
    kind: 'block',
    subject: names.blocks,
    msgId: String(block.height),
    headers: { [HEADER_KIND]: 'block', [HEADER_HEIGHT]: String(block.height), [HEADER_STATE_ROOT]: block.stateRoot },
    // Headers and the producer's own ones travel in the same frame: leave them room.
    data: block.body(Math.max(1024, maxPayload - 1024)),
    height: block.height,
  };
}
