/**
 * Child process of bench/overload.bench.ts and test/hostile/overload.test.ts: gRPC SubmitTx
 * clients from one loopback source address (h2-unary.ts), in one of three roles, reporting
 * one JSON message to the parent:
 *
 * - `open`: signed orders open loop at `rate` per second for `seconds` over `connections`
 *   connections; answer latencies by outcome (accepted, refused RESOURCE_EXHAUSTED, other),
 *   calls with no answer at all; then every refused order is sent again, slowly: one that
 *   comes back ALREADY_EXISTS was executed although it was refused.
 * - `cancels`: an order, then its cancel 0..`maxDelayMs` later (alternately on the same
 *   connection and on another); counts cancels answered UNKNOWN_ORDER for an order that
 *   was accepted.
 * - `resets`: on one connection, `resets` orders each cancelled by the client right after
 *   sending (RST_STREAM), with an order every `keepEvery` of them that is not cancelled;
 *   reports how the kept calls were answered and any GOAWAY code.
 */
import { keyPairFromSeed } from '../../src/crypto/keys.js';
import type { OrderIntent } from '../../src/core/order-messages.js';
import { H2Unary, SUBMIT_TX, cancelRequest, orderRequest, type UnaryAnswer } from './h2-unary.js';

export interface OverloadJob {
  role: 'open' | 'cancels' | 'resets';
  grpc: string;
  localAddress: string;
  base: number[];
  quote: number[];
  marketId: string;
  seed: number; // owner keys: seeds seed..seed+7
  firstOrderId: number;
  rate?: number; // open, cancels: per second
  seconds?: number;
  connections?: number; // open (default 4)
  closed?: boolean; // open: at most one call pending (a polite client), still at most `rate` per second
  window?: number; // open: at most this many calls pending, sending stops after `seconds` (a capacity probe)
  maxDelayMs?: number; // cancels (default 50)
  resets?: number; // resets
  keepEvery?: number; // resets (default 25)
}

export interface OpenReport {
  sent: number;
  accepted: number[]; // latencies, ms
  refused: number[];
  other: Record<string, number>; // grpc code -> count
  unanswered: number;
  goaways: number[];
  resent: number;
  executedAnyway: number; // refused, then ALREADY_EXISTS on the second try
  resendOther: Record<string, number>;
  /** A few distinct refusal messages, for the reader. */
  refusalDetails: string[];
}

export interface CancelsReport {
  pairs: number;
  orderAccepted: number;
  cancelOk: number;
  unknownAfterAccepted: number; // the bug: UNKNOWN_ORDER for an order that was accepted
  unknownSameConnection: number;
  unknownOtherConnection: number;
  codes: Record<string, number>;
}

export interface ResetsReport {
  resetCalls: number;
  kept: number;
  keptCodes: Record<string, number>;
  lost: string[]; // how the first calls answered with neither a status nor a refusal ended
  goaway: number | null;
}

const RESOURCE_EXHAUSTED = 8;
const ALREADY_EXISTS = 6;

process.on('message', (job: OverloadJob) => {
  const run = job.role === 'open' ? openLoop(job) : job.role === 'cancels' ? cancels(job) : resets(job);
  run.then(
    (r) => {
      const u = process.cpuUsage();
      process.send!({ ...r, cpuMs: (u.user + u.system) / 1000 }, () => process.exit(0));
    },
    (err: unknown) => process.send!({ error: String((err as Error)?.stack ?? err) }, () => process.exit(1)),
  );
});

function owners(job: OverloadJob): Array<ReturnType<typeof keyPairFromSeed>> {
  return Array.from({ length: 8 }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(job.seed + i)));
}

function intentOf(job: OverloadJob, i: number, owner: Uint8Array, crossing = true): OrderIntent {
  return {
    orderId: BigInt(job.firstOrderId + i),
    owner,
    side: i % 2 === 0 ? 'Buy' : 'Sell',
    // crossing: alternate around one price so about half trade; resting: far apart, nothing fills.
    price: crossing ? BigInt(1000 + (i % 7) - 3) : i % 2 === 0 ? 100n : 100_000n,
    quantity: 1n + BigInt(i % 5),
    expiry: 0n,
    baseMint: Uint8Array.from(job.base),
    quoteMint: Uint8Array.from(job.quote),
  };
}

