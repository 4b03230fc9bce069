/**
 * Types of the chain (spec/3): the JSON records a node stores and serves (BlockRecord,
 * BatchSummary, ExplorerTransaction, MarketCreation, ExplorerEvent, block detail, status),
 * the read/subscribe surface over STORED chain data (`ChainReader`, used by the explorer
 * REST, the WebSocket, StreamTx, the message-queue producer and a full node's roots), and
 * the chain's options.
 *
 * Every record here is a pure function of the stored ticks: a node that applies the same
 * ticks stores the same blocks, ids, events and roots.
 *
 * JSON: u64 values that can pass 2^53 (price, quantity, order_id, continuum_sequence,
 * expiry) are `bigint` here and are written as exact JSON integers by `encodeJson`
 * (src/wire/json.ts); heights, indexes, counts and timestamps are `number`.
 * Byte arrays that spec/3 types as `[u8; 32]` (state_root) are arrays of 32 integers.
 */

export type MarketKind = 'Spot' | 'Perp';

/** spec/3 BatchSummary: the order book transactions of one tick inside a block. */
export interface BatchSummary {
  index: number; // u32, batch index within the block (0, 1, ...)
  tick_number: number; // u64, the sequencer tick that carried the batch
  order_count: number; // orders in the batch
  cancel_count: number; // cancels in the batch
  continuum_sequences: bigint[]; // u64 each: (tick_number << 32) | index_in_tick, one per transaction
  /** The tick's transaction_batch_hash (hex): the Merkle root the tick's VDF input commits to. */
  batch_hash: string;
  /** Extension: market creations in the batch (its entries besides the transactions). */
  market_count: number;
}

/** spec/3 BlockRecord. */
export interface BlockRecord {
  height: number; // from 1
  state_root: number[]; // 32 integers: the state root after the block (docs/chain.md)
  applied_batches: number; // cumulative batch count up to and including this block
  applied_orders: number; // orders of this block that matched (traded at least once on arrival)
  produced_at: number; // unix seconds of the block's last tick
  total_orders: number; // order transactions in the block
  total_cancels: number; // cancel transactions in the block
  batch_summaries: BatchSummary[];
  transaction_ids: string[]; // the ExplorerTransactions' ids (orders and cancels), id order
  event_ids: string[];
  /** Extensions: market creations in the block; first and last tick of its batches; trades; the last tick's anchor. */
  total_markets: number;
  first_tick: number;
  last_tick: number;
  trade_count: number;
  /** SHA-256 of tick last_tick's VDF output (64 hex): anchors the block in the tick chain (docs/proofs.md). */
  last_tick_output_hash: string;
}

/**
 * spec/3 ExplorerTransaction: an accepted order or a successful cancel, exactly spec/3's
 * two kinds, with every field spec/3 lists for both always present. Refused ones (bad
 * signature, replayed order id, unknown market, ...) stay visible in the ticks (/api/v1)
 * only. Market creations also change the state but are not transactions of spec/3: they
 * are MarketCreation records (below).
 */
export interface ExplorerTransaction {
  id: string; // {height:016x}-{batch:04x}-{index:04x}
  block_height: number;
  batch_index: number;
  kind: 'order' | 'cancel' | 'cancel_all'; // cancel_all: an extension (docs/chain.md)
  market_id: string;
  market_name: string;
  market_kind: MarketKind;
  owner: string; // Base58
  side?: 'Buy' | 'Sell'; // orders; a mass cancel limited to one side
  price?: bigint; // orders
  quantity?: bigint; // orders
  base_mint?: string; // orders (Base58)
  quote_mint?: string; // orders (Base58)
  order_id: bigint; // a mass cancel: its request_id
  timestamp_ms: number; // the sequencer transaction's submission timestamp, ms
  continuum_sequence: bigint;
  signature: string; // owner's ed25519 signature, hex
  // Extensions (docs/chain.md):
  tick_number: number;
  sequence_number: number; // the sequencer's global sequence number
  tx_hash: string; // full SHA-256 of the sequencer transaction (64 hex); /api/v1/tx/<first 8>
  expiry?: bigint; // orders: unix seconds, 0 = none
  status?: 'resting' | 'partially_filled' | 'filled'; // orders: right after matching
  filled_quantity?: bigint; // orders: filled on arrival
  cancelled_quantity?: bigint; // cancels: quantity that was still resting (mass cancels: the sum)
  cancelled_order_ids?: bigint[]; // mass cancels: the orders it ended, in continuum_sequence order
}

/**
 * Extension: a market created by a batch (unsigned, so no owner, order id or signature).
 * It is an entry of its batch like the transactions: its id is `{height}-{batch}-{index}`
 * with `index` its place among the batch's entries (transactions and market creations
 * numbered together, so a transaction's id never depends on this split), and its
 * continuum_sequence is in the batch summary's `continuum_sequences`.
 */
export interface MarketCreation {
  id: string;
  block_height: number;
  batch_index: number;
  market_id: string;
  market_name: string;
  market_kind: MarketKind;
  base_mint: string; // Base58
  quote_mint: string; // Base58
  timestamp_ms: number;
  continuum_sequence: bigint;
  tick_number: number;
  sequence_number: number;
  tx_hash: string; // full SHA-256 of the sequencer transaction (64 hex)
}

