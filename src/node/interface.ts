/**
 * Types of the node runner: the context every face gets, what a running face must offer
 * for a graceful shutdown, and the handle startNode() returns.
 */
import type { Piscina } from 'piscina';
import type { Logger } from 'pino';
import type { ChainRuntime } from '../chain/index.js';
import type { NodeConfig } from '../config/index.js';
import type { Database } from '../db/index.js';
import type { OrderBookRuntime } from '../dex/index.js';
import type { NodeMetrics } from '../metrics/index.js';
import type { NodeChannels } from './channels.js';
import type { Sequencer, SequencerOptions } from '../sequencer/index.js';

/** What the node has opened before any face starts. */
export interface NodeContext {
  config: NodeConfig;
  logger: Logger;
  db: Database;
  pool: Piscina;
  sequencer: Sequencer;
  /** The order book runtime (engine, applier, signatures, order entry), started right after the sequencer. */
  book: OrderBookRuntime;
  /** The chain, fed by the order book's applied-tick records. */
  chain: ChainRuntime;
  /** The live channels (WS /ws on the rpc port), fed by the chain's per-tick write. */
  channels: NodeChannels;
  metrics: NodeMetrics;
  /** Stop the node for good (a part that cannot go on, e.g. a full node's own store failing): NodeHandle.failed resolves with it. Bad leader data only halts following (src/follow/halt.ts). */
  fail: (err: Error) => void;
}

/** A started face (gRPC, REST, order book, explorer RPC). */
export interface RunningFace {
  name: string; // printed as `listening <name> <address>`
  address: string; // host:port actually bound
  /** More ports this face listens on, by name (printed and listed like faces). */
  more?: Record<string, string>;
  /** Refuse new work; called on every face before the sequencer stops. */
  stopAccepting(): void;
  /** Release everything; called after the sequencer stopped, in reverse start order. */
  close(): Promise<void>;
  /** Open tick streams, for the stream clients metric. */
  streamClients?(): number;
}

/** How to start one face; the node starts them in list order. */
export interface FaceSpec {
  name: string;
  start(ctx: NodeContext): Promise<RunningFace>;
  /**
   * Optional: begin, from the config alone, what is slow and needs nothing the node opens
   * (forking processes), first thing in startNode; the node then starts the face through
   * the prepared one, or aborts it if the node fails to start before its turn.
   */
  prepare?(config: NodeConfig, logger: Logger): PreparedFace;
}

/** A face begun before the node opened anything (FaceSpec.prepare). */
export interface PreparedFace {
  start(ctx: NodeContext): Promise<RunningFace>;
  abort(): Promise<void>;
}

export interface StartNodeOptions {
  logger?: Logger; // default: pino JSON on stderr at config.logLevel
  print?: (line: string) => void; // default: stdout; gets the `listening` lines
  faces?: FaceSpec[]; // default: defaultFaces()
  createSequencer?: (options: SequencerOptions) => Sequencer | Promise<Sequencer>; // default: src/sequencer
  poolThreads?: number; // default: all cores
}

export interface NodeHandle {
  /** Bound address of each face by name, e.g. { grpc: '127.0.0.1:40123', rest: ... }. */
  addresses: Record<string, string>;
  sequencer: Sequencer;
  /** Resolves if the node stops for good on its own (a part that cannot go on): close it and exit 1. */
  failed: Promise<Error>;
  /** Graceful shutdown: stop accepting, finish in-flight work, stop the sequencer, close all. */
  close(): Promise<void>;
}
