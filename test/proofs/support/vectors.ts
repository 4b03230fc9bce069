/**
 * docs/proof-vectors.json (docs/proofs.md "Vectors"): inclusion proofs for ticks of 1, 3, 5
 * and 7 transactions (every index), one chained to a later trusted tick, explorer-form
 * proofs with their trusted block, order state proofs for a resting, a cancelled, a filled
 * and a filled-on-arrival order (ended_by in both forms, with the ticks that chain it to the
 * block's anchor), and tampered copies that must fail at each step, all built by the node's
 * builders from the fixture chain (support/fixture.ts). test/proofs/vectors.test.ts
 * checks the file against this and verifies every vector. Regenerate (only when a
 * definition changes on purpose): `node scripts/proof-vectors.mjs` (after npm run build:ts).
 */
import {
  buildChainTransactionProof,
  buildInclusionProof,
  buildOrderStateProof,
  usedIdMemberFromLeaves,
  type ChainTransactionProof,
  type InclusionProof,
  type InclusionStep,
  type OrderEnd,
  type OrderStateProof,
  type OrderStateStep,
} from '../../../src/proofs/index.js';
import { encodeJson } from '../../../src/wire/index.js';
import type { BlockRecord } from '../../../src/chain/core/interface.js';
import { bytesToHex } from '../../../src/crypto/hex.js';
import { sha256 } from '../../../src/crypto/sha256.js';
import type { KeyPair } from '../../../src/crypto/keys.js';
import { MARKET_ID, alice, bob, dave, makeFixture, orderKey, type Fixture } from './fixture.js';

export interface ProofVectors {
  description: string;
  inclusion: { description: string; proof: InclusionProof }[];
  chained: { description: string; proof: InclusionProof; ticks: unknown[]; trusted_output: string };
  /** GET /blocks/1's `block`: the trusted block of the explorer and order state vectors. */
  trusted_block: BlockRecord;
  explorer: { description: string; proof: ChainTransactionProof }[];
  state_root: string;
  order_state: { description: string; proof: OrderStateProof; ended_by_ticks?: unknown[] }[];
  /** Tampered copies: each fails at `step` (with the trusted block, and the chain or ended_by ticks given). */
  negative: NegativeVector[];
}

export interface NegativeVector {
  description: string;
  verify: 'inclusion' | 'explorer' | 'order_state';
  step: InclusionStep | OrderStateStep;
  proof: unknown;
  /** inclusion: the hash the user asked for. */
  expected_hash?: string;
  /** inclusion: the chain step's later ticks and trusted output. */
  chain?: { ticks: unknown[]; trusted_output: string };
  /** order_state: step ended_by_chain's ticks. */
  ended_by_ticks?: unknown[];
}

/** Everything through JSON, as a client receives it (bigints as exact integers). */
const json = <T>(v: T): T => JSON.parse(encodeJson(v)) as T;

export function inclusionOf(f: Fixture, tickNumber: number, index: number): InclusionProof {
  return buildInclusionProof(f.ticks[tickNumber - 1]!, index, f.served[tickNumber - 1]);
}

/** The explorer form (GET /transactions/:id/proof) of transaction `index` of tick `tickNumber`. */
export function explorerOf(f: Fixture, tickNumber: number, index: number): ChainTransactionProof {
  const seq = (BigInt(tickNumber) << 32n) | BigInt(index);
  const t = f.explorer.get(seq);
  if (!t) throw new Error(`no explorer transaction at tick ${tickNumber} index ${index}`);
  return buildChainTransactionProof(
    { transactionId: t.id, blockHeight: t.block_height, batchIndex: t.batch_index, continuumSequence: seq },
    inclusionOf(f, tickNumber, index),
  );
}

