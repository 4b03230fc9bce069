/**
 * docs/proof-vectors.json (docs/proofs.md "Vectors"): inclusion proofs for ticks of 1, 3, 5
 * and 7 transactions (every index), one chained to a later trusted tick, and order state
 * proofs for a resting, a cancelled, a filled and a filled-on-arrival order, all built by
 * the node's builders from the fixture chain (support/fixture.ts). test/proofs/vectors.test.ts
 * checks the file against this and verifies every vector. Regenerate (only when a
 * definition changes on purpose): `node scripts/proof-vectors.mjs` (after npm run build:ts).
 */
import { buildInclusionProof, buildOrderStateProof, usedIdMemberFromLeaves, type InclusionProof, type OrderEnd, type OrderStateProof } from '../../../src/proofs/index.js';
import { bytesToHex } from '../../../src/crypto/hex.js';
import type { KeyPair } from '../../../src/sdk/keys.js';
import { MARKET_ID, alice, bob, dave, makeFixture, orderKey, type Fixture } from './fixture.js';

export interface ProofVectors {
  description: string;
  inclusion: { description: string; proof: InclusionProof }[];
  chained: { description: string; proof: InclusionProof; ticks: unknown[]; trusted_output: string };
  state_root: string;
  order_state: { description: string; proof: OrderStateProof }[];
}

/** Everything through JSON, as a client receives it. */
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export function inclusionOf(f: Fixture, tickNumber: number, index: number): InclusionProof {
  return buildInclusionProof(f.ticks[tickNumber - 1]!, index, f.served[tickNumber - 1]);
}

export function orderProofOf(f: Fixture, key: KeyPair, orderId: number, how: { end?: OrderEnd; endedBy?: [number, number]; wholeBook?: boolean; usedId?: boolean } = {}): OrderStateProof {
  const usedId = how.usedId === false ? undefined : usedIdMemberFromLeaves(f.usedLeaves, key.publicKey, BigInt(orderId));
  return buildOrderStateProof(f.state, {
    marketId: MARKET_ID,
    owner: key.publicKey,
    orderId: BigInt(orderId),
    blockHeight: 1,
    tickNumber: f.ticks.length,
    usedId,
    restedInSlot: how.wholeBook ? undefined : f.restedIn.get(orderKey(key, orderId)),
    wholeBook: how.wholeBook,
    end: how.end,
    endedBy: how.endedBy ? inclusionOf(f, how.endedBy[0], how.endedBy[1]) : undefined,
  });
}

export function makeProofVectors(f: Fixture = makeFixture()): ProofVectors {
  const inclusion: ProofVectors['inclusion'] = [];
  for (const tickNumber of [3, 2, 4, 1]) {
    const count = f.ticks[tickNumber - 1]!.transactions.length;
    for (let i = 0; i < count; i++) inclusion.push({ description: `tick ${tickNumber} (${count} transactions), index ${i}`, proof: inclusionOf(f, tickNumber, i) });
  }
  const last = f.ticks[f.ticks.length - 1]!;
  return json({
    description:
      'svc proof vectors (docs/proofs.md): a chain of 4 ticks from genesis (T = 20) carrying 7, 3, 1 and 5 signed order book transactions; inclusion proofs of every transaction, one chained to tick 4, and order state proofs against the state after tick 4 (labelled block 1). All hex lowercase.',
    inclusion,
    chained: { description: 'tick 1 index 6, chained through ticks 2..4 to tick 4 whose output is trusted', proof: inclusionOf(f, 1, 6), ticks: f.served.slice(1), trusted_output: bytesToHex(last.vdfProof.output) },
    state_root: bytesToHex(f.state.stateRoot()),
    order_state: [
      { description: 'bob #1 rests in slot 2', proof: orderProofOf(f, bob, 1) },
      { description: 'alice #2, cancelled in tick 2 (index 0): its slot 1 now holds dave #1', proof: orderProofOf(f, alice, 2, { end: 'cancelled', endedBy: [2, 0] }) },
      { description: 'alice #1, filled by bob #3 (tick 2 index 1): its slot 0 now holds carol #3', proof: orderProofOf(f, alice, 1, { end: 'filled', endedBy: [2, 1] }) },
      { description: 'bob #3, filled on arrival: no entry of the whole book is it', proof: orderProofOf(f, bob, 3, { end: 'filled_on_arrival', endedBy: [2, 1], wholeBook: true }) },
      { description: 'dave #6 rests (tick 4 index 4)', proof: orderProofOf(f, dave, 6) },
    ],
  });
}
