/**
 * Live channels on the rpc port's WebSocket (docs/chain.md "Channels"): blocks (resumable
 * from a height), per-owner order events (resumable from a sequence, stored), per-market
 * order book snapshot + deltas. The door of src/channels: the hub and its transport, the
 * sources each channel kind reads from, the pure derivations from an applied tick, and the
 * protocol's parser and constants.
 *
 * How a node feeds it (one applier of stored ticks, one chain store):
 *   start    OwnerLog.load(stored head tick) and BookSource.seed(engine books, tick), after
 *            the engine is restored and replayed; BlocksSource over the ChainReader
 *   per tick BookSource.derive(applied) and OwnerLog.record(applied) while the tick is
 *            delivered (its engine objects are live only then); the owner log's ops go
 *            into the tick's chain batch; once that batch is written, BookSource.publish
 *            and OwnerLog.publish, in tick order
 *   serve    new ChannelSocket(new ChannelHub(sources)).upgrade(req, socket, head) from the
 *            rpc server's 'upgrade' listener, before /ws/blocks's
 */
export type { ChannelItem, ResumableSource, Outlet } from './interface.js';
export { CHANNELS_PATH, CLOSE, DEFAULT_LIMITS, REFUSAL_CODES, type ChannelLimits } from './protocol.js';
export { parseClientMessage } from './parse.js';
export { ChannelHub } from './hub.js';
export { ChannelSocket } from './transport.js';
export { Feed } from './seam.js';
export { BlocksSource, type BlockReader } from './blocks-source.js';
export { OwnerLog } from './owner-log.js';
export { BookSource } from './book-source.js';
export { ownerEventsOf } from './owner-events.js';
export { levelChangesOf, type LevelChange } from './book-deltas.js';
export { levelsOfBook, MarketLevels } from './book-levels.js';
export { textFrame } from './frame.js';
