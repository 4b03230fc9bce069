/**
 * Child process: open-loop SubmitTx load on the chain's gRPC ChainService. Signs `total`
 * orders up front (node:crypto, the node's own code), then sends them at `rate` per second
 * (a slice every millisecond, no waiting for answers), and reports answers and errors.
 * Orders alternate sides around one price on one market, so about half trade.
 */
import { ChainClient } from '../../src/chain/api/client/index.js';
import { signInline } from '../../src/dex/verifier.js';
import { keyPairFromSeed } from '../../src/crypto/keys.js';
import { encodeOrderIntent, orderMessage, type OrderIntent } from '../../src/core/order-messages.js';

export interface LoadJob {
  grpc: string;
  rate: number; // orders per second
  seconds: number;
  base: number[]; // 32-byte mints as arrays
  quote: number[];
  firstOrderId: number;
}

export interface LoadResult {
  sent: number;
  ok: number;
  errors: number;
  firstError: string;
  seconds: number;
}

async function run(job: LoadJob): Promise<LoadResult> {
  const client = new ChainClient(job.grpc);
  const keys = Array.from({ length: 32 }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
  const total = Math.ceil(job.rate * job.seconds);
  const reqs = Array.from({ length: total }, (_, i) => {
    const key = keys[i % keys.length]!;
    const intent: OrderIntent = {
      orderId: BigInt(job.firstOrderId + i),
      owner: key.publicKey,
      side: i % 2 === 0 ? 'Buy' : 'Sell',
      price: BigInt(1000 + (i % 7) - 3),
      quantity: 1n + BigInt(i % 5),
      expiry: 0n,
      baseMint: Uint8Array.from(job.base),
      quoteMint: Uint8Array.from(job.quote),
    };
    return { order: { intent: encodeOrderIntent(intent), signature: signInline(key.secretKey, orderMessage(intent)) } };
  });
  let ok = 0;
  let errors = 0;
  let firstError = '';
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const step = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * job.rate));
      while (sent < due) {
        pending.push(
          client.submit(reqs[sent++]!).then(
            () => void ok++,
            (err: Error) => {
              errors++;
              firstError ||= err.message;
            },
          ),
        );
      }
      if (sent >= total) resolve();
      else setTimeout(step, 1);
    };
    step();
  });
  await Promise.all(pending);
  client.close();
  return { sent, ok, errors, firstError, seconds: (performance.now() - start) / 1000 };
}

process.on('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
  );
});
