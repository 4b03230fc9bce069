/**
 * Order state proofs from the real engine's state (the fixture chain): resting orders, a
 * cancelled one (slot now another order's), a filled one, one filled on arrival (whole
 * book); the recomputed state_root is the engine's; every field tampered (leaf fields,
 * paths, indexes, roots, counts, sizes, height, tick, ended_by) fails at its step; the
 * builder refuses unknown orders; hostile shapes never throw.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import type { BrowserVerifier } from '../../src/browser/index.js';
import {
  buildOrderStateProof,
  verifyOrderState,
  type OrderStateProof,
  type OrderStateStep,
} from '../../src/proofs/index.js';
import { toBase58Key } from '../../src/crypto/base58.js';
import { MARKET_ID, alice, bob, carol, dave, makeFixture, type Fixture } from './support/fixture.js';
import { inclusionOf, orderProofOf } from './support/vectors.js';
import { clone, flipHex, tickVerifier } from './support/verifier.js';

describe('proofs: order state', function () {
  this.timeout(60_000);
  let f: Fixture;
  let v: BrowserVerifier;
  let root: string;
  before(async () => {
    f = makeFixture();
    v = await tickVerifier();
    root = Buffer.from(f.state.stateRoot()).toString('hex');
  });

  const block = (): { height: number; state_root: number[]; last_tick: number; last_tick_output_hash: string } => ({
    height: 1,
    state_root: [...Buffer.from(root, 'hex')],
    last_tick: 4,
    last_tick_output_hash: createHash('sha256').update(f.ticks[3]!.vdfProof.output).digest('hex'),
  });
  const verify = (p: unknown) => verifyOrderState(p, { trustedBlock: block(), inclusion: { tickVerifier: v } });
  const rejectedAt = (
    p: OrderStateProof,
    tamper: (t: OrderStateProof) => void,
    step: OrderStateStep,
    what: string,
  ): void => {
    const t = clone(p);
    tamper(t);
    const r = verify(t);
    expect(r.ok, `${what} should fail`).to.equal(false);
    if (!r.ok) expect(r.step, `${what}: ${r.message}`).to.equal(step);
  };

  it("a resting order: its leaf in its slot, the state root recomputed is the engine's (and the block's)", () => {
    const p = orderProofOf(f, bob, 1);
    expect(p.state_root).to.equal(root);
    const r = verify(clone(p));
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    if (!r.ok) return;
    expect(r.state).to.equal('resting');
    expect(r.order).to.include({
      order_id: '1',
      owner: toBase58Key(bob.publicKey),
      side: 'Buy',
      price: '90',
      quantity: '5',
      remaining: '5',
    });
    expect(r.used_id_index).to.equal(2);
    // Without the used-id member it still proves (it is optional for a resting order).
    expect(verify(orderProofOf(f, bob, 1, { usedId: false })).ok).to.equal(true);
    // Also without a trusted block (self-consistency only).
    expect(verifyOrderState(clone(p)).ok).to.equal(true);
  });

  it('not resting: cancelled (slot holds another order), filled, filled on arrival (whole book)', () => {
    const cancelled = verify(orderProofOf(f, alice, 2, { end: 'cancelled', endedBy: [2, 0] }));
    expect(cancelled.ok && cancelled.state, JSON.stringify(cancelled)).to.equal('not_resting');
    if (cancelled.ok) {
      expect(cancelled.absence).to.equal('slot');
      expect(cancelled.slot_holds).to.include({ owner: toBase58Key(dave.publicKey), order_id: '1' });
      expect(cancelled.ended_by?.tick_number).to.equal(2);
    }
    const filled = verify(orderProofOf(f, alice, 1, { end: 'filled', endedBy: [2, 1] }));
    expect(filled.ok && filled.slot_holds?.owner).to.equal(toBase58Key(carol.publicKey));
    const arrival = verify(orderProofOf(f, bob, 3, { end: 'filled_on_arrival', endedBy: [2, 1], wholeBook: true }));
    expect(arrival.ok && arrival.absence, JSON.stringify(arrival)).to.equal('book');
    const bare = verify(orderProofOf(f, bob, 3, { end: 'filled_on_arrival' }));
    expect(bare.ok && bare.absence).to.equal('unproven');
    // A resting order cannot pass as not resting, by slot or by whole book.
    rejectedAt(
      orderProofOf(f, bob, 1),
      (t) => ((t.state = 'not_resting'), (t.end = 'cancelled')),
      'book_leaf',
      'resting claimed not resting',
    );
    const wb = orderProofOf(f, dave, 2, { wholeBook: true });
    rejectedAt(
      wb,
      (t) => ((t.state = 'not_resting'), (t.end = 'cancelled')),
      'book_leaf',
      'resting order in the whole book',
    );
  });

  it('each tampered field of a resting proof fails at its step', () => {
    const p = orderProofOf(f, dave, 6);
    expect(verify(clone(p)).ok).to.equal(true);
    rejectedAt(p, (t) => (t.market_id = 'nope'), 'shape', 'market_id');
    rejectedAt(p, (t) => (t.market_id = '00000000-0000-4000-8000-000000000000'), 'market_leaf', 'another market_id');
    rejectedAt(p, (t) => (t.owner = toBase58Key(alice.publicKey)), 'book_leaf', 'owner');
    rejectedAt(p, (t) => (t.owner = 'x'), 'shape', 'owner not Base58');
    rejectedAt(p, (t) => (t.order_id = '5'), 'book_leaf', 'order_id');
    rejectedAt(p, (t) => (t.order_id = '-1'), 'shape', 'negative order_id');
    rejectedAt(p, (t) => (t.block_height = 2), 'anchor', 'block_height');
    rejectedAt(p, (t) => (t.tick_number = 3), 'anchor', 'tick_number');
    rejectedAt(p, (t) => (t.state_root = flipHex(t.state_root)), 'state_root', 'state_root');
    rejectedAt(p, (t) => (t.markets_root = flipHex(t.markets_root)), 'market_path', 'markets_root');
    rejectedAt(p, (t) => (t.markets_size = 128), 'market_path', 'markets_size');
    rejectedAt(p, (t) => (t.markets_size = 100), 'shape', 'markets_size not a power of two');
    rejectedAt(p, (t) => (t.market_count = 2), 'state_root', 'market_count');
    rejectedAt(p, (t) => (t.market_count = 0), 'shape', 'market_count 0');
    rejectedAt(p, (t) => (t.used_ids_root = flipHex(t.used_ids_root)), 'used_id_path', 'used_ids_root');
    rejectedAt(p, (t) => (t.used_id_count += 1), 'used_id_path', 'used_id_count');
    const noUsed = orderProofOf(f, dave, 6, { usedId: false });
    rejectedAt(
      noUsed,
      (t) => (t.used_ids_root = flipHex(t.used_ids_root)),
      'state_root',
      'used_ids_root without a used-id member',
    );
    rejectedAt(noUsed, (t) => (t.used_id_count += 1), 'state_root', 'used_id_count without a used-id member');
    // The market leaf: market_id text (byte 4 on), a byte of the name, the book_root, book_size.
    const leafLen = p.market.leaf.length;
    rejectedAt(p, (t) => (t.market.leaf = flipHex(t.market.leaf, 8 + 1)), 'market_leaf', 'market leaf market_id');
    rejectedAt(
      p,
      (t) => (t.market.leaf = flipHex(t.market.leaf, 8 + 72 + 128 + 10)),
      'market_path',
      'market leaf mint/name',
    );
    rejectedAt(
      p,
      (t) => (t.market.leaf = flipHex(t.market.leaf, leafLen - 2 * (8 + 4 + 32) + 3)),
      'book_path',
      'market leaf book_root',
    );
    rejectedAt(
      p,
      (t) => (t.market.leaf = `${t.market.leaf.slice(0, leafLen - 24)}00008000${t.market.leaf.slice(leafLen - 16)}`),
      'book_path',
      'market leaf book_size',
    );
    rejectedAt(
      p,
      (t) => (t.market.leaf = `${t.market.leaf.slice(0, leafLen - 24)}64000000${t.market.leaf.slice(leafLen - 16)}`),
      'market_leaf',
      'market leaf book_size not a power of two',
    );
    rejectedAt(p, (t) => (t.market.leaf = `${t.market.leaf}00`), 'market_leaf', 'market leaf with a trailing byte');
    rejectedAt(p, (t) => (t.market.index = 1), 'shape', 'market index past the count');
    p.market.audit_path.forEach((_, k) =>
      rejectedAt(
        p,
        (t) => (t.market.audit_path[k] = flipHex(t.market.audit_path[k]!)),
        'market_path',
        `market path ${k}`,
      ),
    );
    rejectedAt(p, (t) => t.market.audit_path.pop(), 'market_path', 'market path short');
    // The book leaf: each field.
    const fields: Array<[string, number, OrderStateStep]> = [
      ['continuum_sequence', 0, 'book_path'],
      ['order_id', 8, 'book_leaf'],
      ['owner', 16, 'book_leaf'],
      ['price', 49, 'book_path'],
      ['quantity', 57, 'book_path'],
      ['remaining', 65, 'book_path'],
      ['expiry', 73, 'book_path'],
    ];
    for (const [name, offset, step] of fields)
      rejectedAt(p, (t) => (t.book!.leaf = flipHex(t.book!.leaf, 2 * offset + 1)), step, `book leaf ${name}`);
    rejectedAt(
      p,
      (t) => (t.book!.leaf = `${t.book!.leaf.slice(0, 96)}01${t.book!.leaf.slice(98)}`),
      'book_path',
      'book leaf side',
    );
    rejectedAt(
      p,
      (t) => (t.book!.leaf = `${t.book!.leaf.slice(0, 96)}07${t.book!.leaf.slice(98)}`),
      'book_leaf',
      'book leaf side 7',
    );
    rejectedAt(p, (t) => (t.book!.index += 1), 'book_path', 'slot');
    rejectedAt(p, (t) => (t.book!.index = 64), 'book_leaf', 'slot past the book');
    p.book!.audit_path.forEach((_, k) =>
      rejectedAt(p, (t) => (t.book!.audit_path[k] = flipHex(t.book!.audit_path[k]!)), 'book_path', `book path ${k}`),
    );
    rejectedAt(p, (t) => (t.used_id!.index -= 1), 'used_id_path', 'used-id index');
    rejectedAt(p, (t) => (t.used_id!.leaf = flipHex(t.used_id!.leaf)), 'used_id_leaf', 'used-id leaf');
    p.used_id!.audit_path.forEach((_, k) =>
      rejectedAt(
        p,
        (t) => (t.used_id!.audit_path[k] = flipHex(t.used_id!.audit_path[k]!)),
        'used_id_path',
        `used-id path ${k}`,
      ),
    );
  });

  it('each tampered field of a not-resting proof fails at its step', () => {
    const p = orderProofOf(f, alice, 2, { end: 'cancelled', endedBy: [2, 0] });
    rejectedAt(p, (t) => delete t.used_id, 'shape', 'no used-id member');
    rejectedAt(p, (t) => (t.book!.index = 3), 'book_path', 'another slot, same leaf');
    rejectedAt(p, (t) => (t.end = 'filled'), 'ended_by', 'end filled with a cancel');
    rejectedAt(p, (t) => ((t as { end: string }).end = 'gone'), 'shape', 'unknown end');
    rejectedAt(p, (t) => (t.ended_by = inclusionOf(f, 2, 2)), 'ended_by', 'ended by another transaction');
    rejectedAt(
      p,
      (t) => ((t.ended_by as { tx: string }).tx = flipHex((t.ended_by as { tx: string }).tx, 30)),
      'ended_by',
      'ending tx tampered',
    );
    rejectedAt(p, (t) => (t.tick_number = 1), 'anchor', 'ended after the state');
    const noInclusion = verifyOrderState(clone(p), { trustedBlock: block() });
    expect(noInclusion.ok === false && noInclusion.step).to.equal('ended_by');
    const arrival = orderProofOf(f, bob, 3, { end: 'filled_on_arrival', endedBy: [2, 1], wholeBook: true });
    rejectedAt(arrival, (t) => (t.book_entries![5] = ''), 'book_path', 'an entry of the whole book');
    rejectedAt(arrival, (t) => t.book_entries!.pop(), 'book_leaf', 'whole book short');
    rejectedAt(arrival, (t) => (t.ended_by = inclusionOf(f, 2, 2)), 'ended_by', 'filled on arrival by another order');
    const leaf = orderProofOf(f, dave, 2).book!.leaf;
    rejectedAt(
      arrival,
      (t) => ((t.owner = toBase58Key(dave.publicKey)), (t.order_id = '2'), (t.book_entries![7] = leaf)),
      'book_leaf',
      'the order among the entries',
    );
  });

  it("blocks anchor their ticks: ended_by chains through ticks N+1..last_tick to the block's last_tick_output_hash", () => {
    const p = orderProofOf(f, alice, 2, { end: 'cancelled', endedBy: [2, 0] }); // ended in tick 2, state after tick 4
    const later = f.served.slice(2, 4); // ticks 3 and 4
    const chained = verifyOrderState(clone(p), {
      trustedBlock: block(),
      inclusion: { tickVerifier: v },
      endedByTicks: later,
    });
    expect(chained.ok && chained.ended_by_chained, JSON.stringify(chained)).to.equal(true);
    const unchained = verify(clone(p));
    expect(unchained.ok && unchained.ended_by_chained).to.equal(false);
    const chainFails = (ticks: unknown[], what: string, tamper: (t: OrderStateProof) => void = () => {}): void => {
      const t = clone(p);
      tamper(t);
      const r = verifyOrderState(t, { trustedBlock: block(), inclusion: { tickVerifier: v }, endedByTicks: ticks });
      expect(r.ok === false && r.step, `${what}: ${JSON.stringify(r)}`).to.equal('ended_by_chain');
    };
    chainFails(later.slice(0, 1), 'a tick missing');
    chainFails([later[1], later[0]], 'ticks out of order');
    chainFails([...later, later[1]], 'a tick too many');
    const badOutput = clone(later) as { tick: { vdf_proof: { output: string } } }[];
    badOutput[1]!.tick.vdf_proof.output = flipHex(badOutput[1]!.tick.vdf_proof.output);
    chainFails(badOutput, "the last tick's output changed");
    // A proof whose anchor is not the trusted block's fails at anchor; without a trusted block, at ended_by_chain.
    rejectedAt(p, (t) => (t.last_tick_output_hash = flipHex(t.last_tick_output_hash)), 'anchor', 'anchor hash changed');
    const free = clone(p);
    free.last_tick_output_hash = flipHex(free.last_tick_output_hash);
    const r = verifyOrderState(free, { inclusion: { tickVerifier: v }, endedByTicks: later });
    expect(r.ok === false && r.step).to.equal('ended_by_chain');
    // Ended in the block's last tick itself: no ticks to give, its own output is the anchor.
    const last = orderProofOf(f, dave, 6);
    expect(last.last_tick_output_hash).to.equal(block().last_tick_output_hash);
  });

  it('the builder refuses unknown markets and orders, and orders of another market', () => {
    const req = {
      marketId: MARKET_ID,
      owner: bob.publicKey,
      orderId: 99n,
      blockHeight: 1,
      tickNumber: 4,
      lastTickOutputHash: '00'.repeat(32),
    };
    expect(() => buildOrderStateProof(f.state, req)).to.throw(RangeError);
    expect(() =>
      buildOrderStateProof(f.state, { ...req, orderId: 1n, marketId: '00000000-0000-4000-8000-000000000000' }),
    ).to.throw(RangeError);
    expect(() => buildOrderStateProof(f.state, { ...req, orderId: 2n, owner: alice.publicKey })).to.throw(
      RangeError,
      /used-id/,
    );
    expect(() => buildOrderStateProof(f.state, { ...req, orderId: 1n, usedId: { index: 0, path: [] } })).to.throw(
      RangeError,
      /used_ids_root/,
    );
  });

  it('never throws on hostile shapes', () => {
    const p = orderProofOf(f, bob, 1) as unknown as Record<string, unknown>;
    const hostile: unknown[] = [
      null,
      'x',
      [],
      {},
      { ...p, market: null },
      { ...p, book: { index: 0 } },
      { ...p, book_entries: Array(5000).fill('') },
      { ...p, used_id: { index: 99, leaf: '', audit_path: [] } },
      { ...p, state: 'maybe' },
      { ...p, market: { index: 0, leaf: 'ff'.repeat(500), audit_path: [] } },
      { ...p, order_id: 2 ** 64 },
    ];
    for (const h of hostile) expect(verify(h).ok, JSON.stringify(h).slice(0, 80)).to.equal(false);
    expect(verifyOrderState(p, { trustedBlock: { height: 1, state_root: 'zz' } }).ok).to.equal(false);
    expect(verifyOrderState(p, { trustedBlock: { height: 1, state_root: [1, 2, 3] } }).ok).to.equal(false);
  });
});
