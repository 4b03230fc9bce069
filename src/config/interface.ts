/**
 * The node's configuration after parsing flags and `SVC_*` environment variables
 * (design.md "Flags"). Pure data: src/node reads it, nothing here does I/O.
 */
import type { HostPort } from '../wire/index.js';

/** A listen address (host as given, without IPv6 brackets); port 0 means "pick a free one". */
export type ListenAddress = HostPort;

export type { LogLevel } from '../log/index.js';
import type { LogLevel } from '../log/index.js';

export interface NodeConfig {
  grpcAddr: ListenAddress; // --grpc-addr, default 0.0.0.0:9090
  restAddr: ListenAddress; // --rest-addr, default 0.0.0.0:8080
  dexAddr: ListenAddress; // --dex-addr, default 0.0.0.0:8081
  rpcAddr: ListenAddress; // --rpc-addr, default 0.0.0.0:8082
  dbPath: string; // --db-path, default ./rollup_data
  retainTicks: number; // --retain-ticks, default 1,000,000
  retainBytes: number; // --retain-bytes, default 1 GiB: memory bound of the same window
  vdfIterations: number; // --vdf-iterations, default DEFAULT_BUSY_ITERATIONS
  idleTickMs: number; // --idle-tick-ms, default 100
  queueCapacity: number; // --queue-capacity, default 100,000
  streamStallMs: number; // --stream-stall-ms, default 30,000: reset a tick stream without progress this long
  readerFloor: number; // --reader-floor, default 4 MiB/s: what stream readers get together while ordering has work
  blockMs: number; // --block-ms, default 200
  snapshotTxs: number; // --snapshot-txs, default 10,000
  snapshotTicks: number; // --snapshot-ticks, default 2,000
  submitTxRate: number; // --submit-tx-rate, default 1000 per second per client address
  streamTxRate: number; // --stream-tx-rate, default 60 per minute per client address
  mqUrl: string | undefined; // --mq-url nats://host:port: the JetStream producer, off by default
  mqReplicas: number; // --mq-replicas: replicas of the stream when the node creates it
  indexerUrl: string | undefined; // --indexer-url http://host:port: the indexer the explorer page reads history from, off by default
  intakeThreads: number; // --intake-threads: gRPC SubmitBatch intake workers (0 = the main thread)
  nodeThread: boolean; // --node-thread on|off, default on: the order book, chain, channels and faces on the svc-node thread
  gateways: number; // --gateways, default the cores: order book gateway processes (0 = in the node process)
  grpcEntryAddr: ListenAddress | undefined; // --grpc-entry-addr: gRPC SubmitTx in the gateways, off by default
  maxPending: number; // --max-pending: orders, cancels and market creations pending at once, fair share per client address
  dexSignatureThreads: number; // --dex-signature-threads (SVC_DEX_SIGNATURE_THREADS), default 2: the order book's own signature pool (0 = the node's pool)
  logLevel: LogLevel; // --log-level, default info
  followDex: string | undefined; // --follow-dex URL: the leader's order book API, where a full node sends order book writes
  followFrom: 'genesis' | 'snapshot'; // --follow-from, default genesis: where a full node on an empty --db-path starts (docs/full-node.md)
  follow: string | undefined; // --follow HOST:PORT: run as a full node of the leader at this gRPC address (docs/full-node.md)
}

/** Result of parsing: a config, a request for help, or a user error to print. */
export type ParseOutcome =
  | { kind: 'config'; config: NodeConfig }
  | { kind: 'help'; text: string }
  | { kind: 'error'; message: string };
