/**
 * Child process (runChild) of `npm run bench:latency`: the user's side of a node that gets
 * ONE request at a time. For each sample it waits a pseudo-random pause (fixed seed, so
 * the request lands on a node that has gone quiet), then, in turn:
 *   submit_to_tick: SubmitTransaction of one transaction, until that transaction's tick
 *     arrives on StreamTicks (the stream is opened beforehand; matched by tx_hash); the
 *     SubmitTransaction answer's own time is kept too (submit_ack), and the split at the
 *     carrying tick's timestamp (the clock fixes it when the tick starts, with the batch
 *     in hand; same machine clock): send -> tick start (intake, batcher, the clock cutting
 *     the heartbeat under way) and tick start -> arrival (the tick's squarings, the proof of
 *     the cut heartbeat before it, durable write, publication);
 *   submit_tx: gRPC ChainService SubmitTx of one signed order, until the answer;
 *   post_order: POST /orders of one signed order (keep-alive connection), until the
 *     receipt (a 200 answer carrying a sequencer_signature).
 * Orders are signed before the clock starts; buys below and sells above the mid price, so
 * they rest on the book (no trades). The first `warmup` samples are not reported.
 * Reports the raw times in ms (the parent computes the percentiles).
 */
import * as grpc from '@grpc/grpc-js';
import { Agent, request } from 'node:http';
import { ChainClient } from '../../src/chain/api/client/index.js';
import { shortHash, transactionHash } from '../../src/core/tx-hash.js';
import { signInline } from '../../src/dex/verifier.js';
import { toBase58 } from '../../src/crypto/base58.js';
import { bytesToHex as toHex } from '../../src/crypto/hex.js';
import { keyPairFromSeed } from '../../src/crypto/keys.js';
import { encodeOrderIntent, orderMessage, type OrderIntent } from '../../src/core/order-messages.js';
import { benchTransaction, encodeSubmitRequest } from './requests.js';
import { parseTickHashes } from './tick-parse.js';

export type LoneRow = 'submit_to_tick' | 'submit_tx' | 'post_order';

export interface LoneJob {
  grpc: string; // host:port of the SequencerService and ChainService
  dex: string; // host:port of the order book API
  samples: number; // per row, after the warm-up
  warmup: number;
  seed: number;
  pauseMinMs: number;
  pauseMaxMs: number;
  chainMints: [number[], number[]]; // base, quote of the market created with SubmitTx
  dexMints: [number[], number[]]; // base, quote of the market created with POST /markets
  firstOrderId: number;
  timeoutMs: number; // one request's limit; beyond it the sample counts as failed
}

export interface LoneResult {
  ms: Record<LoneRow, number[]>;
  submitAckMs: number[];
  sendToTickStartMs: number[];
  tickStartToArrivalMs: number[];
  tickIterations: number[]; // VDF squarings of each carrying tick
  failed: Record<LoneRow, number>;
  firstError: string;
  streamError?: string;
}

const SERVICE = '/svc.sequencer.v1.SequencerService';
const identity = (b: Buffer) => b;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)),
  );
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

function intentOf(id: number, owner: Uint8Array, base: number[], quote: number[]): OrderIntent {
  const buy = id % 2 === 0;
  return {
    orderId: BigInt(id),
    owner,
    side: buy ? 'Buy' : 'Sell',
    price: BigInt(buy ? 990 + (id % 10) : 1001 + (id % 10)),
    quantity: 1n,
    expiry: 0n,
    baseMint: Uint8Array.from(base),
    quoteMint: Uint8Array.from(quote),
  };
}

