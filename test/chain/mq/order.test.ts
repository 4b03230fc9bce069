/**
 * The publication order and the resume point, in-process over an in-memory stored chain:
 * transactions of block h, then block h, then block h + 1's; a block waits until it is
 * stored; the walk is the same whatever page size reads it; the stream's last message
 * (transaction, block, foreign, ahead of the node, another chain) gives the right answer.
 */
import { expect } from 'chai';
import {
  planNext,
  resumePoint,
  subjects,
  type LastMessage,
  type MqCursor,
  type MqMessage,
} from '../../../src/chain/mq/index.js';
import { FakeChain } from './fake-chain.js';

const names = subjects();
const MAX = 1 << 20;

async function walk(
  chain: FakeChain,
  room: number,
  from: MqCursor = { lastTx: 0n, nextHeight: 1 },
): Promise<{ messages: MqMessage[]; cursor: MqCursor }> {
  const messages: MqMessage[] = [];
  let cursor = from;
  for (;;) {
    const plan = await planNext(chain, names, cursor, room, MAX);
    if (plan.messages.length === 0) return { messages, cursor };
    expect(plan.messages.length).to.be.at.most(room);
    messages.push(...plan.messages);
    cursor = plan.cursor;
  }
}

function lastOf(m: MqMessage, seq: number): LastMessage {
  return { seq, subject: m.subject, data: m.data };
}

const text = (s: string) => new TextEncoder().encode(s);