async function openLoop(job: OverloadJob): Promise<OpenReport> {
  const keys = owners(job);
  const total = Math.ceil(job.rate! * job.seconds!);
  const bodies = Array.from({ length: total }, (_, i) =>
    orderRequest(intentOf(job, i, keys[i % keys.length]!.publicKey), keys[i % keys.length]!.secretKey),
  );
  const conns = await Promise.all(
    Array.from({ length: job.connections ?? 4 }, () => H2Unary.open(job.grpc, job.localAddress)),
  );
  const r: OpenReport = {
    sent: 0,
    accepted: [],
    refused: [],
    other: {},
    unanswered: 0,
    goaways: [],
    resent: 0,
    executedAnyway: 0,
    resendOther: {},
    refusalDetails: [],
  };
  const refusedIdx: number[] = [];
  const pending: Array<Promise<void>> = [];
  const start = performance.now();
  let busy: Promise<void> = Promise.resolve();
  let inFlight = 0;
  await new Promise<void>((resolve) => {
    const step = (): void => {
      const elapsed = performance.now() - start;
      const due = Math.min(total, Math.floor((elapsed / 1000) * job.rate!));
      while (r.sent < due && (job.window === undefined || inFlight < job.window)) {
        const i = r.sent++;
        const c = pickUsable(conns, i);
        inFlight++;
        const call = (): Promise<void> =>
          c
            .then((conn) => conn.call(SUBMIT_TX, bodies[i]!))
            .then((a) => note(r, a, i, refusedIdx))
            .finally(() => inFlight--);
        busy = job.closed ? busy.then(call) : call();
        pending.push(busy);
      }
      if (r.sent >= total || (job.window !== undefined && elapsed >= job.seconds! * 1000)) resolve();
      else setTimeout(step, 1);
    };
    step();
  });
  await Promise.all(pending);
  // Everything refused, again, a few at a time: ALREADY_EXISTS means it was executed after all.
  const again = await H2Unary.open(job.grpc, job.localAddress);
  for (let k = 0; k < refusedIdx.length; k += 32) {
    const part = refusedIdx.slice(k, k + 32);
    const answers = await Promise.all(part.map((i) => again.call(SUBMIT_TX, bodies[i]!)));
    answers.forEach((a, j) => {
      if (a.code === RESOURCE_EXHAUSTED) return void refusedIdx.push(part[j]!); // refused again: later
      r.resent++;
      if (a.code === ALREADY_EXISTS) r.executedAnyway++;
      else if (a.code !== 0) r.resendOther[String(a.code)] = (r.resendOther[String(a.code)] ?? 0) + 1;
    });
  }
  again.close();
  for (const c of conns) c.close();
  return r;

  /** The i-th call's connection, replaced by a new one (same address) once it got a GOAWAY. */
  function pickUsable(list: H2Unary[], i: number): Promise<H2Unary> {
    const at = i % list.length;
    const c = list[at]!;
    if (c.usable) return Promise.resolve(c);
    if (c.goaway !== undefined) r.goaways.push(c.goaway);
    const fresh = H2Unary.open(job.grpc, job.localAddress);
    return fresh.then((f) => (list[at] = f));
  }
}

function note(r: OpenReport, a: UnaryAnswer, i: number, refusedIdx: number[]): void {
  if (a.code === 0) r.accepted.push(a.ms);
  else if (a.code === RESOURCE_EXHAUSTED) {
    r.refused.push(a.ms);
    const kind = a.details.replace(/\d+/g, 'N');
    if (r.refusalDetails.length < 4 && !r.refusalDetails.some((d) => d.replace(/\d+/g, 'N') === kind))
      r.refusalDetails.push(a.details);
    refusedIdx.push(i);
  } else if (a.code === -1) r.unanswered++;
  else r.other[String(a.code)] = (r.other[String(a.code)] ?? 0) + 1;
}

