/**
 * The blocks channel's source, over the chain's stored blocks: live, each new block detail
 * (already stored: the chain publishes after its write) as one `block` message, its detail's
 * text the one the chain made for it (Chain.latestDetailJson) rather than a second encoding;
 * replay, the stored block details of a height range, read from the store at the reader's
 * pace. The position is the height; the head is the last height published live.
 */
import { encodeJson } from '../wire/index.js';
import type { BlockDetail, ChainReader } from '../chain/core/index.js';
import { textFrame } from './frame.js';
import type { ChannelItem, ResumableSource, Unsubscribe } from './interface.js';
import { ItemListeners } from './listeners.js';
import { blockJson } from './messages.js';

/** What the source needs of the chain (its latest detail's text, when it has one, saves encoding it again). */
export type BlockReader = Pick<ChainReader, 'latestHeight' | 'readBlockDetails' | 'onBlock'> & {
  latestDetailJson?(): { height: number; json: string } | undefined;
};

export function blockItem(detail: BlockDetail, detailJson = encodeJson(detail)): ChannelItem {
  return {
    pos: detail.block.height,
    frame: textFrame(blockJson(detail.block.height, detail.block.last_tick, detailJson)),
  };
}

export class BlocksSource implements ResumableSource {
  private readonly listeners = new ItemListeners();
  private published: number;
  private readonly stop: Unsubscribe;

  constructor(private readonly chain: BlockReader) {
    this.published = chain.latestHeight();
    this.stop = chain.onBlock((detail) => {
      this.published = detail.block.height;
      const latest = chain.latestDetailJson?.();
      this.listeners.emit('', blockItem(detail, latest?.height === detail.block.height ? latest.json : undefined));
    });
  }

  head(): number {
    return this.published;
  }

  async *replay(_key: string, from: number, to: number): AsyncIterable<ChannelItem> {
    for await (const detail of this.chain.readBlockDetails(from, to)) yield blockItem(detail);
  }

  onItem(listener: (key: string, item: ChannelItem) => void): Unsubscribe {
    return this.listeners.add(listener);
  }

  close(): void {
    this.stop();
  }
}
