/**
 * `npm run bench:orders` (issue 28 point 4): what an order costs, single or in batches.
 * One real node (`svc node --gateways 2`, its other flags the defaults but a larger
 * --max-pending and --queue-capacity, so the client's in-flight orders are not shed, and
 * `--submit-tx-rate 0`: the one loopback client would otherwise meet SubmitTx's per-address
 * rate limit, 1,000/s, on a quiet machine),
 * one market, and in turn, each from a client in its own process (support/orders-client.ts:
 * orders signed before the window, 16 owners, nothing crosses):
 *   http         single POST /orders through the 2 gateways, DEX_ORDERS_INFLIGHT (64) in flight
 *   http-batch   POST /orders/batch of 64 orders, DEX_BATCHES_INFLIGHT (8) in flight
 *   grpc         single gRPC SubmitTx, 64 in flight
 *   grpc-batch   gRPC SubmitTxBatch of 64, 8 in flight
 * For each: orders/s, call latency, and CPU per applied order black-box from /proc: the whole
 * machine (/proc/stat: every process, this shared machine's other work included), the node's
 * processes (every thread of the node by name, its gateway processes) and the client.
 * In the same run, the floor of an order: one node:crypto ed25519 verify plus one ed25519
 * signature (a receipt), the same calls the node makes, timed here in a loop.
 * One JSON line on stdout; the load average is in it. Env: DEX_BENCH_ORDERS (12,800 per mode),
 * DEX_BENCH_MODES (a comma list of the modes), DEX_BENCH_PROFILE (a directory for the node's and
 * its gateways' V8 CPU profiles).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { signBatch, verifyOne } from '../src/crypto/index.js';
import { DexClient, keyPairFromSeed, orderMessage, toBase58, type OrderIntent } from '../src/sdk/index.js';
import { benchNodeArgs, spawnNode, startChild } from './support/processes.js';
import { cpuDelta, sampleThreads } from './support/threads.js';
import type { OrdersJob, OrdersResult } from './support/orders-client.js';

const ORDERS = Number(process.env.DEX_BENCH_ORDERS ?? 12_800);
const SINGLE_INFLIGHT = Number(process.env.DEX_ORDERS_INFLIGHT ?? 64);
const BATCH_INFLIGHT = Number(process.env.DEX_BATCHES_INFLIGHT ?? 8);
const MODES = (process.env.DEX_BENCH_MODES ?? 'http,http-batch,grpc,grpc-batch').split(',') as Array<OrdersJob['mode']>;
const log = (msg: string) => process.stderr.write(`${msg}\n`);

/** Busy and total jiffies of the whole machine (/proc/stat's first line). */
function machineJiffies(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - f[3]! - f[4]!, total };
}

/** One ed25519 verify + one signature with node:crypto, µs each, median of 5 rounds of `n`. */
function floor(n = 2000): { verify_us: number; sign_us: number; floor_us: number } {
  const kp = keyPairFromSeed(new Uint8Array(32).fill(9));
  const intent: OrderIntent = {
    orderId: 1n,
    owner: kp.publicKey,
    side: 'Buy',
    price: 1n,
    quantity: 1n,
    expiry: 0n,
    baseMint: new Uint8Array(32),
    quoteMint: new Uint8Array(32).fill(1),
  };
  const message = orderMessage(intent);
  const signature = signBatch({ seed: kp.secretKey, messages: [message] })[0]!;
  const rounds: Array<[number, number]> = [];
  for (let r = 0; r < 5; r++) {
    let t = process.cpuUsage();
    for (let i = 0; i < n; i++)
      if (!verifyOne({ publicKey: kp.publicKey, message, signature })) throw new Error('floor: verify failed');
    let d = process.cpuUsage(t);
    const v = (d.user + d.system) / n;
    t = process.cpuUsage();
    for (let i = 0; i < n; i++) signBatch({ seed: kp.secretKey, messages: [message] });
    d = process.cpuUsage(t);
    rounds.push([v, (d.user + d.system) / n]);
  }
  const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const verify = med(rounds.map((r) => r[0]));
  const sign = med(rounds.map((r) => r[1]));
  return { verify_us: round(verify), sign_us: round(sign), floor_us: round(verify + sign) };
}

