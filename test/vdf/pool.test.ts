/**
 * The VDF on the real Piscina pool (real worker threads): proofs, batch verification split
 * across threads with the same verdict and caller-side indexes as one engine, and bad
 * input that rejects with a typed VdfError while the pool keeps answering.
 */
import { expect } from 'chai';
import type { Piscina } from 'piscina';
import { createPool, workerFile } from '../../src/pool/index.js';
import { bytesEqual } from '../../src/vdf/bytes.js';
import { VdfError } from '../../src/vdf/errors.js';
import type { VdfTickInput } from '../../src/vdf/interface.js';
import { loadVdfEngine } from '../../src/vdf/node.js';
import { decodeTaskError } from '../../src/vdf/task-errors.js';
import { evaluateAndProveOnPool, proveOnPool, verifyBatchOnPool } from '../../src/vdf/pool.js';
import { makeTicks, rejectsWith, tamper } from './helpers.js';

describe('vdf: worker pool', function () {
  this.timeout(60000);
  let pool: Piscina;
  const engine = loadVdfEngine();
  const ticks = makeTicks(
    engine,
    Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 20 : 129 + i)),
  );

  const raw = (arg: unknown, name: string): Promise<unknown> =>
    pool.run(arg, { filename: workerFile('vdf'), name }).catch((e: unknown) => {
      throw decodeTaskError(e);
    });

  before(() => {
    pool = createPool({ threads: 2 });
  });
  after(async () => {
    await pool.destroy();
  });

  it('proves on a worker with the same proof as in-thread', async () => {
    const t = ticks[1];
    const proof = await proveOnPool(pool, t.claim);
    expect(bytesEqual(proof, t.claim.proof)).to.equal(true);
    const claim = await evaluateAndProveOnPool(pool, t.claim.input, t.claim.iterations);
    expect(bytesEqual(claim.output, t.claim.output)).to.equal(true);
    expect(bytesEqual(claim.proof, t.claim.proof)).to.equal(true);
  });

  it("a split batch gives the same verdict as one engine, with the caller's indexes", async () => {
    expect(await verifyBatchOnPool(pool, ticks)).to.deep.equal({ ok: true, invalid: [] });
    const bad: VdfTickInput[] = ticks.slice();
    for (const i of [0, 5, 22, 39]) bad[i] = tamper(ticks[i], { output: ticks[(i + 1) % ticks.length].claim.output });
    bad[30] = tamper(ticks[30], { iterations: 0 });
    const one = engine.verifyBatch(bad);
    for (const chunks of [2, 3, 7]) {
      const split = await verifyBatchOnPool(pool, bad, { chunks });
      expect(split.invalid).to.deep.equal([0, 5, 22, 30, 39]);
      expect(split).to.deep.equal(one);
    }
  });

  it('bad input rejects with a typed error and the pool still answers', async () => {
    await rejectsWith(
      proveOnPool(pool, { input: new Uint8Array(3), output: ticks[1].claim.output, iterations: 5 }),
      'BAD_LENGTH',
    );
    await rejectsWith(proveOnPool(pool, { ...ticks[1].claim, iterations: 0 }), 'BAD_ITERATIONS');
    await rejectsWith(proveOnPool(pool, { ...ticks[1].claim, iterations: 2 ** 40 }), 'BAD_ITERATIONS');
    await rejectsWith(proveOnPool(pool, { ...ticks[1].claim, output: ticks[2].claim.output }), 'OUTPUT_MISMATCH');
    await rejectsWith(raw(null, 'prove'), 'BAD_TYPE');
    await rejectsWith(verifyBatchOnPool(pool, 'nope' as unknown as VdfTickInput[]), 'BAD_TYPE');
    await rejectsWith(raw('nope', 'verifyBatch'), 'BAD_TYPE');
    await rejectsWith(
      raw([{ tickNumber: 1 }], 'verifyBatch').then((v) => {
        // A hostile tick object inside a batch is a named invalid tick, not a crash.
        expect(v).to.deep.include({ ok: false, invalid: [0] });
        throw new VdfError('BAD_TYPE', 'checked');
      }),
      'BAD_TYPE',
    );
    // Still healthy: every thread answers correct work after the failures.
    const again = await Promise.all([0, 1, 2, 3].map(() => proveOnPool(pool, ticks[4].claim)));
    for (const p of again) expect(bytesEqual(p, ticks[4].claim.proof)).to.equal(true);
    expect((await verifyBatchOnPool(pool, ticks)).ok).to.equal(true);
  });
});
