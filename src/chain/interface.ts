/**
 * The hooks of the chain's faces: routes other parts of the node add to the rpc port, and
 * consumers of the stored chain started with it (the message-queue producer, a full
 * node's roots check). The chain's records and reader are in core/interface.ts.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Database } from '../db/index.js';
import type { Sequencer } from '../sequencer/index.js';
import type { ChainReader } from './core/index.js';

/**
 * Adds routes to the rpc port's Koa router (the explorer page at `/` and its assets, say).
 * Called once when the rpc face starts, before the explorer's own routes are mounted, so
 * it must not claim the explorer's paths (/status, /blocks..., /transactions/..., /events,
 * /orders/user/..., /openapi.json, /ws/blocks).
 */
export type RpcRouteHook = (router: Router, chain: ChainReader) => void;

/** The flags a chain consumer reads (the node passes its whole config, which has them). */
export interface ChainConsumerConfig {
  mqUrl: string | undefined; // --mq-url: the NATS servers; undefined when off
  mqReplicas: number; // --mq-replicas: replicas of the stream the node creates
  follow: string | undefined; // --follow: the leaders' gRPC addresses; undefined on a leader
}

/**
 * Another WebSocket on the rpc port (the live channels at /ws): `upgrade` takes the upgrade
 * requests of its own path (returns true) and leaves the others untouched (false), which
 * then go to WS /ws/blocks; `close` closes its sockets (1001) when the face closes.
 */
export interface RpcUpgradeRoute {
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): void;
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
