/**
 * Chaining across a batch of ticks (src/vdf/chain.ts) through the standalone verifier's
 * verifyTicks (the same WASM module the browser loads, run here in Node): the published
 * vectors verify in any order; a hole between ticks fails the tick after it with CHAIN_GAP
 * and is listed in `gaps`, even though every proof verifies; genesis, duplicates and breaks.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkChain, createVerifier, parseRestTick, type BrowserVerifier } from '../../src/browser/index.js';
import type { VdfVectorFile } from '../../src/vdf/vectors.js';

const root = (p: string): string => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const vectors = JSON.parse(readFileSync(root('docs/vdf-vectors.json'), 'utf8')) as VdfVectorFile;
const ticks = vectors.vectors.map((v) => ({
  tick_number: v.tick_number,
  timestamp: v.timestamp,
  first_sequence: v.first_sequence,
  transaction_count: v.transaction_count,
  transaction_batch_hash: v.batch_hash,
  ingestion_digest: v.ingestion_digest,
  vdf_iterations: v.iterations,
  previous_output: v.previous_output,
  vdf_proof: { input: v.input, output: v.output, proof: v.proof, iterations: v.iterations },
}));

describe('vdf: chaining of a batch (verifyTicks, checkChain)', () => {
  let v: BrowserVerifier;
  before(async () => {
    v = await createVerifier(readFileSync(root('build/vdf.wasm')));
  });

  it('the chained vectors verify in order and shuffled, with no gaps', () => {
    expect(ticks.length).to.be.at.least(5);
    expect(v.verifyTicks(ticks)).to.deep.include({ ok: true, invalid: [], gaps: [] });
    expect(v.verifyTicks([...ticks].reverse())).to.deep.include({ ok: true, invalid: [], gaps: [] });
  });

  it('verifyTicks([t2, t4]) reports the missing tick 3 instead of ok', () => {
    const r = v.verifyTicks([ticks[1], ticks[3]]);
    expect(r.ok).to.equal(false);
    expect(r.invalid).to.deep.equal([1]);
    expect(r.gaps).to.deep.equal([{ from: 3, to: 3 }]);
    expect(r.ticks[0]).to.deep.equal({ ok: true, tickNumber: 2 });
    expect(r.ticks[1]).to.deep.include({ ok: false, tickNumber: 4, code: 'CHAIN_GAP' });
    expect(r.ticks[1]!.message).to.equal(
      'its proof verifies, but tick 3 is missing: the link from tick 2 to tick 4 cannot be checked',
    );
  });

  it("{ gaps: 'report' } lists the hole without failing the tick after it (a sparse set on purpose)", () => {
    const r = v.verifyTicks([ticks[1], ticks[3]], { gaps: 'report' });
    expect(r).to.deep.include({ ok: true, invalid: [], gaps: [{ from: 3, to: 3 }] });
    const flipped = { ...ticks[3]!, vdf_proof: { ...ticks[3]!.vdf_proof, output: ticks[2]!.vdf_proof.output } };
    expect(v.verifyTicks([ticks[1], flipped], { gaps: 'report' }).invalid).to.deep.equal([1]); // proofs still count
  });

  it('names a wider hole and keeps a bad proof after a hole as INVALID_PROOF', () => {
    const flipped = { ...ticks[4]!, vdf_proof: { ...ticks[4]!.vdf_proof, output: ticks[3]!.vdf_proof.output } };
    const r = v.verifyTicks([ticks[0], flipped]);
    expect(r.gaps).to.deep.equal([{ from: 2, to: 4 }]);
    expect(r.ticks[1]).to.deep.include({ ok: false, code: 'INVALID_PROOF' });
    const wide = checkChain([parseRestTick(ticks[0]), parseRestTick(ticks[4])]);
    expect(wide.gaps[0]!.message).to.equal('ticks 2..4 are missing: the link from tick 1 to tick 5 cannot be checked');
  });

  it('takes the .wasm as a view into a larger buffer (Node 24 reads files into 64 KiB buffers)', async () => {
    const bytes = readFileSync(root('build/vdf.wasm'));
    const big = new Uint8Array(bytes.length + 4096);
    big.set(bytes, 1000);
    const fromView = await createVerifier(big.subarray(1000, 1000 + bytes.length));
    expect(fromView.verifyTick(ticks[0])).to.deep.equal({ ok: true, tickNumber: 1 });
  });

  it('a lone tick has nothing to chain to: no gap', () => {
    expect(v.verifyTicks([ticks[2]])).to.deep.include({ ok: true, gaps: [] });
  });

  it('genesis, duplicates and breaks, without an engine', () => {
    const parsed = ticks.map((t) => parseRestTick(t));
    const badGenesis = { ...parsed[0]!, previousOutput: parsed[1]!.previousOutput };
    expect(checkChain([badGenesis]).broken).to.deep.equal([
      { index: 0, tickNumber: 1, code: 'BAD_GENESIS', message: 'tick 1 must start from the genesis output' },
    ]);
    const twin = { ...parsed[2]!, claim: { ...parsed[2]!.claim, output: parsed[1]!.claim.output } };
    expect(checkChain([parsed[1]!, parsed[2]!, twin]).broken.map((f) => [f.index, f.code])).to.deep.equal([
      [2, 'DUPLICATE_TICK'],
    ]);
    expect(checkChain([parsed[1]!, parsed[2]!, parsed[2]!]).broken).to.deep.equal([]); // the same tick twice is fine
    const broken = { ...parsed[3]!, previousOutput: parsed[1]!.claim.output };
    expect(checkChain([parsed[2]!, broken]).broken.map((f) => f.code)).to.deep.equal(['CHAIN_BREAK']);
  });
});
