/**
 * Live channels on the rpc port's WebSocket (docs/chain.md "Channels"): blocks (resumable
 * from a height), per-owner order events (resumable from a sequence, stored), per-market
 * order book snapshot + deltas. The door of src/channels: the hub and its transport, the
 * sources each channel kind reads from, the pure derivations from an applied tick, and the
 * protocol's parser and constants.
 */
export * from './interface.js';
export { CHANNELS_PATH, CLOSE, DEFAULT_LIMITS, MAX_POSITION, REFUSAL_CODES, type ChannelLimits, type RefusalCode } from './protocol.js';
export { parseClientMessage, type Parsed } from './parse.js';
export { ChannelHub, type Connection } from './hub.js';
export { ChannelSocket } from './transport.js';
export { Feed, type FeedSink } from './seam.js';
export { BlocksSource, blockItem, type BlockReader } from './blocks-source.js';
export { OwnerLog, orderMessageJson, type RecordedTick } from './owner-log.js';
export { BookSource, type BookDelta } from './book-source.js';
export { ownerEventsOf, type OwnerEvent, type OwnerEventBody, type OwnerEventKind, type Fill } from './owner-events.js';
export { levelChangesOf, type LevelChange, type TickLevelChanges } from './book-deltas.js';
export { levelsOfBook, MarketLevels, type LevelRow } from './book-levels.js';
export { textFrame } from './frame.js';
