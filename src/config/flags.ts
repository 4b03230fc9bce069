/**
 * The table of `svc node` flags: name, default, parser and help text. One row per
 * flag so --help, environment variables and validation cannot drift apart.
 */
import { availableParallelism } from 'node:os';
import { DEFAULT_BLOCK_MS, DEFAULT_SNAPSHOT_TICKS, DEFAULT_SNAPSHOT_TXS } from '../chain/core/interface.js';
import { DEFAULT_MAX_PENDING, DEFAULT_SIGNATURE_THREADS } from '../dex/interface.js';
import { DEFAULT_BUSY_ITERATIONS } from '../vdf/interface.js';
import {
  DEFAULT_INDEXER_ADDR,
  DEFAULT_INDEXER_BATCH,
  DEFAULT_INDEXER_CONSUMER,
  DEFAULT_MQ_STREAM,
  type IndexerConfig,
} from '../indexer/interface.js';
import { formatHostPort, parseAddress } from '../wire/index.js';

export { parseAddress };
import type { LogLevel, NodeConfig } from './interface.js';

/** Default minimum squarings of a busy tick: the VDF engine's DEFAULT_BUSY_ITERATIONS. */
export const DEFAULT_VDF_ITERATIONS = DEFAULT_BUSY_ITERATIONS;

/** Default bound on transactions accepted but not yet ticked (docs/operations.md). */
export const DEFAULT_QUEUE_CAPACITY = 100_000;

export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface FlagSpec<K extends keyof NodeConfig = keyof NodeConfig> {
  flag: string; // without leading dashes
  key: K;
  defaultValue: string;
  help: string;
  parse(text: string): NodeConfig[K];
}

const grouped = new Intl.NumberFormat('en-US');

function integer(min: number, max: number) {
  const range = `${grouped.format(min)} to ${grouped.format(max)}`;
  return (text: string): number => {
    const t = text.trim();
    if (/^[-+]?\d+(\.\d+)?$/.test(t) && Number(t) < min)
      throw new Error(`${t} is out of range: expected a whole number from ${range}`);
    if (/^\d+\.\d+$/.test(t)) throw new Error(`${t} is not a whole number: expected a whole number from ${range}`);
    if (!/^\+?\d+$/.test(t)) throw new Error(`expected a whole number from ${range}, got '${text}'`);
    const n = Number(t);
    if (!Number.isSafeInteger(n) || n > max)
      throw new Error(`${t} is out of range: expected a whole number from ${range}`);
    return n;
  };
}

const BYTE_UNITS: Record<string, number> = { '': 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** A byte count: digits with an optional KiB, MiB or GiB suffix (binary units), within min..max. */
function byteCount(min: number, max: number) {
  return (text: string): number => {
    const m = /^(\d{1,16})\s*(kib|mib|gib)?$/i.exec(text.trim());
    if (!m) throw new Error(`expected a byte count such as 1073741824, 512MiB or 1GiB, got '${text}'`);
    const n = Number(m[1]) * BYTE_UNITS[(m[2] ?? '').toLowerCase()]!;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new Error(`${text} is out of range ${min}..${max} bytes`);
    return n;
  };
}

function nonEmpty(text: string): string {
  if (text.trim() === '') throw new Error('expected a path, got an empty string');
  return text;
}

/** `nats://host:port` (or tls://, user:password@ allowed), comma-separated for a cluster; empty = off. */
export function parseMqUrl(text: string): string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  for (const url of t.split(',')) {
    if (!/^(nats|tls):\/\/([^\s/@]+@)?[^\s/@:]+(:\d{1,5})?\/?$/.test(url.trim())) {
      throw new Error(`expected nats://host:port (comma-separated for several servers), got '${url.trim()}'`);
    }
  }
  return t;
}

/** `host:port` (or grpc://host:port) of a leader's gRPC face; empty = not a follower. */
export function parseFollow(text: string): string | undefined {
  const list = text
    .split(',')
    .map((p) =>
      p
        .trim()
        .replace(/^(grpc|http):\/\//, '')
        .replace(/\/+$/, ''),
    )
    .filter((p) => p !== '');
  if (list.length === 0) return undefined;
  return list.map((p) => formatHostPort(parseAddress(p))).join(',');
}

/** The leaders of --follow in order (a comma-separated list; the first is followed first). */
export function followLeaders(follow: string): string[] {
  return follow.split(',');
}

/** http(s)://host:port of a leader's order book API; empty = none. */
export function parseHttpUrl(text: string): string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    throw new Error(`expected http://host:port, got '${t}'`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`expected http://host:port, got '${t}'`);
  return t.replace(/\/+$/, '');
}