async function run(job: LoneJob): Promise<LoneResult> {
  const total = job.samples + job.warmup;
  // Order ids are per owner across both faces (one order book state): one owner per face.
  const key = keyPairFromSeed(new Uint8Array(32).fill(0x5e));
  const dexKey = keyPairFromSeed(new Uint8Array(32).fill(0x5f));
  const chainOrders = Array.from({ length: total }, (_, i) => {
    const intent = intentOf(job.firstOrderId + i, key.publicKey, ...job.chainMints);
    return { order: { intent: encodeOrderIntent(intent), signature: signInline(key.secretKey, orderMessage(intent)) } };
  });
  const dexBodies = Array.from({ length: total }, (_, i) => {
    const intent = intentOf(job.firstOrderId + i, dexKey.publicKey, ...job.dexMints);
    return JSON.stringify({
      order_id: intent.orderId.toString(),
      owner: toBase58(dexKey.publicKey),
      side: intent.side,
      price: intent.price.toString(),
      quantity: intent.quantity.toString(),
      expiry: '0',
      base_mint: toBase58(intent.baseMint),
      quote_mint: toBase58(intent.quoteMint),
      signature: toHex(signInline(dexKey.secretKey, orderMessage(intent))),
    });
  });

  const seqClient = new grpc.Client(job.grpc, grpc.credentials.createInsecure(), {
    'grpc-node.flow_control_window': 16 * 1024 * 1024,
  });
  await new Promise<void>((resolve, reject) =>
    seqClient.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())),
  );
  const chain = new ChainClient(job.grpc);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const [dexHost, dexPort] = [job.dex.slice(0, job.dex.lastIndexOf(':')), job.dex.slice(job.dex.lastIndexOf(':') + 1)];

  // tx_hash -> callback for the tick that carries it
  interface Arrival {
    at: number; // performance.now() of arrival
    startUs: number; // the tick's timestamp, as performance.now() in us
    iterations: number;
  }
  const waiting = new Map<string, (a: Arrival) => void>();
  let streamError: string | undefined;
  const stream = seqClient.makeServerStreamRequest(`${SERVICE}/StreamTicks`, identity, identity, Buffer.alloc(0));
  stream.on('data', (buf: Buffer) => {
    const now = performance.now();
    const t = parseTickHashes(buf);
    const startUs = t.timestamp - performance.timeOrigin * 1000;
    for (const h of t.hashes) waiting.get(h)?.({ at: now, startUs, iterations: t.iterations });
  });
  stream.on('error', (e: grpc.ServiceError) => {
    if (e.code !== grpc.status.CANCELLED) streamError = `${grpc.status[e.code]}: ${e.details}`;
  });
  await sleep(500); // stream established

  const submitToTick = async (): Promise<{ tick: number; ack: number; toStart: number; iterations: number }> => {
    const tx = benchTransaction('lone');
    const body = encodeSubmitRequest(tx);
    const hash = shortHash(transactionHash(tx));
    const t0 = performance.now();
    const ticked = new Promise<Arrival>((resolve) => waiting.set(hash, resolve));
    const acked = new Promise<number>((resolve, reject) =>
      seqClient.makeUnaryRequest(`${SERVICE}/SubmitTransaction`, identity, identity, body, (err) =>
        err ? reject(err) : resolve(performance.now()),
      ),
    );
    try {
      const [arrival, ackAt] = await withTimeout(
        Promise.all([ticked, acked]),
        job.timeoutMs,
        'SubmitTransaction -> tick',
      );
      return {
        tick: arrival.at - t0,
        ack: ackAt - t0,
        toStart: arrival.startUs / 1000 - t0,
        iterations: arrival.iterations,
      };
    } finally {
      waiting.delete(hash);
    }
  };
  const submitTx = async (i: number): Promise<number> => {
    const t0 = performance.now();
    await chain.submit(chainOrders[i]!, job.timeoutMs);
    return performance.now() - t0;
  };
  const postOrder = (i: number): Promise<number> => {
    const body = dexBodies[i]!;
    const t0 = performance.now();
    const answered = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: dexHost,
          port: dexPort,
          path: '/orders',
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const t = performance.now() - t0;
            const text = Buffer.concat(chunks).toString();
            if (res.statusCode === 200 && text.includes('"sequencer_signature"')) resolve(t);
            else reject(new Error(`POST /orders: ${res.statusCode} ${text.slice(0, 160)}`));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    return withTimeout(answered, job.timeoutMs, 'POST /orders');
  };

  let seed = job.seed;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pause = () => sleep(job.pauseMinMs + Math.floor(rand() * (job.pauseMaxMs - job.pauseMinMs)));
  const out: LoneResult = {
    ms: { submit_to_tick: [], submit_tx: [], post_order: [] },
    submitAckMs: [],
    sendToTickStartMs: [],
    tickStartToArrivalMs: [],
    tickIterations: [],
    failed: { submit_to_tick: 0, submit_tx: 0, post_order: 0 },
    firstError: '',
  };
  const record = async (row: LoneRow, counted: boolean, measure: () => Promise<number>) => {
    await pause();
    try {
      const ms = await measure();
      if (counted) out.ms[row].push(ms);
    } catch (err) {
      if (counted) out.failed[row]++;
      out.firstError ||= `${row}: ${(err as Error).message}`;
    }
  };
  // The rows take turns, so a change of the machine's load touches all three alike.
  for (let i = 0; i < total; i++) {
    const counted = i >= job.warmup;
    await record('submit_to_tick', counted, async () => {
      const r = await submitToTick();
      if (counted) {
        out.submitAckMs.push(r.ack);
        out.sendToTickStartMs.push(r.toStart);
        out.tickStartToArrivalMs.push(r.tick - r.toStart);
        out.tickIterations.push(r.iterations);
      }
      return r.tick;
    });
    await record('submit_tx', counted, () => submitTx(i));
    await record('post_order', counted, () => postOrder(i));
  }
  stream.cancel();
  seqClient.close();
  chain.close();
  agent.destroy();
  return streamError ? { ...out, streamError } : out;
}

process.once('message', (job: LoneJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
  );
});