export function orderProofOf(
  f: Fixture,
  key: KeyPair,
  orderId: number,
  how: { end?: OrderEnd; endedBy?: [number, number]; explorer?: boolean; wholeBook?: boolean; usedId?: boolean } = {},
): OrderStateProof {
  const usedId =
    how.usedId === false ? undefined : usedIdMemberFromLeaves(f.usedLeaves, key.publicKey, BigInt(orderId));
  return buildOrderStateProof(f.state, {
    marketId: MARKET_ID,
    owner: key.publicKey,
    orderId: BigInt(orderId),
    blockHeight: 1,
    tickNumber: f.ticks.length,
    lastTickOutputHash: bytesToHex(sha256(f.ticks[f.ticks.length - 1]!.vdfProof.output)),
    usedId,
    restedInSlot: how.wholeBook ? undefined : f.restedIn.get(orderKey(key, orderId)),
    wholeBook: how.wholeBook,
    end: how.end,
    endedBy: how.endedBy
      ? how.explorer
        ? explorerOf(f, how.endedBy[0], how.endedBy[1])
        : inclusionOf(f, how.endedBy[0], how.endedBy[1])
      : undefined,
  });
}

/** The ticks after tick n up to the state's last tick, as served: step ended_by_chain's input. */
export function ticksAfter(f: Fixture, n: number): unknown[] {
  return f.served.slice(n);
}

export function makeProofVectors(f: Fixture = makeFixture()): ProofVectors {
  const inclusion: ProofVectors['inclusion'] = [];
  for (const tickNumber of [3, 2, 4, 1]) {
    const count = f.ticks[tickNumber - 1]!.transactions.length;
    for (let i = 0; i < count; i++)
      inclusion.push({
        description: `tick ${tickNumber} (${count} transactions), index ${i}`,
        proof: inclusionOf(f, tickNumber, i),
      });
  }
  const last = f.ticks[f.ticks.length - 1]!;
  const chained = {
    description: 'tick 1 index 6, chained through ticks 2..4 to tick 4 whose output is trusted',
    proof: inclusionOf(f, 1, 6),
    ticks: f.served.slice(1),
    trusted_output: bytesToHex(last.vdfProof.output),
  };
  const explorer = [
    { description: "alice's cancel (tick 2 index 0): batch 1 of block 1, entry 0", proof: explorerOf(f, 2, 0) },
    {
      description: 'alice #1 (tick 1 index 1): batch 0 of block 1, entry 1 (entry 0 is the market creation)',
      proof: explorerOf(f, 1, 1),
    },
  ];
  const order_state = [
    { description: 'bob #1 rests in slot 2', proof: orderProofOf(f, bob, 1) },
    {
      description:
        'alice #2, cancelled in tick 2 (index 0): its slot 1 now holds dave #1; ended_by in the explorer form (as the node serves it), chained by ticks 3..4',
      proof: orderProofOf(f, alice, 2, { end: 'cancelled', endedBy: [2, 0], explorer: true }),
      ended_by_ticks: ticksAfter(f, 2),
    },
    {
      description:
        'alice #1, filled by bob #3 (tick 2 index 1): its slot 0 now holds carol #3; ended_by as a plain inclusion proof, chained by ticks 3..4',
      proof: orderProofOf(f, alice, 1, { end: 'filled', endedBy: [2, 1] }),
      ended_by_ticks: ticksAfter(f, 2),
    },
    {
      description:
        'bob #3, filled on arrival: no entry of the whole book is it; ended_by in the explorer form, chained by ticks 3..4',
      proof: orderProofOf(f, bob, 3, { end: 'filled_on_arrival', endedBy: [2, 1], explorer: true, wholeBook: true }),
      ended_by_ticks: ticksAfter(f, 2),
    },
    { description: 'dave #6 rests (tick 4 index 4)', proof: orderProofOf(f, dave, 6) },
  ];
  return json({
    description:
      'svc proof vectors (docs/proofs.md): a chain of 4 ticks from genesis (T = 20) carrying 7, 3, 1 and 5 signed order book transactions, block 1 over ticks 1..4 (--block-ms 1000, closed by an empty tick 5); inclusion proofs of every transaction, one chained to tick 4, explorer-form proofs, order state proofs against block 1, and tampered copies that fail at each step. All hex lowercase.',
    inclusion,
    chained,
    trusted_block: f.block,
    explorer,
    state_root: bytesToHex(f.state.stateRoot()),
    order_state,
    negative: negatives(f, chained),
  });
}

