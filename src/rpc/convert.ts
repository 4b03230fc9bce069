/**
 * Domain -> REST JSON shapes of spec/1 (and design.md's conventions). Pure functions.
 * Byte fields are lowercase hex without 0x. A u64 that can pass 2^53 (nonce, a
 * transaction's timestamp) is never a bare JSON integer above 2^53, which a JavaScript
 * client would round: spec/1's own field (the /tx lookup's `nonce`, an integer there) is
 * a JSON integer up to 2^53 - 1 and a decimal string above (`jsonU64`); the tick
 * transactions' `nonce` and `timestamp` (an extension) are always decimal strings.
 */
import type { OrderedTransaction, SequencerStatus, Tick, TickSummary, TransactionLocation } from '../core/types.js';
import { ingestionDigest } from '../vdf/binding.js';
import { hex, shortHash } from './grpc/wire.js';

export interface RestVdfProof {
  input: string;
  output: string;
  proof: string;
  iterations: number;
}

export function restStatus(s: SequencerStatus) {
  return {
    chain_height: s.currentTick,
    total_transactions: s.totalTransactions,
    latest_tick: s.currentTick,
    status: 'running' as const,
    pending_transactions: s.pendingTransactions,
    transactions_per_second: s.transactionsPerSecond,
    uptime_seconds: Math.floor(s.uptimeSeconds),
    ...(s.follow
      ? { follow: { leader: s.follow.leader, connected: s.follow.connected, leader_tick: s.follow.leaderTick, lag_ticks: s.follow.lagTicks, reconnects: s.follow.reconnects, halted: s.follow.halted ?? null } }
      : {}),
  };
}

export function restVdfProof(tick: Tick): RestVdfProof {
  return {
    input: hex(tick.vdfProof.input),
    output: hex(tick.vdfProof.output),
    proof: hex(tick.vdfProof.proof),
    iterations: tick.vdfProof.iterations,
  };
}

/**
 * GET /api/v1/tick/{n}: the tick with every field its VDF input binds (docs/vdf.md "What a
 * tick's VDF input binds": first_sequence and ingestion_digest beside spec/1's fields);
 * `withTransactions` adds each transaction with what its full hash is computed from, so
 * a browser can recompute the batch hash and the ingestion digest.
 */
export function restTick(tick: Tick, withTransactions = false) {
  const txs = tick.transactions;
  return {
    tick_number: tick.tickNumber,
    found: true as const,
    tick: {
      tick_number: tick.tickNumber,
      timestamp: tick.timestamp,
      first_sequence: txs.length > 0 ? txs[0]!.sequenceNumber : 0,
      transaction_count: txs.length,
      transaction_batch_hash: hex(tick.batchHash),
      ingestion_digest: hex(ingestionDigest(txs.map((o) => o.ingestionTimestamp))),
      vdf_iterations: tick.vdfProof.iterations,
      previous_output: hex(tick.previousOutput),
      vdf_proof: restVdfProof(tick),
      ...(withTransactions ? { transactions: txs.map(restTickTransaction) } : {}),
    },
  };
}

/** One transaction of a tick: its Borsh fields (bytes as hex), its place and its full hash (64 hex). */
function restTickTransaction(o: OrderedTransaction) {
  const t = o.transaction;
  return {
    sequence_number: o.sequenceNumber,
    ingestion_timestamp: o.ingestionTimestamp,
    tx_hash: hex(o.txHash),
    tx_id: t.txId,
    payload: hex(t.payload),
    signature: hex(t.signature),
    public_key: hex(t.publicKey),
    // u64s as decimal strings: a browser's JSON.parse would round integers above 2^53.
    nonce: t.nonce.toString(),
    timestamp: t.timestamp.toString(),
  };
}

/** Earliest transaction (lowest sequence number) among those sharing an 8-hex hash. */
export function earliest(matches: TransactionLocation[]): TransactionLocation | undefined {
  let best: TransactionLocation | undefined;
  for (const m of matches) {
    if (!best || m.transaction.sequenceNumber < best.transaction.sequenceNumber) best = m;
  }
  return best;
}

export function restTransaction(loc: TransactionLocation, matches: number) {
  const o = loc.transaction;
  return {
    tx_hash: shortHash(o.txHash),
    tick_number: loc.tickNumber,
    sequence_number: o.sequenceNumber,
    found: true as const,
    transaction: {
      tx_id: o.transaction.txId,
      nonce: jsonU64(o.transaction.nonce),
      ingestion_timestamp: o.ingestionTimestamp,
      payload_size: o.transaction.payload.length,
    },
    matches,
  };
}

/** A u64 for JSON: an integer while exact in a double (<= 2^53 - 1), else its decimal string. */
export function jsonU64(value: bigint): number | string {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

export function restRecentTicks(ticks: TickSummary[]) {
  return {
    ticks: ticks.map((t) => ({ tick_number: t.tickNumber, timestamp: t.timestamp, transaction_count: t.transactionCount })),
    total: ticks.length,
  };
}

