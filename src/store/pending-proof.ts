/**
 * A proof not computed yet: the all-zero element (0 is no element of the group, so it is
 * never a valid proof). A tick is stored with it when it is ordered before the pool has
 * proven it (docs/sequencer.md "Order first, proof after").
 */
export function isPendingProof(proof: Uint8Array): boolean {
  for (let i = proof.length - 1; i >= 0; i--) if (proof[i] !== 0) return false;
  return true;
}
