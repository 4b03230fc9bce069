/**
 * Types of the message-queue producer (src/chain/mq): what it reads from the node's stored
 * chain (MqSource, adapted from src/chain in source.ts), the messages it builds, its
 * options and its status. The producer never holds more than its window of messages: it
 * reads everything it publishes back from stored chain data.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

/** One stored order book transaction, as the producer needs it. */
export interface MqTx {
  id: string; // `{height:016x}-{batch:04x}-{index:04x}`, the Nats-Msg-Id
  height: number; // containing block
  marketId: string;
  continuumSequence: bigint;
  body: Uint8Array; // the ExplorerTransaction JSON, exactly as GET /transactions/:id answers
}

/** One stored block, as the producer needs it. */
export interface MqBlock {
  height: number;
  stateRoot: string; // 64 lowercase hex characters
  /** The largest continuum_sequence of the block's transactions (0n for none). */
  lastContinuumSequence: bigint;
  /** The block message's JSON body, the fullest form that fits in maxBytes (docs/chain.md). */
  body(maxBytes: number): Uint8Array;
}

/** Read access to the node's STORED chain: nothing here is shown before it is durable. */
export interface MqSource {
  /** Height of the newest stored block, 0 before the first. */
  latestHeight(): number;
  /** Stored transactions with continuum_sequence > after, in that order, at most limit. */
  transactionsAfter(after: bigint, limit: number): Promise<MqTx[]>;
  /** The stored block at height, or undefined if there is none (yet). */
  block(height: number): Promise<MqBlock | undefined>;
  /** Called (without data) after new transactions or blocks are stored; returns unsubscribe. */
  onStored(listener: () => void): () => void;
}

/** Where the producer stands in the publication order (docs/chain.md "JetStream"). */
export interface MqCursor {
  /** continuum_sequence of the last transaction published (0n: none yet). */
  lastTx: bigint;
  /** The next block message to publish; its transactions come before it. */
  nextHeight: number;
}

/** A message ready to publish. */
export interface MqMessage {
  kind: 'tx' | 'block';
  subject: string;
  msgId: string; // Nats-Msg-Id: the transaction id, or the block height in decimal
  data: Uint8Array;
  height: number;
}

export interface MqOptions {
  /** nats://host:port, or several comma-separated (a cluster). */
  url: string;
  source: MqSource;
  logger?: Logger;
  /** Where svc_mq_* metrics go (the node's /metrics registry). */
  registry?: Registry;
  /** Stream name, default SVC. */
  stream?: string;
  /** First subject token, default svc: subjects svc.tx.<market_id> and svc.blocks. */
  subjectPrefix?: string;
  /** Most publishes awaiting their ack at once, default 512. */
  window?: number;
  /** Replicas of the stream when the node creates it (--mq-replicas), default 1. */
  replicas?: number;
  /** How long to wait for one ack before resynchronising, default 2000 ms. */
  ackTimeoutMs?: number;
  /**
   * How long each request of a resync (stream info, last message) waits for its answer,
   * default 750 ms: while a cluster elects a stream leader nothing answers, and a short
   * wait retried soon catches the new leader within about a second of its election.
   */
  requestTimeoutMs?: number;
  /** Retry delay after a failure: doubles from min to max, defaults 200 and 1000 ms. */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** On close, how long to go on publishing what is stored before letting go, default 2000 ms. */
  drainMs?: number;
  /**
   * Once caught up, wait this long after a wake-up before reading the store, so that the
   * ticks stored meanwhile go in one read (default 1 ms): at most about 1,000 reads a
   * second however fast ticks come, for at most this much more latency.
   */
  lingerMs?: number;
}

export type MqState = 'connecting' | 'syncing' | 'publishing' | 'waiting' | 'diverged' | 'closed';

export interface MqStatus {
  state: MqState;
  connected: boolean;
  /** Messages the stream acknowledged as new, by kind. */
  publishedTx: number;
  publishedBlocks: number;
  /** Height of the last block message the stream acknowledged (0: none this run). */
  publishedHeight: number;
  /** Stored blocks not yet acknowledged by the stream. */
  lagBlocks: number;
  pendingAcks: number;
  /** How many times the producer re-read the stream's last message after a failure. */
  resyncs: number;
  /**
   * Whether the stream answered the producer's last request (a resync or an ack): false from
   * a failure (NATS down, no stream leader, an ack timeout) until a resync succeeds.
   */
  streamAvailable: boolean;
  /** Times the stream went from answering to not answering (this run). */
  outages: number;
  /** How long the stream has not been answering, in ms (0 while it answers). */
  outageMs: number;
  lastError?: string;
}

export interface MqPublisher {
  status(): MqStatus;
  /** Resolves once everything stored has been acknowledged by the stream (for tests and benches). */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Publish what is stored for up to drainMs, then close the connection. */
  close(): Promise<void>;
}