function followFrom(text: string): 'genesis' | 'snapshot' {
  const t = text.trim().toLowerCase();
  if (t !== 'genesis' && t !== 'snapshot') throw new Error(`expected genesis or snapshot, got '${text}'`);
  return t;
}

function onOff(text: string): boolean {
  const t = text.trim().toLowerCase();
  if (t !== 'on' && t !== 'off') throw new Error(`expected on or off, got '${text}'`);
  return t === 'on';
}

function logLevel(text: string): LogLevel {
  const level = text.trim().toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new Error(`expected one of ${LOG_LEVELS.join(', ')}, got '${text}'`);
  return level;
}

/**
 * Intake threads by default: half the cores, at most 8, none on 2 cores or fewer (there
 * the clock holds one core and a worker would only share the other with the main thread).
 */
export function defaultIntakeThreads(cores = availableParallelism()): number {
  return cores <= 2 ? 0 : Math.min(8, Math.floor(cores / 2));
}

function spec<K extends keyof NodeConfig>(s: FlagSpec<K>): FlagSpec<K> {
  return s;
}

export const FLAGS: readonly FlagSpec[] = [
  spec({
    flag: 'grpc-addr',
    key: 'grpcAddr',
    defaultValue: '0.0.0.0:9090',
    help: 'gRPC SequencerService listen address',
    parse: parseAddress,
  }),
  spec({
    flag: 'rest-addr',
    key: 'restAddr',
    defaultValue: '0.0.0.0:8080',
    help: 'REST /api/v1 and /metrics listen address',
    parse: parseAddress,
  }),
  spec({
    flag: 'dex-addr',
    key: 'dexAddr',
    defaultValue: '0.0.0.0:8081',
    help: 'order book API listen address',
    parse: parseAddress,
  }),
  spec({
    flag: 'rpc-addr',
    key: 'rpcAddr',
    defaultValue: '0.0.0.0:8082',
    help: 'chain explorer RPC listen address',
    parse: parseAddress,
  }),
  spec({
    flag: 'db-path',
    key: 'dbPath',
    defaultValue: './rollup_data',
    help: 'directory of the embedded database',
    parse: nonEmpty,
  }),
  spec({
    flag: 'retain-ticks',
    key: 'retainTicks',
    defaultValue: '1000000',
    help: 'ticks kept in memory (older ones are read from disk)',
    parse: integer(1, 100_000_000),
  }),
  spec({
    flag: 'retain-bytes',
    key: 'retainBytes',
    defaultValue: '1GiB',
    help: 'memory bound of the ticks kept in memory (bytes, or KiB/MiB/GiB); whichever of it and --retain-ticks is reached first evicts',
    parse: byteCount(64 * 1024, 1024 ** 4),
  }),
  spec({
    flag: 'vdf-iterations',
    key: 'vdfIterations',
    defaultValue: String(DEFAULT_VDF_ITERATIONS),
    help: 'minimum VDF squarings of a tick with transactions waiting',
    parse: integer(1, 1_000_000_000),
  }),
  spec({
    flag: 'idle-tick-ms',
    key: 'idleTickMs',
    defaultValue: '100',
    help: 'heartbeat: close a tick after this many ms with nothing waiting',
    parse: integer(1, 3_600_000),
  }),
  spec({
    flag: 'queue-capacity',
    key: 'queueCapacity',
    defaultValue: String(DEFAULT_QUEUE_CAPACITY),
    help: 'transactions accepted but not yet ticked (or ticked and not yet applied by the node thread); beyond it submits get RESOURCE_EXHAUSTED',
    parse: integer(1, 10_000_000),
  }),
  spec({
    flag: 'stream-stall-ms',
    key: 'streamStallMs',
    defaultValue: '30000',
    help: 'reset a StreamTicks or FollowService/StreamBlockRoots stream whose client takes nothing for this long (its queued messages are freed)',
    parse: integer(1000, 3_600_000),
  }),
  spec({
    flag: 'reader-floor',
    key: 'readerFloor',
    defaultValue: '4MiB',
    help: 'bytes per second all StreamTicks and StreamTx readers get together while ordering has work (bytes, or KiB/MiB/GiB); an idle node serves them as fast as they read',
    parse: byteCount(64 * 1024, 1024 ** 3),
  }),
  spec({
    flag: 'block-ms',
    key: 'blockMs',
    defaultValue: String(DEFAULT_BLOCK_MS),
    help: 'chain block interval, on tick timestamps (fixed for the life of a chain)',
    parse: integer(1, 3_600_000),
  }),
  spec({
    flag: 'snapshot-ticks',
    key: 'snapshotTicks',
    defaultValue: String(DEFAULT_SNAPSHOT_TICKS),
    help: 'ticks between state snapshots, at least, when fewer than --snapshot-txs order book transactions came (bounds the replay at restart)',
    parse: integer(1, 1_000_000_000),
  }),
  spec({
    flag: 'snapshot-txs',
    key: 'snapshotTxs',
    defaultValue: String(DEFAULT_SNAPSHOT_TXS),
    help: 'order book transactions between state snapshots, at least (also on shutdown)',
    parse: integer(1, 1_000_000_000),
  }),
  spec({
    flag: 'submit-tx-rate',
    key: 'submitTxRate',
    defaultValue: '1000',
    help: 'gRPC SubmitTx calls per second per client address (0 = unlimited)',
    parse: integer(0, 10_000_000),
  }),
  spec({
    flag: 'stream-tx-rate',
    key: 'streamTxRate',
    defaultValue: '60',
    help: 'gRPC StreamTx calls opened per minute per client address (0 = unlimited)',
    parse: integer(0, 10_000_000),
  }),
  spec({
    flag: 'mq-url',
    key: 'mqUrl',
    defaultValue: '',
    help: 'NATS JetStream to publish transactions and blocks to (nats://[user:password@]host:port, comma-separated); off when empty',
    parse: parseMqUrl,
  }),
  spec({
    flag: 'mq-replicas',
    key: 'mqReplicas',
    defaultValue: '1',
    help:
      'replicas of the JetStream stream when the node creates it (a NATS cluster of at least that many servers; ' +
      'at most 5); an existing stream is not changed, only reported when it differs',
    parse: integer(1, 5),
  }),
  spec({
    flag: 'indexer-url',
    key: 'indexerUrl',
    defaultValue: '',
    help: "an svc indexer's HTTP reads (http://HOST:PORT): the explorer page draws candles, recent trades and an owner's fills from it; off when empty",
    parse: parseHttpUrl,
  }),
  spec({
    flag: 'intake-threads',
    key: 'intakeThreads',
    defaultValue: String(defaultIntakeThreads()),
    help: 'threads that decode, check and hash gRPC SubmitBatch requests before the main thread orders them (default: half the cores, at most 8; 0 on 2 cores or fewer: the main thread does it)',
    parse: integer(0, 64),
  }),
  spec({
    flag: 'node-thread',
    key: 'nodeThread',
    defaultValue: 'on',
    help: 'on: the order book, the chain, the channels and every face run on a thread of their own (svc-node), so the main thread only orders; off: all on the main thread. A full node (--follow) runs on one thread',
    parse: onOff,
  }),
  spec({
    flag: 'gateways',
    key: 'gateways',
    defaultValue: String(availableParallelism()),
    help: 'order book gateway processes sharing --dex-addr (default: the cores); 0 serves the order book in the node process',
    parse: integer(0, 256),
  }),
  spec({
    flag: 'grpc-entry-addr',
    key: 'grpcEntryAddr',
    defaultValue: '',
    help: "gRPC order entry listen address (HOST:PORT): ChainService SubmitTx served by the gateway processes, so the node's ordering thread never parses these calls; off by default (needs --gateways >= 1)",
    parse: (text) => (text.trim() === '' ? undefined : parseAddress(text)),
  }),
  spec({
    flag: 'max-pending',
    key: 'maxPending',
    defaultValue: String(DEFAULT_MAX_PENDING),
    help: 'orders, cancels and market creations pending at once (taken, not yet answered), shared fairly between client addresses; beyond its share an address gets 503 QUEUE_FULL / RESOURCE_EXHAUSTED at once',
    parse: integer(1, 1_000_000),
  }),
  spec({
    flag: 'dex-signature-threads',
    key: 'dexSignatureThreads',
    defaultValue: String(DEFAULT_SIGNATURE_THREADS),
    help: "threads of the order book's own pool for ed25519 checks and receipt signatures, so they do not wait behind the VDF proofs; 0 runs them in the node's shared pool",
    parse: integer(0, 256),
  }),
  spec({
    flag: 'follow',
    key: 'follow',
    defaultValue: '',
    help: 'run as a full node: follow the leader at this gRPC address (HOST:PORT), verify its ticks, serve the same reads, forward submissions to it; a comma-separated list names other nodes of the same chain, tried in turn after a refused tick',
    parse: parseFollow,
  }),
  spec({
    flag: 'follow-dex',
    key: 'followDex',
    defaultValue: '',
    help: "with --follow: the leader's order book API (http://HOST:PORT); POST /orders, /orders/cancel and /markets here are sent there and answered with its answer and receipt",
    parse: parseHttpUrl,
  }),
  spec({
    flag: 'follow-from',
    key: 'followFrom',
    defaultValue: 'genesis',
    help: "with --follow, on an empty --db-path: 'genesis' verifies every tick from tick 1; 'snapshot' starts from the leader's latest snapshot (trusting its history before it, checked by the block roots after it)",
    parse: followFrom,
  }),
  spec({
    flag: 'log-level',
    key: 'logLevel',
    defaultValue: 'info',
    help: `JSON log level on stderr (${LOG_LEVELS.join(', ')})`,
    parse: logLevel,
  }),
];

