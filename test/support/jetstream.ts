/**
 * Reads a whole JetStream stream back (an ordered consumer, as a user would) and checks it
 * against the publication order the node promises: every transaction and block exactly
 * once, in order, each with its deduplication id.
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { expect } from 'chai';

export interface StreamMessage {
  seq: number;
  subject: string;
  msgId: string;
  headers: Record<string, string>;
  data: Uint8Array;
  /** When the stream stored it (the leader's clock), in ms since the epoch. */
  storedMs: number;
  json<T = unknown>(): T;
}

/** Client credentials for a server started with --user/--pass (nats-server.ts NatsAuth). */
export interface ClientAuth {
  user: string;
  pass: string;
}

export async function streamLastSeq(url: string, stream = 'SVC', auth?: ClientAuth): Promise<number> {
  const nc = await connect({ servers: url.split(','), ...auth });
  try {
    const jsm = await jetstreamManager(nc);
    return (await jsm.streams.info(stream)).state.last_seq;
  } catch {
    return 0;
  } finally {
    await nc.close();
  }
}

/** Every message of the stream, in stream order. */
export async function readStream(url: string, stream = 'SVC', auth?: ClientAuth): Promise<StreamMessage[]> {
  const nc = await connect({ servers: url.split(','), ...auth });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(stream);
    const out: StreamMessage[] = [];
    if (info.state.messages === 0) return out;
    const consumer = await jetstream(nc).consumers.get(stream, { opt_start_seq: info.state.first_seq });
    const messages = await consumer.consume({ max_messages: 1000 });
    for await (const m of messages) {
      const headers: Record<string, string> = {};
      for (const k of m.headers?.keys() ?? []) headers[k] = m.headers!.get(k);
      const data = m.data;
      out.push({
        seq: m.seq,
        subject: m.subject,
        msgId: headers['Nats-Msg-Id'] ?? '',
        headers,
        data,
        storedMs: Number(m.timestampNanos / 1_000_000n),
        json: <T>() => JSON.parse(new TextDecoder().decode(data)) as T,
      });
      if (m.seq >= info.state.last_seq) break;
    }
    await messages.close();
    return out;
  } finally {
    await nc.close();
  }
}

/** What the stream must hold: per block, its transaction ids in order, then the block. */
export interface ExpectedBlock {
  height: number;
  txIds: string[];
  marketIds: string[]; // per transaction
}

export function expectedIds(blocks: ExpectedBlock[]): string[] {
  return blocks.flatMap((b) => [...b.txIds, String(b.height)]);
}

/** Asserts no gap, no duplicate, right order, right subjects and dedup ids, headers only those two. */
export function checkStream(messages: StreamMessage[], blocks: ExpectedBlock[], prefix = 'svc'): void {
  const ids = messages.map((m) => m.msgId);
  expect(new Set(ids).size, 'no duplicate Nats-Msg-Id').to.equal(ids.length);
  const want = expectedIds(blocks);
  expect(ids.length, 'message count').to.equal(want.length);
  expect(ids).to.deep.equal(want);
  let i = 0;
  for (const b of blocks) {
    b.txIds.forEach((id, k) => {
      const m = messages[i++]!;
      expect(m.subject).to.equal(`${prefix}.tx.${b.marketIds[k]}`);
      expect(m.msgId).to.equal(id);
      expect(m.json<{ id: string; block_height: number }>()).to.deep.include({ id, block_height: b.height });
    });
    const blk = messages[i++]!;
    expect(blk.subject).to.equal(`${prefix}.blocks`);
    expect(blk.json<{ block: { height: number } }>().block.height).to.equal(b.height);
  }
  for (let k = 1; k < messages.length; k++) expect(messages[k]!.seq).to.equal(messages[k - 1]!.seq + 1);
  for (const m of messages)
    expect(Object.keys(m.headers).sort()).to.deep.equal(['Nats-Expected-Last-Sequence', 'Nats-Msg-Id']);
}

export const isBlock = (m: StreamMessage) => m.subject.endsWith('.blocks');
export const isTx = (m: StreamMessage) => !isBlock(m);
