/**
 * Domain types of the tick sequencer (spec/1), shared by the store, the front-ends
 * (gRPC, REST), the order book and the chain node. Numbers that stay below 2^53
 * (tick and sequence numbers, microsecond timestamps, iterations) are `number`;
 * client-chosen u64 values (nonce, client timestamp) are `bigint`.
 */

/** A client transaction as submitted (spec/1 "Transaction (input)"). */
export interface Transaction {
  txId: string;
  payload: Uint8Array;
  signature: Uint8Array;
  publicKey: Uint8Array;
  nonce: bigint;
  timestamp: bigint; // client timestamp, microseconds
}

/** A sequenced transaction, as carried in a tick. */
export interface OrderedTransaction {
  transaction: Transaction;
  sequenceNumber: number;
  txHash: Uint8Array; // full SHA-256 of the Borsh transaction bytes (32 bytes)
  ingestionTimestamp: number; // microseconds
}

/** A closed, durable tick. */
export interface Tick {
  tickNumber: number;
  vdfProof: {
    input: Uint8Array; // 256 bytes
    output: Uint8Array; // 256 bytes
    proof: Uint8Array; // 256 bytes
    iterations: number;
  };
  transactions: OrderedTransaction[];
  batchHash: Uint8Array; // 32 bytes
  timestamp: number; // microseconds, when the tick closed
  previousOutput: Uint8Array; // 256 bytes
}

/** Answer to a successful submission (spec/1 SubmitTransactionResponse). */
export interface SubmitResult {
  sequenceNumber: number;
  expectedTick: number;
  txHash: string; // 8 lowercase hex characters
}

/** Where a transaction landed, for lookups by its 8-hex hash. */
export interface TransactionLocation {
  tickNumber: number;
  transaction: OrderedTransaction;
}

/** Short form used by "recent ticks" listings. */
export interface TickSummary {
  tickNumber: number;
  timestamp: number;
  transactionCount: number;
}

/** Live figures for GetStatus, /api/v1/status and metrics. */
export interface SequencerStatus {
  currentTick: number; // latest durable tick (0 before the first)
  totalTransactions: number; // transactions in durable ticks
  pendingTransactions: number; // accepted, not yet in a durable tick
  uptimeSeconds: number;
  transactionsPerSecond: number; // measured current rate
  startedAt: number; // microseconds
  /** A full node's standing against its leader (svc node --follow); absent on a leader. */
  follow?: FollowFigures;
}

/** Where a full node stands against its leader (src/follow). */
export interface FollowFigures {
  leader: string; // the leader's gRPC address
  connected: boolean; // the tick stream is up
  leaderTick: number; // the leader's latest tick, as far as known
  lagTicks: number; // leaderTick - the last verified and stored tick
  lagMs: number; // ms since this node learned the leader had the first tick it has not stored (0: none); src/follow/lag-clock.ts
  reconnects: number;
  halted?: FollowHalt; // following halted on bad data from the leader (src/follow/halt.ts)
}

/** Why a full node stopped taking ticks from its leader; it retries (docs/full-node.md). */
export interface FollowHalt {
  code: string; // INVALID_PROOF, BAD_BATCH_HASH, STATE_ROOT_MISMATCH, ...
  tick?: number; // the refused tick
  block?: number; // the block that differs
  leader: string; // the leader that served it
  message: string;
  retries: number; // times the same refusal came again since
}
