/**
 * Child process of bench/loaded.bench.ts: open-loop signed orders over gRPC SubmitTx (or,
 * with `dex`, POST /orders on the order book port, keep-alive connections, Node's fetch) at
 * `rate` per second for `seconds` (a slice every millisecond, never waiting for answers),
 * or, with `inflight`, closed loop at the node's maximum: `inflight` calls pending at all
 * times (each answer, or refusal, sends the next) for `seconds`, from `orders` signed
 * beforehand. From its own key set and order ids. For each answer: its latency (send to answer, ms) and
 * the tick it was sequenced in (so the bench can count the busy ticks); over SubmitTx also its
 * stages on the shared wall clock (`stages`: sent, the answer's submission timestamp, answered),
 * so the bench can split the answer's time at the node's admission and at the tick's start. Orders alternate
 * sides around one price on one market, so about half trade. Also reports its own CPU, so
 * the bench can say what the clients took of a shared machine. It signs every order first,
 * says `{ready}`, and starts sending on `{go}`, so the window holds no signing.
 */
import { ChainClient } from '../../src/chain/api/client/index.js';
import { buildOrderBody, DexClient } from '../../src/sdk/index.js';
import { encodeOrderIntent, orderMessage, type OrderIntent } from '../../src/core/order-messages.js';
import { signInline } from '../../src/dex/verifier.js';
import { keyPairFromSeed } from '../../src/crypto/keys.js';

export interface LoadedOrdersJob {
  grpc: string;
  /** Order book base URL: orders go by POST /orders instead of SubmitTx. */
  dex?: string;
  rate: number;
  seconds: number;
  base: number[];
  quote: number[];
  firstOrderId: number;
  /** Seed byte of this child's keys (children must not share owners' order ids). */
  keySeed: number;
  /** Closed loop: calls kept pending (`rate` is then ignored). */
  inflight?: number;
  /** Closed loop: orders signed beforehand (the most it can send). */
  orders?: number;
}

export interface LoadedOrdersResult {
  sent: number;
  ok: number;
  errors: number;
  firstError: string;
  latenciesMs: number[];
  ticks: number[];
  /** SubmitTx only, per answer: [tick, sent, submission timestamp (ms, the node's admission), answered], wall ms. */
  stages: Array<[number, number, number, number]>;
  cpuMs: number;
  seconds: number;
}

async function run(job: LoadedOrdersJob): Promise<LoadedOrdersResult> {
  const client = new ChainClient(job.grpc);
  const dex = job.dex ? new DexClient(job.dex) : undefined;
  const keys = Array.from({ length: 8 }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(job.keySeed + i)));
  const total = job.inflight ? (job.orders ?? 0) : Math.ceil(job.rate * job.seconds);
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
    return dex
      ? { body: buildOrderBody(intent, key.secretKey) }
      : { order: { intent: encodeOrderIntent(intent), signature: signInline(key.secretKey, orderMessage(intent)) } };
  });
  const stages: LoadedOrdersResult['stages'] = [];
  const submit = (i: number): Promise<number> => {
    const req = reqs[i]!;
    if (req.body) return dex!.placeOrder(req.body).then((a) => a.receipt.tick_number);
    const sentMs = wallMs();
    return client.submit({ order: req.order! }).then((a) => {
      const tick = Number(a.tick_number);
      if (a.transaction) stages.push([tick, sentMs, Number(a.transaction.timestamp_ms), wallMs()]);
      return tick;
    });
  };
  await new Promise<void>((resolve) => {
    process.on('message', (m: { go?: true }) => void (m.go && resolve()));
    process.send!({ ready: true });
  });
  const cpu0 = process.cpuUsage();
  const latenciesMs: number[] = [];
  const ticks = new Set<number>();
  let ok = 0;
  let errors = 0;
  let firstError = '';
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let sent = 0;
  const send = (): Promise<void> => {
    const t0 = performance.now();
    return submit(sent++).then(
      (tick) => {
        ok++;
        latenciesMs.push(performance.now() - t0);
        ticks.add(tick);
      },
      (err: Error) => {
        errors++;
        firstError ||= err.message;
      },
    );
  };
  if (job.inflight) {
    // Closed loop: each of `inflight` lanes sends its next order when the last one is answered.
    const end = start + job.seconds * 1000;
    const lane = async (): Promise<void> => {
      while (sent < total && performance.now() < end) await send();
    };
    await Promise.all(Array.from({ length: job.inflight }, lane));
  } else
    await new Promise<void>((resolve) => {
      const step = (): void => {
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * job.rate));
        while (sent < due) pending.push(send());
        if (sent >= total) resolve();
        else setTimeout(step, 1);
      };
      step();
    });
  await Promise.all(pending);
  const seconds = (performance.now() - start) / 1000;
  client.close();
  const cpu = process.cpuUsage(cpu0);
  return {
    sent,
    ok,
    errors,
    firstError,
    latenciesMs,
    ticks: [...ticks],
    stages,
    cpuMs: (cpu.user + cpu.system) / 1000,
    seconds,
  };
}

/** Wall-clock milliseconds with the monotonic clock's resolution (the node's timestamps are wall clock). */
function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

process.once('message', (job: LoadedOrdersJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
  );
});
