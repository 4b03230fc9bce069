/**
 * Inclusion proofs over the fixture chain (real VDF outputs and proofs from genesis, signed
 * order book transactions): every transaction of ticks of 7, 3, 1 and 5 transactions
 * proves; every field tampered (index, count, tx, each path element, batch_hash, each tick
 * field) is rejected at the step docs/proofs.md names; chaining to a later trusted tick;
 * the explorer's block ids; hostile shapes never throw.
 */
import { expect } from 'chai';
import type { BrowserVerifier } from '../../src/browser/index.js';
import {
  buildChainTransactionProof,
  verifyChainTransactionProof,
  verifyInclusion,
  type InclusionProof,
  type InclusionStep,
} from '../../src/proofs/index.js';
import { shortHash } from '../../src/core/tx-hash.js';
import { makeFixture, type Fixture } from './support/fixture.js';
import { inclusionOf } from './support/vectors.js';
import { clone, flipHex, tickVerifier } from './support/verifier.js';

type Tamper = (p: InclusionProof & { tick: { tick: Record<string, unknown> } }) => void;

describe('proofs: transaction inclusion', function () {
  this.timeout(60_000);
  let f: Fixture;
  let v: BrowserVerifier;
  before(async () => {
    f = makeFixture();
    v = await tickVerifier();
  });

  const verify = (p: unknown, extra: object = {}) => verifyInclusion(p, { tickVerifier: v, ...extra });
  const rejectedAt = (p: InclusionProof, tamper: Tamper, step: InclusionStep, what: string): void => {
    const t = clone(p) as Parameters<Tamper>[0];
    tamper(t);
    const r = verify(t);
    expect(r.ok, `${what} should fail`).to.equal(false);
    if (!r.ok) expect(r.step, `${what}: ${r.message}`).to.equal(step);
  };

  it('every transaction of ticks of 7, 3, 1 and 5 transactions proves, through JSON', () => {
    for (const tick of f.ticks) {
      tick.transactions.forEach((o, i) => {
        const r = verify(clone(inclusionOf(f, tick.tickNumber, i)), {
          expectedHash: Buffer.from(o.txHash).toString('hex'),
        });
        expect(r.ok, JSON.stringify(r)).to.equal(true);
        if (!r.ok) return;
        expect(r.sequence_number).to.equal(o.sequenceNumber);
        expect(r.tx_id).to.equal(o.transaction.txId);
        expect(r.tx_hash).to.equal(Buffer.from(o.txHash).toString('hex'));
        expect(
          verify(inclusionOf(f, tick.tickNumber, i), { expectedHash: shortHash(o.txHash).toUpperCase() }).ok,
        ).to.equal(true);
      });
    }
  });

  it('each tampered field fails at its step', () => {
    for (const [n, i] of [
      [1, 6],
      [1, 0],
      [2, 1],
      [4, 4],
      [4, 2],
    ] as const) {
      const p = inclusionOf(f, n, i);
      const at = `tick ${n} index ${i}`;
      rejectedAt(p, (t) => (t.index = (i + 1) % t.transaction_count), 'audit_path', `${at}: index`);
      rejectedAt(p, (t) => (t.index = t.transaction_count), 'shape', `${at}: index = count`);
      rejectedAt(p, (t) => (t.index = -1), 'shape', `${at}: negative index`);
      rejectedAt(p, (t) => ((t as { index: unknown }).index = String(i)), 'shape', `${at}: index as text`);
      rejectedAt(p, (t) => (t.tx = flipHex(t.tx, 20)), 'audit_path', `${at}: tx byte`);
      rejectedAt(p, (t) => (t.tx = t.tx.slice(0, -2)), 'transaction', `${at}: tx truncated`);
      rejectedAt(p, (t) => (t.tx = `${t.tx}00`), 'transaction', `${at}: tx with a trailing byte`);
      rejectedAt(p, (t) => (t.tx = `zz${t.tx.slice(2)}`), 'shape', `${at}: tx not hex`);
      p.audit_path.forEach((_, k) =>
        rejectedAt(
          p,
          (t) => (t.audit_path[k] = flipHex(t.audit_path[k]!, k)),
          'audit_path',
          `${at}: path element ${k}`,
        ),
      );
      rejectedAt(p, (t) => t.audit_path.pop(), 'audit_path', `${at}: path element dropped`);
      rejectedAt(p, (t) => t.audit_path.push(t.batch_hash), 'audit_path', `${at}: path element added`);
      rejectedAt(p, (t) => (t.audit_path[0] = t.audit_path[0]!.slice(2)), 'shape', `${at}: short path element`);
      rejectedAt(p, (t) => (t.batch_hash = flipHex(t.batch_hash)), 'audit_path', `${at}: batch_hash`);
      rejectedAt(p, (t) => (t.tick_number += 1), 'tick', `${at}: tick_number`);
      rejectedAt(
        p,
        (t) => (t.tick.tick.transaction_batch_hash = flipHex(String(t.tick.tick.transaction_batch_hash))),
        'batch_hash',
        `${at}: tick's batch hash`,
      );
      rejectedAt(
        p,
        (t) => (t.tick.tick.transaction_count = Number(t.tick.tick.transaction_count) + 1),
        'tick',
        `${at}: tick's count`,
      );
      rejectedAt(
        p,
        (t) => (t.tick.tick.tick_number = Number(t.tick.tick.tick_number) + 1),
        'tick',
        `${at}: tick's number`,
      );
      for (const field of ['timestamp', 'first_sequence', 'vdf_iterations']) {
        rejectedAt(p, (t) => (t.tick.tick[field] = Number(t.tick.tick[field]) + 1), 'tick_vdf', `${at}: tick.${field}`);
      }
      for (const field of ['ingestion_digest', 'previous_output']) {
        rejectedAt(
          p,
          (t) => (t.tick.tick[field] = flipHex(String(t.tick.tick[field]))),
          'tick_vdf',
          `${at}: tick.${field}`,
        );
      }
      for (const field of ['input', 'output', 'proof']) {
        rejectedAt(
          p,
          (t) =>
            ((t.tick.tick.vdf_proof as Record<string, string>)[field] = flipHex(
              (t.tick.tick.vdf_proof as Record<string, string>)[field]!,
            )),
          'tick_vdf',
          `${at}: vdf_proof.${field}`,
        );
      }
      rejectedAt(
        p,
        (t) => ((t.tick.tick.vdf_proof as Record<string, number>).iterations += 1),
        'tick_vdf',
        `${at}: vdf_proof.iterations`,
      );
    }
  });

  it('a count changed with a path that still fits is caught by the tick, which binds the count', () => {
    // Index 0 of 5: all-left positions, the same path serves 6 (test/crypto/merkle-path.test.ts).
    const p = inclusionOf(f, 4, 0);
    rejectedAt(p, (t) => (t.transaction_count = 6), 'tick', 'count 5 -> 6');
    rejectedAt(
      p,
      (t) => ((t.transaction_count = 6), (t.tick.tick.transaction_count = 6)),
      'tick_vdf',
      'count 5 -> 6 in the tick too',
    );
    rejectedAt(p, (t) => (t.transaction_count = 4), 'audit_path', 'count 5 -> 4');
  });

  it('a proof of another transaction is refused for the asked hash', () => {
    const other = f.ticks[0]!.transactions[1]!.txHash;
    const r = verify(inclusionOf(f, 1, 2), { expectedHash: Buffer.from(other).toString('hex') });
    expect(r.ok === false && r.step).to.equal('transaction');
  });

  it('chains to a later trusted tick; a wrong trusted output, a gap or a tampered tick fails at chain', () => {
    const p = inclusionOf(f, 1, 3);
    const later = clone(f.served.slice(1));
    const trusted = Buffer.from(f.ticks[3]!.vdfProof.output).toString('hex');
    const ok = verify(p, { chain: { ticks: later, trustedOutput: trusted } });
    expect(ok.ok && ok.chained_to).to.equal(4);
    const own = verify(inclusionOf(f, 4, 0), { chain: { ticks: [], trustedOutput: trusted } });
    expect(own.ok && own.chained_to).to.equal(4);
    const fail = (extra: object, what: string): void => {
      const r = verify(p, extra);
      expect(r.ok === false && r.step, what).to.equal('chain');
    };
    fail({ chain: { ticks: later, trustedOutput: flipHex(trusted) } }, 'wrong trusted output');
    fail({ chain: { ticks: [later[0], later[2]], trustedOutput: trusted } }, 'a gap');
    const bad = clone(later) as { tick: { vdf_proof: { output: string } } }[];
    bad[1]!.tick.vdf_proof.output = flipHex(bad[1]!.tick.vdf_proof.output);
    fail({ chain: { ticks: bad, trustedOutput: trusted } }, 'a tampered later tick');
    fail({ chain: { ticks: 'nope', trustedOutput: trusted } }, 'not a list');
  });

  it("the explorer's proof: ids agree with the inclusion proof", () => {
    const inner = inclusionOf(f, 2, 1);
    const p = buildChainTransactionProof(
      {
        transactionId: '0000000000000001-0001-0001',
        blockHeight: 1,
        batchIndex: 1,
        continuumSequence: (2n << 32n) | 1n,
      },
      inner,
    );
    expect(verifyChainTransactionProof(clone(p), { tickVerifier: v }).ok).to.equal(true);
    const fails = (change: (x: Record<string, unknown>) => void, step: InclusionStep, what: string): void => {
      const t = clone(p) as unknown as Record<string, unknown>;
      change(t);
      const r = verifyChainTransactionProof(t, { tickVerifier: v });
      expect(r.ok === false && r.step, what).to.equal(step);
    };
    fails((x) => (x.continuum_sequence = String((2n << 32n) | 2n)), 'block_ids', 'continuum_sequence');
    fails((x) => (x.block_height = 2), 'block_ids', 'block_height');
    fails((x) => (x.batch_index = 0), 'block_ids', 'batch_index');
    fails((x) => (x.transaction_id = 'nope'), 'block_ids', 'transaction_id');
    fails((x) => ((x.proof as InclusionProof).index = 0), 'audit_path', 'inner index');
  });

  it('never throws on hostile shapes', () => {
    const p = inclusionOf(f, 2, 2) as unknown as Record<string, unknown>;
    const hostile: unknown[] = [
      null,
      1,
      'x',
      [],
      {},
      { ...p, tick: null },
      { ...p, tick: { found: false } },
      { ...p, tick: { tick: 5 } },
      { ...p, audit_path: 'ab' },
      { ...p, audit_path: Array(100).fill('00'.repeat(32)) },
      { ...p, tx: 'ab'.repeat(100_000) },
      { ...p, transaction_count: 2 ** 60 },
      { ...p, tick_number: 0 },
      { ...p, batch_hash: 5 },
    ];
    for (const h of hostile) {
      const r = verify(h);
      expect(r.ok, JSON.stringify(h).slice(0, 80)).to.equal(false);
    }
    const throwing = {
      verifyTick: () => {
        throw new Error('boom');
      },
      verifyTicks: () => {
        throw new Error('boom');
      },
    };
    const r = verifyInclusion(p, { tickVerifier: throwing });
    expect(r.ok === false && r.step).to.equal('tick_vdf');
  });
});