/** One tampered copy per step (and per ended_by form): what an outside verifier must reject, and where. */
function negatives(f: Fixture, chained: ProofVectors['chained']): NegativeVector[] {
  const out: NegativeVector[] = [];
  const tamper = <T>(v: T, edit: (t: T) => void): T => {
    const t = json(v);
    edit(t);
    return t;
  };
  const inc = inclusionOf(f, 2, 1);
  const ex = explorerOf(f, 2, 0);
  type Inc = InclusionProof & { tick: { found: boolean; tick_number: number; tick: Record<string, unknown> } };
  const i = (
    description: string,
    step: InclusionStep,
    edit: (t: Inc) => void,
    extra: Partial<NegativeVector> = {},
  ): void => {
    out.push({ description, verify: 'inclusion', step, proof: tamper(inc as Inc, edit), ...extra });
  };
  i('shape: index not below transaction_count', 'shape', (t) => (t.index = 3));
  i('transaction: a byte appended to tx', 'transaction', (t) => (t.tx += '00'));
  i('transaction: not the hash the user asked for', 'transaction', () => {}, { expected_hash: '00000000' });
  i('audit_path: a sibling changed', 'audit_path', (t) => (t.audit_path[0] = flip(t.audit_path[0]!)));
  i('audit_path: index changed (same path length)', 'audit_path', (t) => (t.index = 0));
  i("batch_hash: batch_hash and the path's root both changed (the tick's stays)", 'batch_hash', (t) => {
    const other = inclusionOf(f, 3, 0); // a one-leaf tree: its root is its own leaf
    t.tx = other.tx;
    t.index = 0;
    t.transaction_count = 1;
    t.audit_path = [];
    t.batch_hash = other.batch_hash;
  });
  i('tick: found is false', 'tick', (t) => (t.tick.found = false));
  i("tick: the lookup answer's tick_number is another tick's", 'tick', (t) => (t.tick.tick_number = 3));
  i('tick: transaction_count differs from the tick (index 0 of 3 and of 4 share a path)', 'tick', (t) => {
    const zero = inclusionOf(f, 2, 0);
    Object.assign(t, { tx: zero.tx, index: 0, audit_path: zero.audit_path, transaction_count: 4 });
  });
  i(
    "tick_vdf: the tick's timestamp changed (its header no longer matches the VDF input)",
    'tick_vdf',
    (t) => (t.tick.tick.timestamp = (t.tick.tick.timestamp as number) + 1),
  );
  out.push({
    description: "chain: the trusted output is not tick 4's",
    verify: 'inclusion',
    step: 'chain',
    proof: chained.proof,
    chain: { ticks: chained.ticks, trusted_output: flip(chained.trusted_output) },
  });
  out.push({
    description: 'chain: tick 3 missing',
    verify: 'inclusion',
    step: 'chain',
    proof: chained.proof,
    chain: { ticks: [chained.ticks[0], chained.ticks[2]], trusted_output: chained.trusted_output },
  });
  const e = (description: string, step: InclusionStep, edit: (t: ChainTransactionProof) => void): void => {
    out.push({ description, verify: 'explorer', step, proof: tamper(ex, edit) });
  };
  e(
    "block_ids: transaction_id's batch group is not batch_index",
    'block_ids',
    (t) => (t.transaction_id = '0000000000000001-0000-0000'),
  );
  e(
    'block_ids: continuum_sequence is not (tick_number << 32) | index',
    'block_ids',
    (t) => (t.continuum_sequence = String(BigInt(t.continuum_sequence) + 1n)),
  );
  e(
    "block_ids: the id's index group is another entry of the batch (only the trusted block's batch summary binds it)",
    'block_ids',
    (t) => (t.transaction_id = '0000000000000001-0001-0001'),
  );
  e(
    'an inclusion step inside the explorer form: a sibling changed',
    'audit_path',
    (t) => (t.proof.audit_path[0] = flip(t.proof.audit_path[0]!)),
  );

  const resting = orderProofOf(f, bob, 1);
  const cancelled = orderProofOf(f, alice, 2, { end: 'cancelled', endedBy: [2, 0], explorer: true });
  const filled = orderProofOf(f, alice, 1, { end: 'filled', endedBy: [2, 1] });
  const o = (
    description: string,
    step: OrderStateStep,
    base: OrderStateProof,
    edit: (t: OrderStateProof) => void,
    ticks?: unknown[],
  ): void => {
    out.push({
      description,
      verify: 'order_state',
      step,
      proof: tamper(base, edit),
      ...(ticks ? { ended_by_ticks: ticks } : {}),
    });
  };
  o('shape: markets_size 2^32 (does not fit its u32)', 'shape', resting, (t) => (t.markets_size = 2 ** 32));
  o('shape: a not_resting proof without end', 'shape', cancelled, (t) => delete t.end);
  o(
    "market_leaf: the market leaf is another market's",
    'market_leaf',
    resting,
    (t) => (t.market_id = '00000000-0000-4000-8000-000000000000'),
  );
  o(
    "book_leaf: the slot's leaf is another owner's order",
    'book_leaf',
    resting,
    (t) => (t.book = orderProofOf(f, dave, 6).book),
  );
  o(
    "book_path: the leaf's price changed",
    'book_path',
    resting,
    (t) => (t.book!.leaf = flip(t.book!.leaf, 2 * 49 + 1)),
  );
  o(
    'market_path: a sibling changed',
    'market_path',
    resting,
    (t) => (t.market.audit_path[0] = flip(t.market.audit_path[0]!)),
  );
  o(
    "used_id_leaf: the used-id leaf is another id's",
    'used_id_leaf',
    resting,
    (t) => (t.used_id!.leaf = flip(t.used_id!.leaf)),
  );
  o('used_id_path: used_id.index changed', 'used_id_path', resting, (t) => (t.used_id!.index -= 1));
  o('state_root: market_count changed', 'state_root', resting, (t) => (t.market_count = 2));
  o("anchor: tick_number is not the block's last_tick", 'anchor', resting, (t) => (t.tick_number = 3));
  o(
    "anchor: last_tick_output_hash is not the block's",
    'anchor',
    resting,
    (t) => (t.last_tick_output_hash = flip(t.last_tick_output_hash)),
  );
  o(
    'ended_by (explorer form): the ending transaction is another order (a cancel was named)',
    'ended_by',
    cancelled,
    (t) => (t.ended_by = explorerOf(f, 2, 1)),
    ticksAfter(f, 2),
  );
  o(
    'ended_by (plain form): its inclusion fails (a sibling changed)',
    'ended_by',
    filled,
    (t) => ((t.ended_by as InclusionProof).audit_path[0] = flip((t.ended_by as InclusionProof).audit_path[0]!)),
    ticksAfter(f, 2),
  );
  o(
    "ended_by_chain (explorer form): tick 3 missing from the ticks after ended_by's",
    'ended_by_chain',
    cancelled,
    () => {},
    ticksAfter(f, 3),
  );
  const wrongLast = json(ticksAfter(f, 2)) as { tick: { vdf_proof: { output: string } } }[];
  wrongLast[1]!.tick.vdf_proof.output = flip(wrongLast[1]!.tick.vdf_proof.output);
  o("ended_by_chain (plain form): tick 4's output changed", 'ended_by_chain', filled, () => {}, wrongLast);
  return out;
}

/** Flip the lowest bit of hex digit `at` (from the end when negative). */
function flip(h: string, at = -1): string {
  const i = at < 0 ? h.length + at : at;
  return h.slice(0, i) + (parseInt(h[i]!, 16) ^ 1).toString(16) + h.slice(i + 1);
}
