/**
 * Batch verification: valid batches pass; bisection names exactly the bad ticks (wrong
 * output, wrong proof, wrong input, malformed) in both engines, for trivial and
 * non-trivial proofs mixed; the random-exponent check never accepts a single bad tick
 * among good ones over repeated trials.
 */
import { expect } from 'chai';
import { loadVdfEngine, loadWasmVdfEngine } from '../../src/vdf/node.js';
import { referenceVdfEngine } from '../../src/vdf/reference.js';
import type { VdfTickInput } from '../../src/vdf/interface.js';
import { ONE_BYTES } from '../../src/vdf/wasm-engine.js';
import { makeTicks, tamper } from './helpers.js';

describe('vdf: batch verification', () => {
  const wasm = loadVdfEngine();
  const ref = referenceVdfEngine();
  const ts = [20, 300, 20, 129, 500, 5, 128, 1000, 20, 200, 140, 20, 333, 129, 400, 160];
  const good = makeTicks(wasm, ts);

  it('accepts a valid mixed batch (both engines) and the empty batch', () => {
    expect(wasm.verifyBatch(good)).to.deep.equal({ ok: true, invalid: [] });
    expect(ref.verifyBatch(good)).to.deep.equal({ ok: true, invalid: [] });
    expect(wasm.verifyBatch([])).to.deep.equal({ ok: true, invalid: [] });
  });

  it('names exactly the bad ticks', () => {
    const bad: VdfTickInput[] = good.slice();
    bad[1] = tamper(good[1], { proof: good[4].claim.proof }); // wrong proof (non-trivial)
    bad[2] = tamper(good[2], { output: good[0].claim.output }); // wrong output (trivial)
    bad[7] = tamper(good[7], { output: good[9].claim.output }); // wrong output (non-trivial)
    bad[11] = tamper(good[11], { proof: good[3].claim.input }); // trivial tick with a non-identity proof
    bad[13] = { ...good[13], tickNumber: good[13].tickNumber + 100 }; // input not from hash-to-group
    bad[15] = tamper(good[15], { proof: new Uint8Array(255) }); // malformed
    const want = [1, 2, 7, 11, 13, 15];
    const v = wasm.verifyBatch(bad);
    expect(v.ok).to.equal(false);
    expect(v.invalid).to.deep.equal(want);
    expect(v.errors?.map((e) => [e.index, e.code])).to.deep.equal([[15, 'BAD_LENGTH']]);
    expect(ref.verifyBatch(bad).invalid).to.deep.equal(want);
  });

  it('finds one bad non-trivial tick among many good ones every time (20 trials)', () => {
    const many = makeTicks(
      wasm,
      Array.from({ length: 24 }, (_, i) => 130 + i),
    );
    for (let trial = 0; trial < 20; trial++) {
      const i = trial % many.length;
      const batch = many.slice();
      // A proof that is valid for another tick: well-formed, wrong here.
      batch[i] = tamper(many[i], { proof: many[(i + 1) % many.length].claim.proof });
      expect(wasm.verifyBatch(batch).invalid).to.deep.equal([i]);
    }
  });

  it('chunked combinations give the same verdict (bad ticks in several chunks)', () => {
    const e = loadWasmVdfEngine();
    e.batchChunk = 3;
    const bad: VdfTickInput[] = good.slice();
    bad[4] = tamper(good[4], { proof: good[1].claim.proof });
    bad[14] = tamper(good[14], { output: good[13].claim.output });
    expect(e.verifyBatch(good)).to.deep.equal({ ok: true, invalid: [] });
    expect(e.verifyBatch(bad).invalid).to.deep.equal([4, 14]);
  });

  it('rejects swapped proofs between two ticks (a pair whose errors could cancel without randomness)', () => {
    const pair = makeTicks(wasm, [300, 300]);
    const swapped = [tamper(pair[0], { proof: pair[1].claim.proof }), tamper(pair[1], { proof: pair[0].claim.proof })];
    expect(wasm.verifyBatch(swapped).invalid).to.deep.equal([0, 1]);
    expect(ref.verifyBatch(swapped).invalid).to.deep.equal([0, 1]);
    expect(wasm.verify(tamper(pair[0], { proof: ONE_BYTES }))).to.equal(false);
  });
});
