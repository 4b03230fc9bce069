/**
 * Types and option defaults of the indexer (docs/indexer.md): what `svc indexer` is
 * started with, and the status it reports on /health. Imports only types, so the flag
 * table reads the defaults here without loading the indexer.
 */
import type { Logger } from 'pino';
import type { LogLevel } from '../log/index.js';
import type { HostPort } from '../wire/index.js';

export const DEFAULT_INDEXER_ADDR = '0.0.0.0:8083';
export const DEFAULT_INDEXER_CONSUMER = 'svc-indexer';
export const DEFAULT_INDEXER_BATCH = 1000;
export const DEFAULT_MQ_STREAM = 'SVC';

/** Retry delay after a failure: doubles from min to max. */
export const RETRY_MIN_MS = 200;
export const RETRY_MAX_MS = 5000;
/** How often a stalled or diverged indexer looks at the stream again. */
export const STALL_RETRY_MS = 10_000;

/** `svc indexer`'s configuration after parsing flags and SVC_* variables. */
export interface IndexerConfig {
  pgUrl: string; // --pg-url, required
  mqUrl: string | undefined; // --mq-url: consume from this NATS; absent: reads only
  mqStream: string; // --mq-stream, default SVC
  indexerConsumer: string; // --indexer-consumer, default svc-indexer
  indexerAddr: HostPort; // --indexer-addr, default 0.0.0.0:8083
  indexerBatch: number; // --indexer-batch, default 1000 messages per database transaction
  logLevel: LogLevel; // --log-level
}

export interface IndexerOptions extends Omit<IndexerConfig, 'logLevel'> {
  logger: Logger;
  /** Retry delays (tests shorten them). */
  retryMinMs?: number;
  retryMaxMs?: number;
  stallRetryMs?: number;
}

export type IndexerState = 'connecting' | 'consuming' | 'stalled' | 'diverged' | 'reading-only' | 'closed';

/** What /health says. */
export interface IndexerStatus {
  state: IndexerState;
  database: 'up' | 'down';
  nats: 'up' | 'down' | 'off';
  stream_seq: number;
  height: number;
  lag_messages: number;
  error: string | null;
}

export interface Indexer {
  /** host:port the HTTP face listens on. */
  address: HostPort;
  status(): IndexerStatus;
  /** Resolves once the indexer has written the stream up to `seq` (tests and benches). */
  reached(seq: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}
