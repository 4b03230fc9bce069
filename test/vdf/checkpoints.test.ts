/**
 * Proving a segment on the pool from the checkpoints the clock's evaluator kept: the same
 * proof as re-running the segment (prove), for short and heartbeat-length segments, and
 * checkpoints that do not belong to the claim are refused with a typed error, never turned
 * into a bad proof.
 */
import { expect } from 'chai';
import type { Piscina } from 'piscina';
import { createPool } from '../../src/pool/index.js';
import { loadVdfEngine } from '../../src/vdf/node.js';
import { proveFromCheckpointsOnPool } from '../../src/vdf/pool.js';
import { referenceVdfEngine } from '../../src/vdf/reference.js';
import { rejectsWith } from './helpers.js';

describe('vdf: proofs from exported checkpoints', function () {
  this.timeout(60000);
  let pool: Piscina;
  const engine = loadVdfEngine();
  const reference = referenceVdfEngine();
  before(() => {
    pool = createPool({ threads: 2 });
  });
  after(async () => pool.destroy());

  function segment(
    tickNumber: number,
    t: number,
  ): { input: Uint8Array; output: Uint8Array; iterations: number; checkpoints: Uint8Array } {
    const input = engine.hashToGroup(
      tickNumber,
      reference.evaluate(engine.hashToGroup(1, new Uint8Array(256).fill(3), new Uint8Array(32)), 1),
      new Uint8Array(32).fill(tickNumber),
    );
    const ev = engine.evaluator();
    ev.start(input);
    // The clock squares in uneven chunks; checkpoints must not depend on the chunking.
    for (let done = 0; done < t; ) {
      const k = Math.min(t - done, 1 + ((done * 7) % 61));
      ev.square(k);
      done += k;
    }
    const checkpoints = ev.exportCheckpoints!();
    expect(checkpoints, 'checkpoints kept').to.be.instanceOf(Uint8Array);
    return { input, output: ev.output(), iterations: t, checkpoints: checkpoints! };
  }

  for (const t of [128, 129, 1000, 4097]) {
    it(`T = ${t}: the pool's proof equals prove() and verifies with the reference engine`, async () => {
      const s = segment(t, t);
      const proof = await proveFromCheckpointsOnPool(pool, s, s.checkpoints);
      expect(Buffer.from(proof).equals(Buffer.from(engine.prove(s.input, s.output, t)))).to.equal(true);
      const ok = reference.prove(s.input, s.output, t);
      expect(Buffer.from(proof).equals(Buffer.from(ok))).to.equal(true);
    });
  }

  it('refuses checkpoints of another segment, truncated checkpoints and a wrong output; the pool still answers', async () => {
    const a = segment(5, 1000);
    const b = segment(6, 1000);
    await rejectsWith(proveFromCheckpointsOnPool(pool, a, b.checkpoints), 'OUTPUT_MISMATCH');
    await rejectsWith(
      proveFromCheckpointsOnPool(pool, a, a.checkpoints.subarray(0, a.checkpoints.length - 1)),
      'BAD_LENGTH',
    );
    await rejectsWith(proveFromCheckpointsOnPool(pool, { ...a, output: b.output }, a.checkpoints), 'OUTPUT_MISMATCH');
    // Flip the lowest byte of every checkpoint (each is one slot; 1000 / 8 = 125 of them).
    const tampered = a.checkpoints.slice();
    const slot = tampered.length / 125;
    for (let i = 0; i < 125; i++) tampered[i * slot] ^= 1;
    await rejectsWith(proveFromCheckpointsOnPool(pool, a, tampered), 'OUTPUT_MISMATCH');
    const proof = await proveFromCheckpointsOnPool(pool, a, a.checkpoints);
    expect(proof).to.have.length(256);
  });

  it('with transfer, the checkpoints move to the pool thread (the caller keeps no copy) and the proof is the same', async () => {
    const s = segment(7, 4097);
    const expected = engine.prove(s.input, s.output, 4097);
    const bytes = s.checkpoints.byteLength;
    expect(bytes).to.be.greaterThan(100_000);
    const proof = await proveFromCheckpointsOnPool(pool, s, s.checkpoints, { transfer: true });
    expect(s.checkpoints.byteLength, 'detached: moved, not copied').to.equal(0);
    expect(Buffer.from(proof).equals(Buffer.from(expected))).to.equal(true);
    // A view into a larger buffer is copied, never moved (the rest of the buffer is not the pool's).
    const t = segment(8, 1000);
    const big = new Uint8Array(t.checkpoints.length + 16);
    big.set(t.checkpoints, 16);
    const view = big.subarray(16);
    await proveFromCheckpointsOnPool(pool, t, view, { transfer: true });
    expect(view.byteLength).to.equal(t.checkpoints.length);
    // With 'buffer' the whole buffer moves, whatever the view (the clock's prepared buffers).
    const u = segment(9, 1000);
    const roomy = new Uint8Array(u.checkpoints.length * 2);
    roomy.set(u.checkpoints);
    const head = roomy.subarray(0, u.checkpoints.length);
    const moved = await proveFromCheckpointsOnPool(pool, u, head, { transfer: 'buffer' });
    expect(roomy.byteLength, 'the whole buffer detached').to.equal(0);
    expect(Buffer.from(moved).equals(Buffer.from(engine.prove(u.input, u.output, 1000)))).to.equal(true);
  });
});
