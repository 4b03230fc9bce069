/**
 * The lookup behind a transaction inclusion proof (docs/proofs.md "Endpoints"), shared by
 * REST `GET /api/v1/tx/{hash}/proof` and gRPC `GetTransactionProof` so both faces answer
 * the same thing: the proof of a transaction in a proven tick; "ambiguous" with the
 * candidates when a short hash matches several proven transactions; "pending" when the
 * node holds the transaction in an ordered tick whose proof is not stored yet; "unknown"
 * otherwise. The hash is already parsed (8 or 64 lowercase hex, params.ts).
 */
import type { Tick, TransactionLocation } from '../../core/index.js';
import { bytesToHex } from '../../crypto/index.js';
import { buildInclusionProof, type InclusionProof } from '../../proofs/index.js';
import type { Sequencer } from '../index.js';
import { restTick } from '../../vdf/index.js';

/** A proven transaction that shares the asked short hash. */
export interface ProofCandidate {
  txHash: string; // 64 hex
  tickNumber: number;
  sequenceNumber: number;
}

export type ProofLookup =
  | { kind: 'found'; tick: Tick; index: number; proof: InclusionProof }
  | { kind: 'ambiguous'; candidates: ProofCandidate[] }
  | { kind: 'pending' }
  | { kind: 'unknown' };

/** The locations whose full hash is `hash` (64 hex), or all of them for a short hash. */
function matching(locations: TransactionLocation[], hash: string): TransactionLocation[] {
  if (hash.length === 8) return locations;
  return locations.filter((l) => bytesToHex(l.transaction.txHash) === hash);
}

const bySequence = (a: TransactionLocation, b: TransactionLocation): number =>
  a.transaction.sequenceNumber - b.transaction.sequenceNumber;

/**
 * Find the transaction `hash` (8 or 64 lowercase hex) and build its proof. A full hash
 * that somehow matches twice (the same bytes sequenced twice) answers the earliest. O(n)
 * hashes for a tick of n transactions.
 */
export async function lookupTransactionProof(sequencer: Sequencer, hash: string): Promise<ProofLookup> {
  const short = hash.slice(0, 8);
  const proven = matching(await sequencer.findTransactions(short), hash).sort(bySequence);
  if (proven.length > 1 && hash.length === 8) {
    return {
      kind: 'ambiguous',
      candidates: proven.map((l) => ({
        txHash: bytesToHex(l.transaction.txHash),
        tickNumber: l.tickNumber,
        sequenceNumber: l.transaction.sequenceNumber,
      })),
    };
  }
  const loc = proven[0];
  if (loc) {
    const tick = await sequencer.getTick(loc.tickNumber);
    const first = tick?.transactions[0]?.sequenceNumber;
    if (tick && first !== undefined) {
      const index = loc.transaction.sequenceNumber - first;
      return { kind: 'found', tick, index, proof: buildInclusionProof(tick, index, restTick(tick, false)) };
    }
  }
  const waiting = sequencer.findUnprovenTransactions
    ? matching(await sequencer.findUnprovenTransactions(short), hash)
    : [];
  return waiting.length > 0 ? { kind: 'pending' } : { kind: 'unknown' };
}
