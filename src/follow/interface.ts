/**
 * Types of the full node's follower (issue 9, docs/full-node.md): what it needs to start,
 * and the failures that stop it. A follower is a Sequencer (src/sequencer/interface.ts)
 * whose ticks come from a leader over gRPC StreamTicks, verified before they are stored.
 */
import type { Piscina } from 'piscina';
import type { BuilderState } from '../chain/core/index.js';
import type { OpenRecords } from '../chain/core/index.js';
import type { ChainOp, ChainStore, StoredSnapshot } from '../chain/core/index.js';
import type { Database } from '../db/index.js';

/**
 * What starting from a leader's snapshot (snapshot-bootstrap.ts) and serving one
 * (snapshot-service.ts) need of the chain's own code. Declared here and handed in by
 * src/node (src/chain's functions), so the follower never reaches into the chain's
 * runtime or its faces: it feeds the chain, the chain does not feed it.
 */
export interface ChainSnapshotCode {
  /** The builder state of a stored snapshot, by the code a restart uses; throws if it does not decode or its parts disagree on the tick. */
  restoreSnapshot(snap: StoredSnapshot): { builderState: BuilderState };
  /** The stored records of the block open at the builder state's tick (a leader's side). */
  readOpenRecords(store: ChainStore, builder: BuilderState): Promise<OpenRecords>;
  /** The store operations that write those records (a new full node's side); throws naming the first record that does not fit the builder state. */
  openRecordOps(store: ChainStore, builder: BuilderState, records: OpenRecords): ChainOp[];
}

export interface FollowerOptions {
  leader: string; // the leader's gRPC address, host:port (the first of --follow / SVC_FOLLOW)
  /** Every --follow address in order (the first is `leader`): after a refused tick the next one is tried. */
  leaders?: string[];
  db: Database;
  pool: Piscina; // batch VDF verification runs here, split across its threads
  retainTicks: number;
  /**
   * --follow-from snapshot: an empty --db-path starts from the leader's snapshot
   * (snapshot-bootstrap.ts), checked and written by this code of the chain's, not from tick 1.
   */
  fromSnapshot?: ChainSnapshotCode;
  retainBytes?: number;
  /** The follower cannot go on (its own store failed): the node exits naming it. */
  onFatal: (err: FollowError) => void;
  /** A tick from the leader was refused: following is halted (and retried); the node keeps serving. */
  onHalt?: (err: FollowError) => void;
  /** First and longest wait before following again after a refused tick, ms (default 1000 and 30000). */
  haltRetryMinMs?: number;
  haltRetryMaxMs?: number;
  /** Errors no caller receives (a tick listener that threw, a retry of the leader connection). */
  onError?: (err: Error) => void;
  /** Log of reconnections and progress; optional. */
  onInfo?: (fields: Record<string, unknown>, message: string) => void;
  /** Ticks per verification chunk (default 256); live ticks go as they arrive. */
  chunkTicks?: number;
  /** First and longest wait between reconnection attempts, ms (default 100 and 5000). */
  retryMinMs?: number;
  retryMaxMs?: number;
}

/** Why a tick from the leader was refused. */
export interface TickFailure {
  tickNumber: number;
  code: string; // INVALID_PROOF, BAD_BATCH_HASH, BAD_TX_HASH, CHAIN_BREAK, BAD_GENESIS, BAD_SEQUENCE, MISSING_TICK, ...
  message: string;
}

/** Bad data from the leader (following halts, nothing of it stored), or a failure for good. */
export class FollowError extends Error {
  override readonly name = 'FollowError';
  constructor(
    message: string,
    readonly tickNumber?: number,
    readonly code?: string,
  ) {
    super(message);
  }
}