async function cancels(job: OverloadJob): Promise<CancelsReport> {
  const keys = owners(job);
  const [a, b] = await Promise.all([
    H2Unary.open(job.grpc, job.localAddress),
    H2Unary.open(job.grpc, job.localAddress),
  ]);
  const total = Math.ceil(job.rate! * job.seconds!);
  const maxDelay = job.maxDelayMs ?? 50;
  const r: CancelsReport = {
    pairs: 0,
    orderAccepted: 0,
    cancelOk: 0,
    unknownAfterAccepted: 0,
    unknownSameConnection: 0,
    unknownOtherConnection: 0,
    codes: {},
  };
  const pairs: Array<Promise<void>> = [];
  for (let i = 0; i < total; i++) {
    const key = keys[i % keys.length]!;
    const intent = intentOf(job, i, key.publicKey, false);
    const same = i % 2 === 0;
    const delay = (i * 7) % (maxDelay + 1);
    const order = a.call(SUBMIT_TX, orderRequest(intent, key.secretKey));
    const cancelBody = cancelRequest(
      { orderId: intent.orderId, owner: key.publicKey, marketId: job.marketId },
      key.secretKey,
    );
    const cancel = (delay === 0 ? Promise.resolve() : sleep(delay)).then(() =>
      (same ? a : b).call(SUBMIT_TX, cancelBody),
    );
    const pair = Promise.all([order, cancel]).then(([o, c]) => {
      r.pairs++;
      if (o.code === 0) r.orderAccepted++;
      if (c.code === 0) r.cancelOk++;
      const k = `${o.code}/${c.code}`;
      r.codes[k] = (r.codes[k] ?? 0) + 1;
      if (o.code === 0 && c.code === 5 && /UNKNOWN_ORDER/.test(c.details)) {
        r.unknownAfterAccepted++;
        if (same) r.unknownSameConnection++;
        else r.unknownOtherConnection++;
      }
    });
    pairs.push(pair);
    await Promise.all([pair, sleep(1000 / job.rate!)]); // one pair at a time, at most `rate` a second
  }
  await Promise.all(pairs);
  a.close();
  b.close();
  return r;
}

async function resets(job: OverloadJob): Promise<ResetsReport> {
  const keys = owners(job);
  const conn = await H2Unary.open(job.grpc, job.localAddress);
  const keepEvery = job.keepEvery ?? 25;
  const kept: Array<Promise<UnaryAnswer>> = [];
  const cancelled: Array<Promise<UnaryAnswer>> = [];
  for (let i = 0; i < job.resets! && conn.usable; i++) {
    const key = keys[i % keys.length]!;
    const body = orderRequest(intentOf(job, i, key.publicKey), key.secretKey);
    if (i % keepEvery === 0) kept.push(conn.call(SUBMIT_TX, body));
    else cancelled.push(conn.call(SUBMIT_TX, body, 0));
    if (i % 10 === 9) await sleep(10); // ~1,000 calls a second: in flight when cancelled, under the pending bound
  }
  const answers = await Promise.all(kept);
  await Promise.all(cancelled);
  const keptCodes: Record<string, number> = {};
  const lost: string[] = [];
  for (const a of answers) {
    keptCodes[String(a.code)] = (keptCodes[String(a.code)] ?? 0) + 1;
    if (a.code === -1 && lost.length < 5) lost.push(`${Math.round(a.ms)} ms: ${a.details || 'no status, no error'}`);
  }
  const report: ResetsReport = {
    resetCalls: cancelled.length,
    kept: answers.length,
    keptCodes,
    lost,
    goaway: conn.goaway ?? null,
  };
  conn.close();
  return report;
}

function sleep(ms: number): Promise<void> {
  return new Promise((res) => setTimeout(res, ms));
}
