/**
 * A sequencer status with no proven tick, every count zero: what the explorer sees while
 * every proof is on its way (test/chain/api/proofs.test.ts), and what an explorer that
 * serves blocks, not ticks, is given when it has no sequencer behind it (bench/chain.bench.ts).
 * Plain data: it stands for no sequencer's behaviour.
 */
import type { SequencerStatus } from '../../../src/core/types.js';

/** A fresh status object: no tick proven, nothing counted. */
export function noneProven(): SequencerStatus {
  return {
    currentTick: 0,
    totalTransactions: 0,
    pendingTransactions: 0,
    uptimeSeconds: 0,
    transactionsPerSecond: 0,
    startedAt: 0,
  };
}
