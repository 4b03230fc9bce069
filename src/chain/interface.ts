/**
 * The chain runtime's hook: consumers of the stored chain that the node starts with it (the
 * message-queue producer, a full node's roots check). The chain's records and reader are in
 * core/interface.ts; the hooks of its faces (routes and WebSockets on the rpc port) in
 * api/interface.ts.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Database } from '../db/index.js';
import type { Sequencer } from '../sequencer/index.js';
import type { ChainReader } from './core/index.js';

/** The flags a chain consumer reads (the node passes its whole config, which has them). */
export interface ChainConsumerConfig {
  mqUrl: string | undefined; // --mq-url: the NATS servers; undefined when off
  mqReplicas: number; // --mq-replicas: replicas of the stream the node creates
  follow: string | undefined; // --follow: the leaders' gRPC addresses; undefined on a leader
}

/** What a chain consumer started by the node gets. */
export interface ChainConsumerContext {
  chain: ChainReader;
  db: Database; // the node's LevelDB: a consumer keeps its own position in its own sublevel
  config: ChainConsumerConfig;
  logger: Logger;
  registry: Registry; // the node's /metrics registry
  /** Stop the node for good with this error. */
  fail?: (err: Error) => void;
  /** The node's sequencer (a full node's Follower: the roots check halts and resumes it). */
  sequencer?: Sequencer;
}

/** A consumer of the stored chain started with the rpc face (e.g. the NATS JetStream producer). */
export interface ChainConsumerSpec {
  name: string;
  /** Start; return undefined when not configured (e.g. no --mq-url). */
  start(ctx: ChainConsumerContext): Promise<{ close(): Promise<void> } | undefined>;
}
