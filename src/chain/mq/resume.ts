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
 */
import type { MqCursor, MqSource } from './interface.js';
import { HEADER_HEIGHT, HEADER_KIND, HEADER_MSG_ID, HEADER_SEQUENCE, HEADER_STATE_ROOT } from './subjects.js';

/** The stream's last message, as read back. */
export interface LastMessage {
  seq: number;
  subject: string;
  header(name: string): string | undefined;
  data: Uint8Array;
}

export type ResumePoint =
  | { kind: 'resume'; cursor: MqCursor; note?: string }
  | { kind: 'wait'; reason: string }
  | { kind: 'diverged'; reason: string };

const DECIMAL = /^(0|[1-9]\d{0,19})$/;

export async function resumePoint(source: MqSource, last: LastMessage | undefined, streamLastSeq: number): Promise<ResumePoint> {
  if (!last) {
    if (streamLastSeq === 0) return { kind: 'resume', cursor: { lastTx: 0n, nextHeight: 1 } };
    const latest = source.latestHeight();
    const block = latest > 0 ? await source.block(latest) : undefined;
    return {
      kind: 'resume',
      cursor: { lastTx: block?.lastContinuumSequence ?? 0n, nextHeight: latest + 1 },
      note: `the stream held ${streamLastSeq} messages and none is left (expired or purged): resuming after block ${latest}`,
    };
  }
  const kind = last.header(HEADER_KIND);
  const heightText = last.header(HEADER_HEIGHT) ?? '';
  if ((kind !== 'tx' && kind !== 'block') || !DECIMAL.test(heightText)) {
    return { kind: 'diverged', reason: `the stream's last message (seq ${last.seq}, subject ${last.subject}) was not published by svc` };
  }
  const height = Number(heightText);

  if (kind === 'block') {
    const root = last.header(HEADER_STATE_ROOT);
    const block = await source.block(height);
    if (!block) return { kind: 'wait', reason: `the stream holds block ${height}; this node has stored up to ${source.latestHeight()}` };
    if (block.stateRoot !== root) {
      return { kind: 'diverged', reason: `block ${height} in the stream has state root ${root}, this node's is ${block.stateRoot}` };
    }
    return { kind: 'resume', cursor: { lastTx: block.lastContinuumSequence, nextHeight: height + 1 } };
  }

  const seqText = last.header(HEADER_SEQUENCE) ?? '';
  if (!DECIMAL.test(seqText) || BigInt(seqText) === 0n) {
    return { kind: 'diverged', reason: `the stream's last message (seq ${last.seq}) has no valid ${HEADER_SEQUENCE}` };
  }
  const sequence = BigInt(seqText);
  const [tx] = await source.transactionsAfter(sequence - 1n, 1);
  if (!tx) return { kind: 'wait', reason: `the stream holds transaction ${sequence}; this node has not stored it yet` };
  if (tx.continuumSequence !== sequence || tx.id !== last.header(HEADER_MSG_ID) || !sameBytes(tx.body, last.data)) {
    return { kind: 'diverged', reason: `transaction ${last.header(HEADER_MSG_ID)} (continuum_sequence ${sequence}) in the stream differs from this node's` };
  }
  return { kind: 'resume', cursor: { lastTx: sequence, nextHeight: tx.height } };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
