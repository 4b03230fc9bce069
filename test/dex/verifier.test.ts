/**
 * The order book's ed25519 checks (src/dex/verifier.ts) on a real Piscina pool: a turn with
 * at most `inlineMax` checks is decided on the calling thread (the pool completes no task),
 * a larger turn goes to the pool as one task; both give the same verdicts, svc's byte rules
 * (non-canonical keys and signatures) included.
 */
import { expect } from 'chai';
import type { Piscina } from 'piscina';
import { BatchVerifier } from '../../src/dex/verifier.js';
import { createPool, workerFile } from '../../src/pool/index.js';
import { keyPairFromSeed, sign } from '../../src/crypto/index.js';

const alice = keyPairFromSeed(new Uint8Array(32).fill(7));
const message = new TextEncoder().encode('an order');
const good = sign(message, alice.secretKey);
const forged = Uint8Array.from(good, (b, i) => (i === 0 ? b ^ 1 : b));
// S >= L: svc's rules refuse it before the equation (docs/signing.md).
const malleable = Uint8Array.from(good, (b, i) => (i >= 32 ? 0xff : b));

describe('dex: signature checks inline for a small turn, on the pool for a large one', () => {
  let pool: Piscina;
  before(() => {
    pool = createPool({ threads: 1, preload: workerFile('ed25519') });
  });
  after(async () => pool.destroy());

  const turn = (v: BatchVerifier, sigs: Uint8Array[]) =>
    Promise.all(sigs.map((s) => v.verify(alice.publicKey, message, s)));

  it('inlineMax 2: one or two checks of a turn never reach the pool; three do, as one task', async () => {
    const v = new BatchVerifier(pool, 2);
    const before = pool.completed;
    expect(await turn(v, [good])).to.deep.equal([true]);
    expect(await turn(v, [forged, good])).to.deep.equal([false, true]);
    expect(await turn(v, [malleable])).to.deep.equal([false]);
    expect(pool.completed - before).to.equal(0);
    expect(await turn(v, [good, forged, good])).to.deep.equal([true, false, true]);
    expect(pool.completed - before).to.equal(1);
  });

  it('inlineMax 0 (the default): every turn is a pool task, with the same verdicts', async () => {
    const v = new BatchVerifier(pool);
    const before = pool.completed;
    expect(await turn(v, [good])).to.deep.equal([true]);
    expect(await turn(v, [forged, good])).to.deep.equal([false, true]);
    expect(pool.completed - before).to.equal(2);
  });
});
