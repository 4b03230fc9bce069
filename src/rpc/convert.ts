/**
 * Domain -> REST JSON shapes of spec/1 (and design.md's conventions). Pure functions.
 * Byte fields are lowercase hex without 0x. u64 values that can exceed 2^53 (nonce)
 * stay bigint here; rest/json.ts writes them as exact JSON integers.
 */
import type { SequencerStatus, Tick, TickSummary, TransactionLocation } from '../core/types.js';
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

export function restTick(tick: Tick) {
  return {
    tick_number: tick.tickNumber,
    found: true as const,
    tick: {
      tick_number: tick.tickNumber,
      timestamp: tick.timestamp,
      transaction_count: tick.transactions.length,
      transaction_batch_hash: hex(tick.batchHash),
      vdf_iterations: tick.vdfProof.iterations,
      previous_output: hex(tick.previousOutput),
      vdf_proof: restVdfProof(tick),
    },
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
      nonce: o.transaction.nonce,
      ingestion_timestamp: o.ingestionTimestamp,
      payload_size: o.transaction.payload.length,
    },
    matches,
  };
}

export function restRecentTicks(ticks: TickSummary[]) {
  return {
    ticks: ticks.map((t) => ({ tick_number: t.tickNumber, timestamp: t.timestamp, transaction_count: t.transactionCount })),
    total: ticks.length,
  };
}

export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}