describe('chain/mq: publication order', () => {
  it('puts each block after its transactions, and waits for a block that is not stored yet', async () => {
    const chain = new FakeChain();
    chain.grow(2, 2, 2);
    chain.addTick(3); // block 3 is open: its transactions are stored, the block is not
    const { messages, cursor } = await walk(chain, 1000);
    const ids = messages.map((m) => m.msgId);
    expect(ids).to.deep.equal([
      ...chain.blocks[0]!.txs.map((t) => t.id),
      '1',
      ...chain.blocks[1]!.txs.map((t) => t.id),
      '2',
      ...chain.txs.slice(8).map((t) => t.id),
    ]);
    expect(cursor.nextHeight).to.equal(3);
    expect(messages.filter((m) => m.kind === 'block').map((m) => m.subject)).to.deep.equal([
      'svc.blocks',
      'svc.blocks',
    ]);
    expect(messages[0]!.subject).to.equal(`svc.tx.${chain.txs[0]!.marketId}`);
    expect(messages.map((m) => m.kind).join('')).to.equal('txtxtxtxblocktxtxtxtxblocktxtxtx');
    expect(messages[0]!.data).to.equal(chain.txs[0]!.body);
    expect(messages[4]!.height).to.equal(1);

    // Block 4's transactions stored before block 3 is: they wait behind it.
    const again = await walk(chain, 1000, cursor);
    expect(again.messages).to.have.length(0);
    chain.cutBlock();
    chain.addTick(1);
    const rest = await walk(chain, 1000, cursor);
    expect(rest.messages.map((m) => m.msgId)).to.deep.equal(['3', chain.txs.at(-1)!.id]);
  });

  it('gives the same messages whatever the page size', async () => {
    const chain = new FakeChain();
    chain.grow(7, 3, 5);
    const all = (await walk(chain, 10_000)).messages.map((m) => m.msgId);
    expect(all).to.have.length(7 * 16);
    for (const room of [1, 2, 3, 15, 16, 17, 64]) {
      expect(
        (await walk(chain, room)).messages.map((m) => m.msgId),
        `room ${room}`,
      ).to.deep.equal(all);
    }
  });

  it('hands the block body the server max payload less header room', async () => {
    const chain = new FakeChain();
    chain.grow(1, 1, 40);
    const big = await planNext(chain, names, { lastTx: 0n, nextHeight: 1 }, 100, MAX);
    const small = await planNext(chain, names, { lastTx: 0n, nextHeight: 1 }, 100, 2048);
    const body = (p: typeof big) =>
      JSON.parse(new TextDecoder().decode(p.messages.at(-1)!.data)) as { truncated?: boolean };
    expect(body(big).truncated).to.equal(undefined);
    expect(body(small).truncated).to.equal(true);
  });

  it('resumes after the stream last message: nothing, a transaction, a block', async () => {
    const chain = new FakeChain();
    chain.grow(3, 2, 2);
    const { messages } = await walk(chain, 1000);
    expect(await resumePoint(chain, names, undefined, 0)).to.deep.equal({
      kind: 'resume',
      cursor: { lastTx: 0n, nextHeight: 1 },
      lastSeq: 0,
    });
    for (let i = 0; i < messages.length; i++) {
      const point = await resumePoint(chain, names, lastOf(messages[i]!, i + 1), i + 1);
      expect(point).to.deep.include({ kind: 'resume', lastSeq: i + 1 });
      const rest = await walk(chain, 1000, (point as { cursor: MqCursor }).cursor);
      expect(
        rest.messages.map((m) => m.msgId),
        `after message ${i}`,
      ).to.deep.equal(messages.slice(i + 1).map((m) => m.msgId));
    }
  });

  it('numbers the next publish after the message it resumes from, or after later ones of other subjects', async () => {
    const chain = new FakeChain();
    chain.grow(3, 2, 2);
    const { messages } = await walk(chain, 1000);
    // The info said 9, the last message read after it is the 12th: late publishes of a failed session.
    const late = await resumePoint(chain, names, lastOf(messages[11]!, 12), 9);
    expect(late).to.deep.include({ kind: 'resume', lastSeq: 12 });
    // Messages 6..9 of other subjects after the node's 5th: its next one goes after them.
    expect(await resumePoint(chain, names, lastOf(messages[4]!, 5), 9)).to.deep.include({ kind: 'resume', lastSeq: 9 });
  });

  it('resumes after the latest block when the stream held messages and none is left', async () => {
    const chain = new FakeChain();
    chain.grow(2);
    const point = await resumePoint(chain, names, undefined, 99);
    const lastTx = chain.blocks[1]!.txs.at(-1)!.continuumSequence;
    expect(point).to.deep.include({ kind: 'resume', cursor: { lastTx, nextHeight: 3 }, lastSeq: 99 });
  });

  it('waits when the stream is ahead of the node, refuses another chain or a foreign message', async () => {
    const ours = new FakeChain('ours');
    const theirs = new FakeChain('theirs');
    ours.grow(2);
    theirs.grow(4);
    const theirMessages = (await walk(theirs, 1000)).messages;
    const block4 = theirMessages.at(-1)!;
    expect((await resumePoint(ours, names, lastOf(block4, 28), 28)).kind).to.equal('wait');
    const block2 = theirMessages.find((m) => m.msgId === '2')!;
    const diverged = await resumePoint(ours, names, lastOf(block2, 14), 14);
    expect(diverged.kind).to.equal('diverged');
    expect((diverged as { reason: string }).reason).to.match(/state root/);

    const tx = theirMessages[0]!;
    const altered: LastMessage = { ...lastOf(tx, 1), data: new TextEncoder().encode('{"other":1}') };
    expect((await resumePoint(ours, names, altered, 1)).kind).to.equal('diverged');
    const beyond = theirMessages[22]!; // a transaction of block 4
    expect((await resumePoint(ours, names, lastOf(beyond, 23), 23)).kind).to.equal('wait');

    for (const foreign of [
      { seq: 5, subject: 'svc.tx.x', data: text('not json') },
      { seq: 5, subject: 'svc.tx.x', data: text('{"block_height":1,"continuum_sequence":-3}') },
      { seq: 5, subject: 'svc.tx.x', data: text('{"block_height":"1","continuum_sequence":12}') },
      { seq: 5, subject: 'svc.blocks', data: text('{"block":{"height":1,"state_root":[1,2,3]}}') },
      { seq: 5, subject: 'other.thing', data: block2.data },
    ]) {
      const point = await resumePoint(ours, names, foreign, 5);
      expect(point.kind, new TextDecoder().decode(foreign.data)).to.equal('diverged');
      expect((point as { reason: string }).reason).to.match(/was not published by svc/);
    }
  });

  it('rejects bad stream names and prefixes, and maps odd market ids to one subject token', () => {
    expect(() => subjects('a.b')).to.throw(/stream name/);
    expect(() => subjects('SVC', 'svc.')).to.throw(/prefix/);
    expect(() => subjects('SVC', 'svc >')).to.throw(/prefix/);
    const n = subjects('SVC2', 'dev.svc');
    expect(n.filters).to.deep.equal(['dev.svc.tx.*', 'dev.svc.blocks']);
    expect(n.tx('a.b')).to.equal('dev.svc.tx._');
    expect(n.tx('*')).to.equal('dev.svc.tx._');
  });
});