function round(x: number, d = 1): number {
  const k = 10 ** d;
  return Math.round(x * k) / k;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-orders-'));
  const args = [
    '--gateways',
    '2',
    '--max-pending',
    '100000',
    '--queue-capacity',
    '100000',
    '--submit-tx-rate',
    '0',
    ...benchNodeArgs(),
  ];
  const prof = process.env.DEX_BENCH_PROFILE; // a directory: the node and its gateways write V8 CPU profiles there
  if (prof) process.env.SVC_NODE_FLAGS = `--cpu-prof --cpu-prof-dir=${prof}`; // spawnNode's Node flags (the gateways inherit them)
  const node = await spawnNode(dir, args, ['grpc', 'rest', 'dex', 'rpc']);
  const out: Record<string, unknown> = {
    bench: 'orders',
    node_args: args.join(' '),
    orders_per_mode: ORDERS,
    load_start: loadavg().map((x) => round(x, 2)),
  };
  try {
    const dex = new DexClient(`http://${node.addresses.dex!}`);
    const base = toBase58(new Uint8Array(32).fill(71));
    const quote = toBase58(new Uint8Array(32).fill(72));
    await dex.createMarket({ base_mint: base, quote_mint: quote, name: 'BENCH/ORDERS' });
    out.floor = floor();
    let seedBase = 1;
    for (const mode of MODES) {
      const batch = mode.endsWith('batch');
      const job: OrdersJob = {
        mode,
        dexUrl: `http://${node.addresses.dex!}`,
        grpcAddr: node.addresses.grpc!,
        orders: ORDERS,
        batch: 64,
        concurrency: batch ? BATCH_INFLIGHT : SINGLE_INFLIGHT,
        base,
        quote,
        seedBase,
      };
      seedBase += 16;
      // Warm-up: a tenth, other owners.
      await runMode({ ...job, orders: Math.max(640, ORDERS / 10), seedBase: 200 + seedBase }, node.child.pid!);
      const r = await runMode(job, node.child.pid!);
      out[mode] = r;
      log(`${mode}: ${JSON.stringify(r)}`);
    }
    out.load_end = loadavg().map((x) => round(x, 2));
  } finally {
    node.child.kill(prof ? 'SIGINT' : 'SIGKILL'); // a profile is written at a clean exit
    if (prof) setTimeout(() => node.child.kill('SIGKILL'), 20_000).unref();
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

async function runMode(job: OrdersJob, pid: number): Promise<Record<string, unknown>> {
  const child = startChild<OrdersJob, OrdersResult>('orders-client.js', job);
  await child.ready;
  const threads0 = sampleThreads(pid);
  const m0 = machineJiffies();
  const load = loadavg()[0]!;
  child.send({ go: true });
  const r = await child.result;
  const m1 = machineJiffies();
  const threads = cpuDelta(threads0, sampleThreads(pid));
  const perOrder = (ms: number) => round((ms * 1000) / Math.max(1, r.ok));
  const nodeMs = Object.values(threads).reduce((a, b) => a + b, 0);
  const machineMs = (m1.busy - m0.busy) * 10;
  return {
    orders: r.ok,
    refused: r.refused,
    orders_per_s: r.orders_per_s,
    call_p50_ms: r.call_p50_ms,
    call_p99_ms: r.call_p99_ms,
    machine_us_per_order: perOrder(machineMs),
    node_us_per_order: perOrder(nodeMs),
    client_us_per_order: perOrder(r.client_cpu_ms),
    node_threads_us_per_order: Object.fromEntries(Object.entries(threads).map(([k, v]) => [k, perOrder(v)])),
    machine_cores_busy: round(machineMs / 1000 / r.seconds, 2),
    load_1m: round(load, 2),
    ...(r.samples.length ? { samples: r.samples } : {}),
  };
}

main().catch((err: unknown) => {
  log(String((err as Error).stack ?? err));
  process.exit(1);
});
