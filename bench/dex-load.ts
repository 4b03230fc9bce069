/**
 * The load process of the end-to-end order book benchmark:
 *   node dist/bench/dex-load.js <url> <orders> <concurrency> <base_mint> <quote_mint> [rate]
 * Pre-signs `orders` limit orders from 100 owners around a mid price (Node's ed25519,
 * the same bytes as the SDK's), then POSTs them over keep-alive connections with
 * `concurrency` in flight (closed loop), or, with `rate` > 0, sends them at that many per
 * second whatever the answers (open loop, at most `concurrency` connections; latency is
 * counted from each order's scheduled time, so queueing in the client counts too); checks
 * each answer carries a receipt (with SVC_LOAD_ANY_200=1, any 200: the no-op server), and
 * prints one JSON line: {orders, ok, errors, seconds, orders_per_s, p50_ms, p99_ms}.
 */
import { Agent, request } from 'node:http';
import { sign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { orderMessage, toBase58, toHex, fromBase58Key, type OrderIntent } from '../src/sdk/index.js';
import { makeFlow } from './dex-flow.js';

const [url, nStr, cStr, baseB58, quoteB58, rateStr] = process.argv.slice(2);
const rate = Number(rateStr ?? 0);
const any200 = process.env.SVC_LOAD_ANY_200 === '1';
if (!url || !nStr || !cStr || !baseB58 || !quoteB58) {
  console.error('usage: dex-load <url> <orders> <concurrency> <base_mint> <quote_mint>');
  process.exit(2);
}
const n = Number(nStr);
const concurrency = Number(cStr);
const baseMint = fromBase58Key(baseB58);
const quoteMint = fromBase58Key(quoteB58);

const owners: Array<{ pub: Uint8Array; key: KeyObject }> = [];
for (let i = 0; i < 100; i++) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  owners.push({ pub: new Uint8Array(spki.subarray(spki.length - 32)), key: privateKey });
}

const flow = makeFlow(n, 7, 10_000, 50, owners.length);
const bodies: string[] = flow.map((f, i) => {
  const o = owners[f.owner]!;
  const intent: OrderIntent = {
    orderId: BigInt(i + 1),
    owner: o.pub,
    side: f.side === 0 ? 'Buy' : 'Sell',
    price: BigInt(f.price),
    quantity: BigInt(f.size),
    expiry: 0n,
    baseMint,
    quoteMint,
  };
  const signature = sign(null, orderMessage(intent), o.key);
  return JSON.stringify({
    order_id: intent.orderId.toString(),
    owner: toBase58(o.pub),
    side: intent.side,
    price: intent.price.toString(),
    quantity: intent.quantity.toString(),
    expiry: '0',
    base_mint: baseB58,
    quote_mint: quoteB58,
    signature: toHex(signature),
  });
});

const target = new URL('/orders', url);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const latencies: number[] = [];
let ok = 0;
let errors = 0;
const errorSamples: string[] = [];

function post(body: string, t0 = performance.now()): Promise<void> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          latencies.push(performance.now() - t0);
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode === 200 && (any200 || text.includes('"sequencer_signature"'))) ok++;
          else {
            errors++;
            if (errorSamples.length < 3) errorSamples.push(`${res.statusCode} ${text.slice(0, 160)}`);
          }
          resolve();
        });
      },
    );
    req.on('error', (e) => {
      errors++;
      if (errorSamples.length < 3) errorSamples.push(e.message);
      resolve();
    });
    req.end(body);
  });
}

let next = 0;
const t0 = performance.now();
if (rate > 0) {
  // Open loop: every millisecond, send what is due by the schedule.
  const sent: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(bodies.length, Math.floor(((performance.now() - t0) / 1000) * rate) + 1);
      while (next < due) {
        const at = t0 + (next * 1000) / rate;
        sent.push(post(bodies[next++]!, at));
      }
      if (next >= bodies.length) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  await Promise.all(sent);
} else {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) await post(bodies[next++]!);
    }),
  );
}
const seconds = (performance.now() - t0) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  Number((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0).toFixed(1));
agent.destroy();
console.log(
  JSON.stringify({
    orders: n,
    ok,
    errors,
    concurrency,
    ...(rate > 0 ? { rate } : {}),
    seconds: Number(seconds.toFixed(2)),
    orders_per_s: Math.round(ok / seconds),
    p50_ms: pct(0.5),
    p99_ms: pct(0.99),
    error_samples: errorSamples,
  }),
);
