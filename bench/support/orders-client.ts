/**
 * The client of `npm run bench:orders` (bench/orders.bench.ts), in its own process: signs
 * every order before it says ready (so signing is not in the measured window), then on
 * `{go: true}` sends them with `concurrency` calls in flight: single POST /orders, POST
 * /orders/batch of `batch` orders, gRPC SubmitTx or SubmitTxBatch. Result: answered
 * orders, refusals, wall seconds, latency per call, and this process's own CPU.
 */
import { Agent, request } from 'node:http';
import { signBatch } from '../../src/crypto/index.js';
import { ChainClient, type SubmitTxRequest } from '../../src/chain/api/client/index.js';
import {
  encodeOrderIntent,
  keyPairFromSeed,
  orderMessage,
  toBase58,
  toHex,
  type OrderIntent,
} from '../../src/sdk/index.js';
import { fromBase58Key } from '../../src/sdk/index.js';
import { processCpuMs } from './cpu.js';

export interface OrdersJob {
  mode: 'http' | 'http-batch' | 'grpc' | 'grpc-batch';
  dexUrl: string;
  grpcAddr: string;
  orders: number;
  batch: number; // orders per call in the batch modes
  concurrency: number;
  base: string;
  quote: string;
  /** Owner seeds start here (each run its own owners, so no order id repeats). */
  seedBase: number;
}

export interface OrdersResult {
  ok: number;
  refused: number;
  seconds: number;
  orders_per_s: number;
  call_p50_ms: number;
  call_p99_ms: number;
  client_cpu_ms: number;
  samples: string[];
}

const OWNERS = 16;

function signedOrders(job: OrdersJob): Array<{ intent: OrderIntent; signature: Uint8Array }> {
  const base = fromBase58Key(job.base, 'base');
  const quote = fromBase58Key(job.quote, 'quote');
  const keys = Array.from({ length: OWNERS }, (_, k) => keyPairFromSeed(new Uint8Array(32).fill(job.seedBase + k)));
  const out: Array<{ intent: OrderIntent; signature: Uint8Array }> = [];
  for (let i = 0; i < job.orders; i++) {
    const k = keys[i % OWNERS]!;
    const buy = i % 2 === 0;
    // Buys at 100..149, sells at 1000..1049: nothing crosses, every order rests.
    const intent: OrderIntent = {
      orderId: BigInt(i + 1),
      owner: k.publicKey,
      side: buy ? 'Buy' : 'Sell',
      price: BigInt((buy ? 100 : 1000) + (i % 50)),
      quantity: 1n,
      expiry: 0n,
      baseMint: base,
      quoteMint: quote,
    };
    out.push({
      intent,
      signature: signBatch({ seed: k.secretKey.subarray(0, 32), messages: [orderMessage(intent)] })[0]!,
    });
  }
  return out;
}

function bodyOf(o: { intent: OrderIntent; signature: Uint8Array }): Record<string, string> {
  const i = o.intent;
  return {
    order_id: i.orderId.toString(),
    owner: toBase58(i.owner),
    side: i.side,
    price: i.price.toString(),
    quantity: i.quantity.toString(),
    expiry: '0',
    base_mint: toBase58(i.baseMint),
    quote_mint: toBase58(i.quoteMint),
    signature: toHex(o.signature),
  };
}

function post(url: URL, agent: Agent, path: string, text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** One call per unit of work: it answers how many of its orders were applied. */
function callsOf(
  job: OrdersJob,
  orders: Array<{ intent: OrderIntent; signature: Uint8Array }>,
): { calls: Array<() => Promise<number>>; close(): void } {
  const per = job.mode.endsWith('batch') ? job.batch : 1;
  const groups: Array<typeof orders> = [];
  for (let i = 0; i < orders.length; i += per) groups.push(orders.slice(i, i + per));
  if (job.mode === 'http' || job.mode === 'http-batch') {
    const url = new URL(job.dexUrl);
    const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
    const texts = groups.map((g) =>
      per === 1
        ? JSON.stringify(bodyOf(g[0]!))
        : JSON.stringify({ items: g.map((o) => ({ kind: 'order', ...bodyOf(o) })) }),
    );
    const path = per === 1 ? '/orders' : '/orders/batch';
    return {
      calls: texts.map((t) => async () => {
        const r = await post(url, agent, path, t);
        if (r.status !== 200) throw new Error(`${r.status} ${r.body.slice(0, 160)}`);
        if (per === 1) return 1;
        const results = (JSON.parse(r.body) as { data: { results: Array<{ ok: boolean; code?: string }> } }).data
          .results;
        const bad = results.find((x) => !x.ok);
        if (bad) sample(`item ${bad.code}`);
        return results.filter((x) => x.ok).length;
      }),
      close: () => agent.destroy(),
    };
  }
  const client = new ChainClient(job.grpcAddr);
  const reqs = groups.map((g) =>
    g.map((o): SubmitTxRequest => ({ order: { intent: encodeOrderIntent(o.intent), signature: o.signature } })),
  );
  return {
    calls: reqs.map((r) => async () => {
      if (per === 1) {
        await client.submit(r[0]!);
        return 1;
      }
      const results = await client.submitBatch(r);
      const bad = results.find((x) => x.result !== 'ok');
      if (bad) sample(`item ${bad.error?.details ?? '?'}`);
      return results.filter((x) => x.result === 'ok').length;
    }),
    close: () => client.close(),
  };
}

const samples: string[] = [];
function sample(s: string): void {
  if (samples.length < 5) samples.push(s);
}

async function run(job: OrdersJob, calls: Array<() => Promise<number>>): Promise<OrdersResult> {
  const latencies: number[] = [];
  let ok = 0;
  let next = 0;
  const cpu0 = processCpuMs();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < calls.length) {
        const call = calls[next++]!;
        const t = performance.now();
        try {
          const applied = await call(); // not `ok += await`: that reads ok before the wait
          ok += applied;
        } catch (err) {
          sample((err as Error).message);
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN) * 100) / 100;
  return {
    ok,
    refused: job.orders - ok,
    seconds,
    orders_per_s: Math.round(ok / seconds),
    call_p50_ms: q(0.5),
    call_p99_ms: q(0.99),
    client_cpu_ms: processCpuMs() - cpu0,
    samples,
  };
}

process.once('message', (job: OrdersJob) => {
  const { calls, close } = callsOf(job, signedOrders(job));
  process.send!({ ready: true });
  process.on('message', (m: { go?: boolean }) => {
    if (!m.go) return;
    run(job, calls).then(
      (result) => {
        close();
        process.send!({ result }, () => process.exit(0));
      },
      (err: unknown) => process.send!({ error: String(err) }, () => process.exit(1)),
    );
  });
});
