/**
 * Domain -> REST JSON shapes of spec/1 (and design.md's conventions) other than the tick
 * object (its writer sits beside its parser in src/vdf). Pure functions. A u64 that can
 * pass 2^53 (nonce) is never a bare JSON integer above 2^53, which a JavaScript client
 * would round: spec/1's own field (the /tx lookup's `nonce`, an integer there) is a JSON
 * integer up to 2^53 - 1 and a decimal string above (`jsonU64`).
 */
import type { SequencerStatus, TickSummary, TransactionLocation } from '../../core/index.js';
import { shortHash } from '../../core/index.js';

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
      ? {
          follow: {
            leader: s.follow.leader,
            connected: s.follow.connected,
            leader_tick: s.follow.leaderTick,
            lag_ticks: s.follow.lagTicks,
            lag_ms: s.follow.lagMs,
            reconnects: s.follow.reconnects,
            halted: s.follow.halted ?? null,
          },
        }
      : {}),
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
    ticks: ticks.map((t) => ({
      tick_number: t.tickNumber,
      timestamp: t.timestamp,
      transaction_count: t.transactionCount,
    })),
    total: ticks.length,
  };
}
