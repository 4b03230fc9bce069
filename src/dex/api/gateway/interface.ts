/**
 * Types of the gateway processes (src/dex/api/gateway): the settings a gateway process gets from
 * the sequencer process, and the handle of the running set.
 */
import type { LogLevel } from '../../../log/index.js';

/** IPC message of a gateway to the primary: a client went away mid-body (the node's aborted counter). */
export const CLIENT_GONE = 'svc-gateway:client-gone';

/**
 * IPC message of the primary to a gateway: the channel and the order book socket are up,
 * connect and listen. Gateways are forked first thing at node start and boot (module
 * loading) while the node opens its database and restores its state; they load the node
 * key only after this, once the node process has created it.
 */
export const GO = 'svc-gateway:go';

/**
 * IPC message of a gateway to the primary: booted and listening for GO. The primary sends
 * GO only after it: an IPC message that arrives before a process has a 'message' listener
 * (while its modules load) is dropped.
 */
export const BOOTED = 'svc-gateway:booted';

/** IPC message of a gateway that could not listen: `{ type: LISTEN_FAILED, code, message }`. */
export const LISTEN_FAILED = 'svc-gateway:listen-failed';

/**
 * The order book port's listen backlog: connections the kernel completes and holds until a
 * gateway accepts one (docs/dex-api.md "Overload" gives the reasoning and the figures).
 * Linux caps it at net.core.somaxconn (4,096 by default since 5.4).
 */
export const ORDER_BOOK_BACKLOG = 511;

/** IPC message of a gateway whose gRPC order entry listens: `{ type: GRPC_LISTENING, port }`. */
export const GRPC_LISTENING = 'svc-gateway:grpc-listening';

export interface GrpcListening {
  type: typeof GRPC_LISTENING;
  port: number;
}

export interface ListenFailed {
  type: typeof LISTEN_FAILED;
  code?: string;
  message: string;
}

/** What cluster.ts passes to each gateway process (env SVC_GATEWAY, JSON). */
export interface GatewayProcessConfig {
  host: string; // the order book listen address (--dex-addr), shared through node:cluster
  port: number;
  channelPath: string; // Unix socket of the sequencer process's channel (hub.ts)
  httpPath: string; // Unix socket of the sequencer process's order book HTTP server (reads)
  dbPath: string; // the node key: <dbPath>/node-key.json
  bodyLimit: number;
  maxInflight: number; // requests one gateway lets wait for the sequencer before 503 QUEUE_FULL
  backlog: number; // the order book port's listen backlog (ORDER_BOOK_BACKLOG)
  logLevel: LogLevel;
  /** The gRPC order entry's listen address (--grpc-entry-addr), shared like the order book port; none: off. */
  grpcEntry?: { host: string; port: number };
}

export interface GatewaySet {
  address: string; // host:port the gateways share
  grpcEntryAddress?: string; // host:port of the gRPC order entry, when on
  /** Process ids of the running gateways (tests, operations). */
  pids(): number[];
  /** Gateways forked again after one died. */
  readonly restarts: number;
  stopAccepting(): void;
  close(): Promise<void>;
}
