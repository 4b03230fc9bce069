/**
 * The channels protocol's fixed values (docs/chain.md "Channels"): the WebSocket path on the
 * rpc port, the close codes, the refusal codes of error answers and the default limits.
 * One place for each value so the hub, the transport, the tests and the bench agree.
 */

/** The channels socket on the rpc port (WS /ws/blocks stays as it is). */
export const CHANNELS_PATH = '/ws';

/** Close codes the server uses (docs/chain.md "Channels"). */
export const CLOSE = {
  goingAway: 1001, // the node is shutting down
  unsupportedData: 1003, // a binary frame
  invalidPayload: 1007, // a text frame that is not UTF-8 (closed by `ws`)
  policy: 1008, // too many messages per second, or too many refused messages
  tooBig: 1009, // a frame above limits.messageBytes (closed by `ws`)
  internalError: 1011, // a replay could not read the store (a node error, logged)
  tooSlow: 4000, // the client does not keep up (send queue full, or a replay stalled)
  tooManySubscriptions: 4001, // a subscribe past limits.subscriptions
} as const;

/**
 * Codes of `{"type":"error"}` answers (the socket stays open): malformed_json (not JSON),
 * bad_message (not an object of the documented shape: no usable id, an unknown field),
 * unknown_op, unknown_channel, bad_param (a value of the wrong type or form), out_of_range
 * (a position outside 1..2^53-1 or beyond the channel's head + 1), unknown_market,
 * duplicate_id (an open subscription has this id), already_subscribed (this channel, kind
 * and key, is open on the socket), unknown_id (unsubscribe of an id that is not open).
 */
export const REFUSAL_CODES = [
  'malformed_json',
  'bad_message',
  'unknown_op',
  'unknown_channel',
  'bad_param',
  'out_of_range',
  'unknown_market',
  'duplicate_id',
  'already_subscribed',
  'unknown_id',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface ChannelLimits {
  /** Sockets on the node; beyond, the upgrade is answered 503. */
  sockets: number;
  /** Sockets per client address; beyond, the upgrade is answered 429. */
  socketsPerAddress: number;
  /** Open subscriptions per socket; the next subscribe closes the socket with 4001. */
  subscriptions: number;
  /** Largest client frame in bytes; above it `ws` closes with 1009. */
  messageBytes: number;
  /** Client messages per second per socket (token bucket, burst = 2 x rate); past it: 1008. */
  messagesPerSecond: number;
  /** Error answers per socket before it is closed with 1008. */
  refusals: number;
  /** Bytes queued for a client and not yet sent; a message that would pass it closes with 4000. */
  queueBytes: number;
  /**
   * A book subscriber with at least this much queued is behind: its deltas are held and
   * folded into one (docs/chain.md "Book deltas for a client that is behind") until its
   * queue is below it again.
   */
  coalesceBytes: number;
  /** How often a subscriber holding folded deltas is looked at for room (ms). */
  coalescePollMs: number;
  /** A replay sends only while less than this is queued for the client. */
  replayLowWaterBytes: number;
  /** A replay that waits this long for queue room closes the socket with 4000. */
  replayStallMs: number;
  /** Live messages held for a subscription while it replays; past it the replay reads the store again. */
  catchUpBufferBytes: number;
  /** A socket closed with 4000 is destroyed this long after the close frame was queued. */
  slowCloseGraceMs: number;
  /** Heartbeat period (server -> client). */
  heartbeatMs: number;
  /** WebSocket ping period; a peer that did not answer the previous ping is dropped. */
  pingMs: number;
}

export const DEFAULT_LIMITS: ChannelLimits = {
  sockets: 10_000,
  socketsPerAddress: 64,
  subscriptions: 64,
  messageBytes: 4096,
  messagesPerSecond: 50,
  refusals: 100,
  queueBytes: 4 * 1024 * 1024,
  coalesceBytes: 64 * 1024,
  coalescePollMs: 10,
  replayLowWaterBytes: 1024 * 1024,
  replayStallMs: 10_000,
  catchUpBufferBytes: 4 * 1024 * 1024,
  slowCloseGraceMs: 2_000,
  heartbeatMs: 5_000,
  pingMs: 30_000,
};

/** The largest position a client may name (from_height, from_sequence): 2^53 - 1. */
export const MAX_POSITION = Number.MAX_SAFE_INTEGER;
/** A client-chosen subscription id: 1..64 printable ASCII characters, or an integer 0..2^53-1. */
export const MAX_ID_CHARS = 64;