/** spec/3 ExplorerEvent: one per (batch, market) touched by the batch. */
export interface ExplorerEvent {
  id: string; // {height:016x}-{batch:04x}-{index:04x}, index = the event's place in its batch
  block_height: number;
  batch_index: number;
  market_id: string;
  market_name: string;
  applied_orders: number; // orders of this batch and market that matched on arrival
  batch_hash: string;
  // Extensions:
  tick_number: number;
  order_count: number;
  cancel_count: number;
  trade_count: number;
}

/** spec/3 block detail object, plus the block's market creations (extension). */
export interface BlockDetail {
  block: BlockRecord;
  transactions: ExplorerTransaction[];
  events: ExplorerEvent[];
  markets: MarketCreation[];
}

/** spec/3 node status, plus extensions. */
export interface ChainStatus {
  block_height: number; // latest produced block (0 before the first)
  state_root: number[]; // of that block (32 zero integers before the first)
  applied_batches: number;
  // Extensions:
  latest_tick: number; // last tick applied to the chain
  open_block_height: number; // height the next block will have (its transactions may already be stored)
  total_transactions: number; // transactions in produced blocks
  total_events: number; // events in produced blocks
}

/** The stored order book transactions of one tick (one batch), as StreamTx and the queue carry them. */
export interface TransactionBatch {
  tick_number: number;
  block_height: number;
  batch_index: number;
  batch_hash: string;
  transactions: ExplorerTransaction[]; // continuum_sequence order
}

/**
 * The stored records of the block still open at a snapshot's tick, as JSON texts in id
 * order (open-records.ts reads and writes them; a leader streams them to a full node
 * started from its snapshot).
 */
export interface OpenRecords {
  transactions: string[]; // ExplorerTransaction and MarketCreation JSON, id order
  events: string[]; // ExplorerEvent JSON, id order
}

export type Unsubscribe = () => void;

/** A running feed of stored then live records to one handler (followTransactions / followBlocks). */
export interface RecordFeed {
  /** Stop the feed; resolves `done`. */
  stop(): void;
  /** Settles when the feed stopped (stop(), chain closed) or its handler threw. */
  done: Promise<void>;
}

/**
 * The read/subscribe surface over STORED chain data. Everything a listener or a reader
 * sees has been written to the node's LevelDB first (and survives kill -9).
 *
 * Gap-free following: subscribe first, then read the stored range up to what the
 * listener has not yet seen, skipping duplicates by continuum_sequence / height; or use
 * followTransactions / followBlocks, which do exactly that with backpressure.
 */
export interface ChainReader {
  /** Latest produced block height (0 before the first block). */
  latestHeight(): number;
  /** continuum_sequence of the last stored transaction (0n before the first). */
  lastStoredSequence(): bigint;
  status(): ChainStatus;

  /** One block detail, or undefined if that height is not produced (yet). */
  readBlock(height: number): Promise<BlockDetail | undefined>;
  /** Produced block details in [fromHeight, toHeight], oldest first (clamped to what exists). */
  readBlockDetails(fromHeight: number, toHeight: number): AsyncIterable<BlockDetail>;
  /** Called with each new block detail once it is stored, in height order. */
  onBlock(listener: (detail: BlockDetail) => void): Unsubscribe;

  /**
   * Stored transactions with continuum_sequence >= fromSequence (and <= toSequence when
   * given), grouped by batch, oldest first. The first batch is trimmed to fromSequence.
   */
  readTransactionsFrom(fromSequence: bigint, toSequence?: bigint): AsyncIterable<TransactionBatch>;
  /** Called with each tick's batch once it is stored, in continuum_sequence order. */
  onTransactions(listener: (batch: TransactionBatch) => void): Unsubscribe;
  /** One stored transaction by id (any stored one, also of the block still open). */
  getTransaction(id: string): Promise<ExplorerTransaction | undefined>;

  /**
   * The stored JSON texts (exactly what REST serves) of up to `limit` transactions with
   * continuum_sequence >= fromSequence, oldest first, without parsing them: for consumers
   * that forward records as they are (the JetStream producer).
   */
  readTransactionJsons(fromSequence: bigint, limit: number): Promise<string[]>;
  /** The stored JSON texts of a produced block's BlockRecord, its events and its market creations, or undefined. */
  readBlockJsons(height: number): Promise<{ block: string; events: string[]; markets: string[] } | undefined>;

  /**
   * Deliver every stored batch from `fromSequence` on, then live ones, in order, without
   * gaps or duplicates; awaits `handler` before the next (its pace is the backpressure).
   */
  followTransactions(fromSequence: bigint, handler: (batch: TransactionBatch) => Promise<void> | void): RecordFeed;
  /** Same for blocks from `fromHeight` (inclusive). */
  followBlocks(fromHeight: number, handler: (detail: BlockDetail) => Promise<void> | void): RecordFeed;
}

/** Options of the chain node (flags in src/config/flags.ts). */
export interface ChainOptions {
  blockMs: number; // --block-ms: block interval on tick timestamps (default 200)
  /** Order book transactions applied between state snapshots, at least (--snapshot-txs). */
  snapshotTxs: number;
  /** Ticks applied between state snapshots, at least, when fewer transactions came (--snapshot-ticks). */
  snapshotTicks: number;
}

export const DEFAULT_BLOCK_MS = 200;
export const DEFAULT_SNAPSHOT_TXS = 10_000;
export const DEFAULT_SNAPSHOT_TICKS = 2_000;
