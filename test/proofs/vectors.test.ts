/**
 * docs/proof-vectors.json: the committed file is exactly what the node's builders make of
 * the fixture chain (scripts/proof-vectors.mjs writes it), every positive vector verifies
 * and every negative one fails at its named step, with the verifiers and with the browser
 * bundle: inclusion proofs for ticks of 1, 3, 5 and 7 transactions, one chained to a later
 * trusted tick, explorer-form proofs against the trusted block, order state proofs (ended_by
 * in both forms, chained to the block's anchor) whose state_root is the engine's.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import * as node from '../../src/proofs/index.js';
import { pathToFileURL } from 'node:url';
import { makeProofVectors, type NegativeVector, type ProofVectors } from './support/vectors.js';
import { repoFile, tickVerifier } from './support/verifier.js';
import type { TickVerifier, TrustedBlock, VerifyOrderStateOptions } from '../../src/proofs/index.js';

type Verifiers = Pick<typeof node, 'verifyInclusion' | 'verifyChainTransactionProof' | 'verifyOrderState'>;

/** Every vector through one set of verifiers: failures as "description: what happened". */
function check(file: ProofVectors, v: Verifiers, tv: TickVerifier): string[] {
  const bad: string[] = [];
  const block = file.trusted_block as unknown as TrustedBlock;
  const trustedBlock = {
    height: block.height,
    state_root: file.trusted_block.state_root,
    last_tick: block.last_tick!,
    last_tick_output_hash: block.last_tick_output_hash!,
  };
  for (const x of file.inclusion) if (!v.verifyInclusion(x.proof, { tickVerifier: tv }).ok) bad.push(x.description);
  const c = file.chained;
  const chained = v.verifyInclusion(c.proof, {
    tickVerifier: tv,
    chain: { ticks: c.ticks, trustedOutput: c.trusted_output },
  });
  if (!(chained.ok && chained.chained_to === 4)) bad.push(c.description);
  for (const x of file.explorer)
    if (!v.verifyChainTransactionProof(x.proof, { tickVerifier: tv, block }).ok) bad.push(x.description);
  for (const x of file.order_state) {
    const r = v.verifyOrderState(x.proof, {
      trustedBlock,
      inclusion: { tickVerifier: tv },
      ...(x.ended_by_ticks ? { endedByTicks: x.ended_by_ticks } : {}),
    });
    if (!r.ok || (x.ended_by_ticks !== undefined) !== (r.ended_by_chained === true))
      bad.push(`${x.description}: ${JSON.stringify(r)}`);
  }
  for (const n of file.negative) {
    const r = negative(n, v, tv, block, trustedBlock);
    if (r.ok || r.step !== n.step)
      bad.push(`negative "${n.description}": expected a failure at ${n.step}, got ${JSON.stringify(r)}`);
  }
  return bad;
}

function negative(
  n: NegativeVector,
  v: Verifiers,
  tv: TickVerifier,
  block: TrustedBlock,
  trustedBlock: VerifyOrderStateOptions['trustedBlock'],
): { ok: boolean; step?: string } {
  if (n.verify === 'inclusion') {
    return v.verifyInclusion(n.proof, {
      tickVerifier: tv,
      ...(n.expected_hash ? { expectedHash: n.expected_hash } : {}),
      ...(n.chain ? { chain: { ticks: n.chain.ticks, trustedOutput: n.chain.trusted_output } } : {}),
    });
  }
  if (n.verify === 'explorer') return v.verifyChainTransactionProof(n.proof, { tickVerifier: tv, block });
  return v.verifyOrderState(n.proof, {
    trustedBlock,
    inclusion: { tickVerifier: tv },
    ...(n.ended_by_ticks ? { endedByTicks: n.ended_by_ticks } : {}),
  });
}

describe('proofs: vectors (docs/proof-vectors.json)', function () {
  this.timeout(60_000);
  const file = JSON.parse(readFileSync(repoFile('docs/proof-vectors.json'), 'utf8')) as ProofVectors;

  it('the file is what the builders make of the fixture chain', () => {
    expect(makeProofVectors()).to.deep.equal(file);
  });

  it('covers odd counts 1, 3, 5 and 7, resting, cancelled, filled and filled-on-arrival orders, both ended_by forms, and a negative vector for every step', () => {
    expect([...new Set(file.inclusion.map((x) => x.proof.transaction_count))].sort()).to.deep.equal([1, 3, 5, 7]);
    expect(
      file.order_state.map((x) => [
        x.proof.state,
        x.proof.end ?? null,
        x.proof.ended_by === undefined ? null : 'proof' in x.proof.ended_by ? 'explorer' : 'plain',
      ]),
    ).to.deep.equal([
      ['resting', null, null],
      ['not_resting', 'cancelled', 'explorer'],
      ['not_resting', 'filled', 'plain'],
      ['not_resting', 'filled_on_arrival', 'explorer'],
      ['resting', null, null],
    ]);
    const steps = new Set(file.negative.map((n) => `${n.verify === 'order_state' ? 'order' : 'inclusion'}:${n.step}`));
    for (const s of ['shape', 'transaction', 'audit_path', 'batch_hash', 'tick', 'tick_vdf', 'chain', 'block_ids'])
      expect(steps.has(`inclusion:${s}`), s).to.equal(true);
    for (const s of [
      'shape',
      'market_leaf',
      'book_leaf',
      'book_path',
      'market_path',
      'used_id_leaf',
      'used_id_path',
      'state_root',
      'anchor',
      'ended_by',
      'ended_by_chain',
    ])
      expect(steps.has(`order:${s}`), s).to.equal(true);
    // The trusted block is the one the order state proofs name.
    expect(file.trusted_block.height).to.equal(1);
    expect(file.trusted_block.last_tick).to.equal(4);
    expect(Buffer.from(file.trusted_block.state_root).toString('hex')).to.equal(file.state_root);
    for (const x of file.order_state)
      expect(x.proof.last_tick_output_hash).to.equal(file.trusted_block.last_tick_output_hash);
  });

  it('every positive vector verifies and every negative one fails at its step', async () => {
    expect(check(file, node, await tickVerifier())).to.deep.equal([]);
  });

  it('the same through the browser bundle (dist/browser/svc-vdf.js)', async () => {
    const bundle = (await import(
      pathToFileURL(repoFile('dist/browser/svc-vdf.js')).href
    )) as typeof import('../../src/browser/index.js');
    const v = await bundle.createVerifier(readFileSync(repoFile('dist/browser/svc-vdf.wasm')));
    expect(check(file, bundle, v)).to.deep.equal([]);
  });
});
