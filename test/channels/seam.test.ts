/**
 * The replay/live seam (seam.ts) alone, with a source whose live items are published while
 * the replay is reading: every position exactly once and in order, whatever the interleaving,
 * also when the held live items overflow the buffer and the store is read again; a feed that
 * stops mid-replay delivers nothing more.
 */
import { expect } from 'chai';
import { Feed, textFrame, type ChannelItem, type ResumableSource } from '../../src/channels/index.js';

/** Items 1..n stored; `publish` stores and announces the next. Replay yields to the event loop between items. */
class Source implements ResumableSource {
  stored: ChannelItem[] = [];
  published = 0;
  private listener?: (key: string, item: ChannelItem) => void;
  publish(): void {
    const pos = this.stored.length + 1;
    const item = { pos, frame: textFrame(`{"pos":${pos}}`) };
    this.stored.push(item);
    this.published = pos;
    this.listener?.('', item);
  }
  head(): number {
    return this.published;
  }
  async *replay(_key: string, from: number, to: number): AsyncIterable<ChannelItem> {
    for (let p = from; p <= to; p++) {
      await new Promise((resolve) => setImmediate(resolve));
      yield this.stored[p - 1]!;
    }
  }
  onItem(l: (key: string, item: ChannelItem) => void) {
    this.listener = l;
    return () => (this.listener = undefined);
  }
}

async function run(stored: number, from: number, liveDuring: number, bufferBytes: number): Promise<number[]> {
  const src = new Source();
  for (let i = 0; i < stored; i++) src.publish();
  const got: number[] = [];
  const feed = new Feed({ deliver: (it) => got.push(it.pos), room: async () => true }, from - 1, bufferBytes);
  src.onItem((_k, it) => feed.offer(it));
  let published = 0;
  const ticker = setInterval(() => {
    if (published++ < liveDuring) src.publish();
  }, 0);
  await feed.catchUp(src, '', from);
  while (published < liveDuring) await new Promise((resolve) => setTimeout(resolve, 1));
  clearInterval(ticker);
  src.publish(); // one more, live
  return got;
}

describe('channels: the replay/live seam', () => {
  it('replay then live: every position from `from` exactly once, in order', async () => {
    for (const from of [1, 17, 200, 201]) {
      const got = await run(200, from, 150, 1 << 20);
      const last = 200 + 150 + 1;
      expect(got, `from ${from}`).to.deep.equal(Array.from({ length: last - from + 1 }, (_, i) => from + i));
    }
  });

  it('held live items overflowing the buffer: the store is read again, still exactly once', async () => {
    const got = await run(300, 5, 300, 64);
    expect(got).to.deep.equal(Array.from({ length: 601 - 5 + 1 }, (_, i) => 5 + i));
  });

  it('a live-only feed drops positions it already has; a stopped feed delivers nothing', async () => {
    const got: number[] = [];
    const feed = new Feed({ deliver: (it) => got.push(it.pos), room: async () => true }, 10, 1 << 20);
    for (const pos of [9, 10, 11, 11, 12]) feed.offer({ pos, frame: Buffer.alloc(0) });
    feed.stop();
    feed.offer({ pos: 13, frame: Buffer.alloc(0) });
    expect(got).to.deep.equal([11, 12]);
    const src = new Source();
    for (let i = 0; i < 50; i++) src.publish();
    const got2: number[] = [];
    let f2: Feed | undefined;
    f2 = new Feed(
      { deliver: (it) => (got2.push(it.pos), it.pos === 20 && f2!.stop()), room: async () => true },
      0,
      1 << 20,
    );
    expect(await f2.catchUp(src, '', 1)).to.equal(false);
    expect(got2).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});
