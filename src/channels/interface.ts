/**
 * Types of the channels (docs/chain.md "Channels"): the client's parsed requests, the
 * encoded items a channel carries, and the sources each channel kind reads from. A source
 * gives stored items (replay) and live ones (in order, after they are stored); the hub
 * (hub.ts) fans them out and the seam (seam.ts) joins replay and live without a gap or a
 * duplicate.
 */

import type { LevelRow } from './book-levels.js';

export type ChannelKind = 'blocks' | 'orders' | 'book';

/** One subscription request, as the parser (parse.ts) accepted it. */
export type SubscribeRequest =
  | { op: 'subscribe'; id: string | number; channel: 'blocks'; fromHeight?: number }
  | { op: 'subscribe'; id: string | number; channel: 'orders'; owner: string; fromSequence?: number }
  | { op: 'subscribe'; id: string | number; channel: 'book'; marketId: string };

export type ClientRequest = SubscribeRequest | { op: 'unsubscribe'; id: string | number };

/**
 * One message of a channel, encoded once: `pos` is its position in the channel (block
 * height, owner sequence, book sequence), `frame` the whole WebSocket text frame (header and
 * JSON), the same bytes for every subscriber.
 */
export interface ChannelItem {
  pos: number;
  frame: Buffer;
  /** A book delta's content, kept so that deltas for a client that is behind can be folded into one. */
  book?: BookDeltaRows;
}

/** What a book delta says: the market, its tick, the book's checksum after it, the changed levels as they now are. */
export interface BookDeltaRows {
  marketId: string;
  tick: number;
  checksum: string;
  bids: LevelRow[];
  asks: LevelRow[];
}

export type Unsubscribe = () => void;

/**
 * A channel kind whose messages are stored (blocks, orders): `head(key)` is the position of
 * the last item published live for the key (0 before the first); `replay` gives the stored
 * items with positions in [from, to], oldest first; `onItem` the live items, in order, each
 * published only after it is stored.
 */
export interface ResumableSource {
  head(key: string): number;
  replay(key: string, from: number, to: number): AsyncIterable<ChannelItem>;
  onItem(listener: (key: string, item: ChannelItem) => void): Unsubscribe;
}

/**
 * A channel kind that starts with a snapshot (book): `snapshot(key)` is the current state as
 * one item whose `pos` is the sequence of the last delta folded into it (undefined: no such
 * key); `onItem` the later deltas, in order.
 */
export interface SnapshotSource {
  snapshot(key: string): ChannelItem | undefined;
  onItem(listener: (key: string, item: ChannelItem) => void): Unsubscribe;
}

/** Where the node stands, for heartbeats, welcomes and answers. */
export interface NodeHead {
  tick(): number; // last tick whose channel messages are published
  height(): number; // latest produced block
}

/** The sources of the three kinds. */
export interface ChannelSources {
  blocks: ResumableSource; // key: "" (one blocks channel)
  orders: ResumableSource; // key: the owner's Base58
  book: SnapshotSource; // key: the market id
  head: NodeHead;
}

/**
 * One socket as the hub sees it (transport.ts binds a `ws` socket): `send` writes a whole
 * frame, `queuedBytes` is what the socket has not sent yet.
 */
export interface Outlet {
  send(frame: Buffer): void;
  queuedBytes(): number;
  close(code: number, reason: string): void;
  terminate(): void;
  readonly open: boolean;
}
