/**
 * Signature verification figures for `npm run bench:dex`: @noble/ed25519 vs Node's
 * built-in crypto.verify, one thread each, and the built-in through the Piscina pool
 * (workers/ed25519.worker.ts, batches of 64) with all cores, and noble in the pool too.
 */
import type { Piscina } from 'piscina';
import { workerFile } from '../src/pool/index.js';
import { verifyOne } from '../src/crypto/ed25519.js';
import { keyPairFromSeed, orderMessage, sign, verify } from '../src/sdk/index.js';

export interface VerifyFigures {
  noble_verify_per_s: number;
  node_verify_per_s: number;
  node_vs_noble: number;
  pool_threads: number;
  pool_verify_per_s: number;
  pool_noble_verify_per_s: number;
}

export async function benchVerify(pool: Piscina): Promise<VerifyFigures> {
  const kp = keyPairFromSeed(new Uint8Array(32).fill(3));
  const message = orderMessage({
    orderId: 1n,
    owner: kp.publicKey,
    side: 'Buy',
    price: 1n,
    quantity: 1n,
    expiry: 0n,
    baseMint: new Uint8Array(32),
    quoteMint: new Uint8Array(32).fill(1),
  });
  const signature = sign(message, kp.secretKey);
  const item = { publicKey: kp.publicKey, message, signature };

  const rate = (n: number, f: () => boolean): number => {
    for (let i = 0; i < Math.min(50, n); i++) f();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) if (!f()) throw new Error('verification failed');
    return n / ((performance.now() - t0) / 1000);
  };
  const noble = rate(1_000, () => verify(signature, message, kp.publicKey));
  const node = rate(10_000, () => verifyOne(item));

  const items = Array.from({ length: 64 }, () => item);
  const filename = workerFile('ed25519');
  const poolRun = async (name: string, tasks: number): Promise<number> => {
    await Promise.all(
      Array.from({ length: pool.threads.length }, () => pool.run({ items: items.slice(0, 4) }, { filename, name })),
    );
    const t0 = performance.now();
    const results = (await Promise.all(
      Array.from({ length: tasks }, () => pool.run({ items }, { filename, name })),
    )) as Uint8Array[];
    const rate = (tasks * 64) / ((performance.now() - t0) / 1000);
    if (!results.every((r) => r.every((v) => v === 1))) throw new Error(`${name}: a valid signature failed`);
    return rate;
  };
  const poolRate = await poolRun('verifyBatch', 400);
  const poolNoble = await poolRun('verifyBatchNoble', 16);
  return {
    noble_verify_per_s: Math.round(noble),
    node_verify_per_s: Math.round(node),
    node_vs_noble: Number((node / noble).toFixed(1)),
    pool_threads: pool.threads.length,
    pool_verify_per_s: Math.round(poolRate),
    pool_noble_verify_per_s: Math.round(poolNoble),
  };
}
