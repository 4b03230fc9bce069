/**
 * docs/proof-vectors.json: the committed file is exactly what the node's builders make of
 * the fixture chain (scripts/proof-vectors.mjs writes it), and every vector verifies with
 * the verifiers and the browser module's tick verifier: inclusion proofs for ticks of 1, 3,
 * 5 and 7 transactions, one chained to a later trusted tick, and order state proofs whose
 * state_root is the engine's.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { verifyInclusion, verifyOrderState } from '../../src/proofs/index.js';
import { pathToFileURL } from 'node:url';
import { makeProofVectors, type ProofVectors } from './support/vectors.js';
import { repoFile, tickVerifier } from './support/verifier.js';

describe('proofs: vectors (docs/proof-vectors.json)', function () {
  this.timeout(60_000);
  const file = JSON.parse(readFileSync(repoFile('docs/proof-vectors.json'), 'utf8')) as ProofVectors;

  it('the file is what the builders make of the fixture chain', () => {
    expect(makeProofVectors()).to.deep.equal(file);
  });

  it('covers odd counts 1, 3, 5 and 7, and resting, cancelled, filled and filled-on-arrival orders', () => {
    expect([...new Set(file.inclusion.map((x) => x.proof.transaction_count))].sort()).to.deep.equal([1, 3, 5, 7]);
    expect(file.order_state.map((x) => [x.proof.state, x.proof.end ?? null])).to.deep.equal([
      ['resting', null],
      ['not_resting', 'cancelled'],
      ['not_resting', 'filled'],
      ['not_resting', 'filled_on_arrival'],
      ['resting', null],
    ]);
  });

  it('every vector verifies', async () => {
    const tv = await tickVerifier();
    for (const x of file.inclusion) expect(verifyInclusion(x.proof, { tickVerifier: tv }).ok, x.description).to.equal(true);
    const c = file.chained;
    const chained = verifyInclusion(c.proof, { tickVerifier: tv, chain: { ticks: c.ticks, trustedOutput: c.trusted_output } });
    expect(chained.ok && chained.chained_to).to.equal(4);
    for (const x of file.order_state) {
      const r = verifyOrderState(x.proof, { trustedBlock: { height: 1, state_root: file.state_root, last_tick: 4 }, inclusion: { tickVerifier: tv } });
      expect(r.ok, `${x.description}: ${JSON.stringify(r)}`).to.equal(true);
    }
  });

  it('the browser bundle (dist/browser/svc-vdf.js) exports verifyInclusion and verifyOrderState, and they accept the vectors', async () => {
    const bundle = (await import(pathToFileURL(repoFile('dist/browser/svc-vdf.js')).href)) as typeof import('../../src/browser/index.js');
    const v = await bundle.createVerifier(readFileSync(repoFile('dist/browser/svc-vdf.wasm')));
    for (const x of file.inclusion) expect(bundle.verifyInclusion(x.proof, { tickVerifier: v }).ok, x.description).to.equal(true);
    for (const x of file.order_state) expect(bundle.verifyOrderState(x.proof, { inclusion: { tickVerifier: v } }).ok, x.description).to.equal(true);
    const bad = JSON.parse(JSON.stringify(file.inclusion[0]!.proof)) as { batch_hash: string };
    bad.batch_hash = '00'.repeat(32);
    const r = bundle.verifyInclusion(bad, { tickVerifier: v });
    expect(r.ok === false && r.step).to.equal('audit_path');
  });
});
