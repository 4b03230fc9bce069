/**
 * Types of the gateway processes (src/gateway): the settings a gateway process gets from
 * the sequencer process, and the handle of the running set.
 */
import type { LogLevel } from '../config/interface.js';

/** IPC message of a gateway to the primary: a client went away mid-body (the node's aborted counter). */
export const CLIENT_GONE = 'svc-gateway:client-gone';

/** IPC message of a gateway that could not listen: `{ type: LISTEN_FAILED, code, message }`. */
export const LISTEN_FAILED = 'svc-gateway:listen-failed';

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
  logLevel: LogLevel;
}

export interface GatewaySet {
  address: string; // host:port the gateways share
  /** Process ids of the running gateways (tests, operations). */
  pids(): number[];
  /** Gateways forked again after one died. */
  readonly restarts: number;
  stopAccepting(): void;
  close(): Promise<void>;
}
