/**
 * The sequencer node's surface: what the gRPC and REST front-ends, the order book and
 * the chain node use. Implemented by `createSequencer()` in ./index.ts.
 */
import { Refusal } from '../core/index.js';
import type { Database } from '../db/index.js';
import type { Piscina } from 'piscina';
import type {
  SequencerStatus,
  SubmitResult,
  Tick,
  TickSummary,
  Transaction,
  TransactionLocation,
} from '../core/index.js';

/** SubmitBatch's most transactions per call: here too so a client splits batches without loading the sequencer. */
export { MAX_BATCH_TRANSACTIONS } from './limits.js';

export interface SequencerOptions {
  db: Database; // opened by the node (src/db) under --db-path; the sequencer uses its own sublevels
  pool: Piscina; // the node's worker pool (src/pool), for heartbeat proofs
  retainTicks: number; // --retain-ticks: ticks kept in memory
  retainBytes?: number; // --retain-bytes: memory bound of those ticks (default: none)
  vdfIterations: number; // --vdf-iterations: minimum squarings of a busy tick
  idleTickMs: number; // --idle-tick-ms: heartbeat interval with no transactions waiting
  queueCapacity: number; // --queue-capacity: transactions accepted but not yet ticked (and applied: `backlog`)
  /**
   * Transactions in ordered ticks that what follows ordering (the node thread) has not
   * applied yet: they count toward `queueCapacity`, so ordering cannot run ahead of it
   * without bound. Default: none.
   */
  backlog?: () => number;
  /** VDF engine of the clock: 'auto' (WASM when built, else reference; default), 'wasm', 'reference'. */
  engine?: 'auto' | 'wasm' | 'reference';
  /** Replay window: how many recent transactions replay protection remembers (default 100,000). */
  replayWindow?: number;
  /**
   * Errors no caller can receive: a tick listener that threw (the sequencer goes on), or a
   * failure for good (clock worker died, database write failed; submissions then get
   * UNAVAILABLE). Log them.
   */
  onError?: (err: Error) => void;
}

/**
 * A whole request validated, hashed and encoded off the order (prepare.ts, which writes and
 * reads it and documents the layout): bodies and replay keys in one buffer, LAYOUT_STRIDE
 * int32 per item in `layout`, the invalid items' messages in `errors`.
 */
export interface PreparedBatch {
  count: number;
  bytes: Uint8Array;
  layout: Int32Array;
  errors: Array<{ index: number; message: string }>;
}

/** Why a submission was refused; `code` maps onto a gRPC status by the front-end. */
export type SubmitErrorCode = 'INVALID_ARGUMENT' | 'RESOURCE_EXHAUSTED' | 'ALREADY_EXISTS' | 'UNAVAILABLE';

/** The sequencer's refusal of a submission (core's coded Refusal; its codes are gRPC's names). */
export class SubmitError extends Refusal<SubmitErrorCode> {
  constructor(code: SubmitErrorCode, message: string) {
    super(code, message);
    this.name = 'SubmitError';
  }
}

/**
 * `bodies`: each transaction's stored form (docs/storage.md), where the sequencer has them
 * (its ordered ticks since start; never after a restart): a listener that packs the tick
 * copies them instead of encoding every transaction again.
 */
export type TickListener = (tick: Tick, bodies?: readonly Uint8Array[]) => void;

export interface Sequencer {
  /** Open the database, resume the chain, start the clock. */
  start(): Promise<void>;
  /** Stop accepting, tick out what is in flight, flush, close the database. */
  stop(): Promise<void>;

  /**
   * Validate, hash, sequence and enqueue one transaction; resolves once the transaction
   * is durable (write-ahead in the database), so an acknowledged transaction survives
   * `kill -9`. Rejects with SubmitError.
   */
  submit(tx: Transaction): Promise<SubmitResult>;
  /** Same for many; a failed item keeps its place as a SubmitError, the rest go on. */
  submitBatch(txs: Transaction[]): Promise<Array<SubmitResult | SubmitError>>;
  /**
   * Same for a request prepared elsewhere (an intake worker, prepare.ts): it takes its
   * place in the arrival order at the call and is admitted when its turn comes. Only a
   * sequencer that orders transactions itself has it (a full node forwards instead).
   */
  submitPrepared?(batch: PreparedBatch | Promise<PreparedBatch>): Promise<Array<SubmitResult | SubmitError>>;

  /** A durable, proven tick from memory or disk; undefined if it does not exist (yet). */
  getTick(tickNumber: number): Promise<Tick | undefined>;
  /** Every durable transaction whose 8-hex hash matches (collisions give several). */
  findTransactions(txHash8: string): Promise<TransactionLocation[]>;
  /**
   * Every transaction whose 8-hex hash matches in a tick that is durable and ordered but not
   * yet proven (docs/sequencer.md "Order first, proof after"): a proof of it is "pending".
   * Absent where every durable tick is already proven (a full node).
   */
  findUnprovenTransactions?(txHash8: string): Promise<TransactionLocation[]>;
  /** Newest first, from memory (a promise where the memory is another thread's). */
  recentTicks(limit: number, offset: number): TickSummary[] | Promise<TickSummary[]>;
  /** Durable, proven ticks in [from, to], oldest first, memory or disk (for replays and rebuilds). */
  readTicks(from: number, to: number): AsyncIterable<Tick>;
  status(): SequencerStatus;

  /** Called with each tick once it is durable and proven, in tick order. Returns an unsubscribe function. */
  onTick(listener: TickListener): () => void;

  /**
   * The ticks as soon as they are durable and ordered, before their VDF proofs are stored
   * (docs/sequencer.md "Order first, proof after"): for what depends only on the order,
   * such as the order book. Absent where every durable tick is already proven (a full node).
   */
  orderedTicks?(): OrderedTicks;
}

/** The read side over ordered ticks: `onTick` and `readTicks` include ticks still waiting for a proof; `status().currentTick` is the last ordered tick. */
export type OrderedTicks = Pick<Sequencer, 'onTick' | 'readTicks' | 'status'>;
