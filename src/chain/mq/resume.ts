/**
 * Where to resume, from the stream's last message: pure over the stored chain. The last
 * message must be one this node would publish at that place (same transaction bytes, or
 * same block height and state root); otherwise the stream holds another chain and the
 * producer refuses to write to it rather than mix two chains.
 *
 *   stream never held a message      -> from the first transaction
 *   last message is block h          -> after block h
 *   last message is transaction t    -> after t (its block comes next once it is complete)
 *   it is beyond the node's chain    -> wait: the node has not stored that far yet
 *   stream held messages, none left  -> (all expired or purged) after the node's latest block
 *
 * A resume point also says which stream sequence the first publish must follow
 * (`lastSeq`): the sequence of the message it resumes after, never lower. The stream's
 * info and its last message are two answers; publishes of a failed session can land
 * between them (late acks, a new leader applying what the old one proposed), so the info's
 * last sequence may be older than the message read after it. Numbered from the older
 * figure, the session's first publishes are refused, but a later one of the same window
 * expects exactly the stream's real last sequence and lands after a hole. Numbered from
 * the message itself, every publish either fits its one place or is refused (a duplicate
 * Nats-Msg-Id, a wrong last sequence). A higher info figure (messages of other subjects
 * after the node's last one) is kept: the node's next message goes after them.
 */
import { parseRecordJson } from '../../wire/index.js';
import type { MqCursor, MqSource } from './interface.js';
import type { Subjects } from './subjects.js';

/** The stream's last message, as read back. */
export interface LastMessage {
  seq: number;
  subject: string;
  data: Uint8Array;
}

export type ResumePoint =
  /** `lastSeq`: the stream sequence the first publish must follow (Nats-Expected-Last-Sequence). */
  | { kind: 'resume'; cursor: MqCursor; lastSeq: number; note?: string }
  /** `streamHeight`: the last block the stream holds (what svc_mq_published_height reports meanwhile). */
  | { kind: 'wait'; reason: string; streamHeight: number }
  | { kind: 'diverged'; reason: string };

const utf8 = new TextDecoder();

/** The fields resume needs from a message body, or undefined when it is not one of ours. */
function read(
  kind: 'tx' | 'block',
  data: Uint8Array,
): { height: number; sequence?: bigint; root?: string } | undefined {
  try {
    if (kind === 'tx') {
      const tx = parseRecordJson<{ block_height?: unknown; continuum_sequence?: unknown }>(utf8.decode(data));
      if (
        typeof tx.continuum_sequence !== 'bigint' ||
        tx.continuum_sequence <= 0n ||
        !Number.isSafeInteger(tx.block_height)
      )
        return undefined;
      return { height: tx.block_height as number, sequence: tx.continuum_sequence };
    }
    const body = parseRecordJson<{ block?: { height?: unknown; state_root?: unknown } }>(utf8.decode(data));
    const b = body.block;
    if (!b || !Number.isSafeInteger(b.height) || !Array.isArray(b.state_root) || b.state_root.length !== 32)
      return undefined;
    return { height: b.height as number, root: Buffer.from(b.state_root as number[]).toString('hex') };
  } catch {
    return undefined;
  }
}

export async function resumePoint(
  source: MqSource,
  names: Subjects,
  last: LastMessage | undefined,
  streamLastSeq: number,
): Promise<ResumePoint> {
  if (!last) {
    if (streamLastSeq === 0) return { kind: 'resume', cursor: { lastTx: 0n, nextHeight: 1 }, lastSeq: 0 };
    const latest = source.latestHeight();
    const block = latest > 0 ? await source.block(latest) : undefined;
    return {
      kind: 'resume',
      cursor: { lastTx: block?.lastContinuumSequence ?? 0n, nextHeight: latest + 1 },
      lastSeq: streamLastSeq,
      note: `the stream held ${streamLastSeq} messages and none is left (expired or purged): resuming after block ${latest}`,
    };
  }
  const lastSeq = Math.max(last.seq, streamLastSeq);
  const kind = names.kindOf(last.subject);
  const fields = kind && read(kind, last.data);
  if (!kind || !fields) {
    return {
      kind: 'diverged',
      reason: `the stream's last message (seq ${last.seq}, subject ${last.subject}) was not published by svc`,
    };
  }

  if (kind === 'block') {
    const block = await source.block(fields.height);
    if (!block)
      return {
        kind: 'wait',
        reason: `the stream holds block ${fields.height}; this node has stored up to ${source.latestHeight()}`,
        streamHeight: fields.height,
      };
    if (block.stateRoot !== fields.root) {
      return {
        kind: 'diverged',
        reason: `block ${fields.height} in the stream has state root ${fields.root}, this node's is ${block.stateRoot}`,
      };
    }
    return { kind: 'resume', cursor: { lastTx: block.lastContinuumSequence, nextHeight: fields.height + 1 }, lastSeq };
  }

  const sequence = fields.sequence!;
  const [tx] = await source.transactionsAfter(sequence - 1n, 1);
  // A transaction of block h is published before block h: the stream holds blocks up to h - 1.
  if (!tx)
    return {
      kind: 'wait',
      reason: `the stream holds transaction ${sequence} of block ${fields.height}; this node has not stored it yet`,
      streamHeight: fields.height - 1,
    };
  if (tx.continuumSequence !== sequence || !sameBytes(tx.body, last.data)) {
    return {
      kind: 'diverged',
      reason: `the transaction with continuum_sequence ${sequence} in the stream differs from this node's`,
    };
  }
  return { kind: 'resume', cursor: { lastTx: sequence, nextHeight: tx.height }, lastSeq };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