/** A flag of `svc indexer` (docs/indexer.md): the same shape, over IndexerConfig. */
export interface IndexerFlagSpec<K extends keyof IndexerConfig = keyof IndexerConfig> {
  flag: string;
  key: K;
  defaultValue: string;
  help: string;
  parse(text: string): IndexerConfig[K];
}

function indexerSpec<K extends keyof IndexerConfig>(s: IndexerFlagSpec<K>): IndexerFlagSpec<K> {
  return s;
}

/** postgres://... or postgresql://... (user, password, host, port, database; ?host=/dir for a socket). */
export function parsePgUrl(text: string): string {
  const t = text.trim();
  if (t === '') throw new Error('is required: the PostgreSQL database, postgres://user:password@host:port/database');
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    throw new Error(
      `expected postgres://user:password@host:port/database, got '${t.replace(/\/\/[^/@]*@/, '//***@')}'`,
    );
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new Error(`expected a postgres:// URL, got a ${u.protocol}// one`);
  return t;
}

/** A JetStream stream or consumer name. */
function natsName(text: string): string {
  const t = text.trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(t)) throw new Error(`expected 1..64 letters, digits, '_' or '-', got '${text}'`);
  return t;
}

/** The flags of `svc indexer`; --mq-url and --log-level mean what they mean for the node. */
export const INDEXER_FLAGS: readonly IndexerFlagSpec[] = [
  indexerSpec({
    flag: 'pg-url',
    key: 'pgUrl',
    defaultValue: '',
    help: 'PostgreSQL database to write and read (postgres://user:password@host:port/database); required',
    parse: parsePgUrl,
  }),
  indexerSpec({
    flag: 'mq-url',
    key: 'mqUrl',
    defaultValue: '',
    help: "NATS server(s) of the node's JetStream stream (nats://[user:password@]host:port, comma-separated); empty: serve reads only",
    parse: parseMqUrl,
  }),
  indexerSpec({
    flag: 'mq-stream',
    key: 'mqStream',
    defaultValue: DEFAULT_MQ_STREAM,
    help: 'the JetStream stream the node publishes to',
    parse: natsName,
  }),
  indexerSpec({
    flag: 'indexer-consumer',
    key: 'indexerConsumer',
    defaultValue: DEFAULT_INDEXER_CONSUMER,
    help: 'name of the durable JetStream consumer (one per consuming indexer)',
    parse: natsName,
  }),
  indexerSpec({
    flag: 'indexer-addr',
    key: 'indexerAddr',
    defaultValue: DEFAULT_INDEXER_ADDR,
    help: 'HTTP listen address of the reads, /health and /metrics',
    parse: parseAddress,
  }),
  indexerSpec({
    flag: 'indexer-batch',
    key: 'indexerBatch',
    defaultValue: String(DEFAULT_INDEXER_BATCH),
    help: 'most stream messages written in one database transaction',
    parse: integer(1, 100_000),
  }),
  indexerSpec({
    flag: 'log-level',
    key: 'logLevel',
    defaultValue: 'info',
    help: `JSON log level on stderr (${LOG_LEVELS.join(', ')})`,
    parse: logLevel,
  }),
];

/** SVC_GRPC_ADDR for grpc-addr, and so on. */
export function envName(flag: string): string {
  return `SVC_${flag.replace(/-/g, '_').toUpperCase()}`;
}
