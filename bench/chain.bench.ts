/**
 * `npm run bench:chain`: the chain node's figures (docs/benchmarks.md "Chain node, explorer and
 * full node").
 *   1. block building on a recorded flow: engine, engine + builder, the whole pipeline into
 *      LevelDB; ticks/s, orders/s, main-thread CPU per order and share (chain-build.ts)
 *   2. StreamTx latency: a node in this process (real sequencer, VDF clock, LevelDB), open-
 *      loop SubmitTx load from a child process at 1,000 and 10,000 orders/s, a live StreamTx
 *      consumer in another child; per transaction: tick closed (its timestamp) -> received,
 *      split into closed -> stored (in the node) and stored -> received; p50/p99
 *   3. WS: 1,000 clients in a child process; block produced (stored and emitted by the node)
 *      -> received by each client; p50/p99
 *   4. explorer REST: GET /blocks/latest and /transactions/:id requests/s with
 *      CHAIN_BENCH_STORED orders (default 1,000,000) stored, HTTP load from a child
 *   5. JetStream: the producer's published transactions/s with acks side by side with bare
 *      JetStream publishers of the same messages, real nats-server (chain-mq.bench.ts;
 *      its own env MQ_BENCH_*)
 * Env: CHAIN_BENCH_TICKS (20000), CHAIN_BENCH_PER_TICK (3), CHAIN_BENCH_SECONDS (8),
 * CHAIN_BENCH_RATES ("1000,10000"), CHAIN_BENCH_WS_CLIENTS (1000), CHAIN_BENCH_STORED
 * (1000000), CHAIN_BENCH_PARTS ("build,stream,ws,rest,jetstream"). Last line: one JSON object.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlockBuilder } from '../src/chain/core/builder.js';
import { Chain } from '../src/chain/core/chain.js';
import type { ChainRuntime } from '../src/chain/runtime.js';
import { startRpcFace } from '../src/chain/api/server.js';
import { ChainStore } from '../src/chain/core/store.js';
import { nodeConfig } from '../src/config/index.js';
import { openDatabase } from '../src/db/index.js';
import { TickApplier, type TickSource } from '../src/dex/applier.js';
import { OrderBookEngine } from '../src/dex/engine/index.js';
import { silentLogger } from '../src/log/index.js';
import { defaultFaces } from '../src/node/faces.js';
import { startNode, type NodeHandle } from '../src/node/index.js';
import type { SequencerStatus } from '../src/core/types.js';
import { benchBuild, recordedFlow } from './chain-build.js';
import { benchMq } from './chain-mq.bench.js';
import type { LoadJob, LoadResult } from './support/chain-load.js';
import type { StreamJob, StreamSample } from './support/chain-stream-client.js';
import type { HttpJob, HttpResult } from './support/http-gen.js';
import { runChild, startChild } from './support/processes.js';
import { median, percentile } from './support/stats.js';
import type { WsJob, WsSample } from './support/ws-clients.js';
import { runtimeProbe } from '../test/chain/support/node.js';
import { noneProven } from '../test/chain/support/sequencer-status.js';

const env = (k: string, d: string) => process.env[k] ?? d;
const TICKS = Number(env('CHAIN_BENCH_TICKS', '20000'));
const PER_TICK = Number(env('CHAIN_BENCH_PER_TICK', '3'));
const SECONDS = Number(env('CHAIN_BENCH_SECONDS', '8'));
const RATES = env('CHAIN_BENCH_RATES', '1000,10000').split(',').map(Number);
const WS_CLIENTS = Number(env('CHAIN_BENCH_WS_CLIENTS', '1000'));
const STORED = Number(env('CHAIN_BENCH_STORED', '1000000'));
const PARTS = new Set(env('CHAIN_BENCH_PARTS', 'build,stream,ws,rest,jetstream').split(','));
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const load = () => loadavg().map((x) => Number(x.toFixed(1)));
const nowUs = () => (performance.timeOrigin + performance.now()) * 1000;
const ms = (us: number) => Number((us / 1000).toFixed(2));

/** A whole node in this process, and its chain runtime (for the node-side timestamps). */
async function startBenchNode(dir: string): Promise<{
  close(): Promise<void>;
  addresses: Record<string, string>;
  runtime: ChainRuntime;
  sequencer: NodeHandle['sequencer'];
}> {
  const probe = runtimeProbe();
  const config = nodeConfig([
    '--grpc-addr',
    '127.0.0.1:0',
    '--rest-addr',
    '127.0.0.1:0',
    '--dex-addr',
    '127.0.0.1:0',
    '--rpc-addr',
    '127.0.0.1:0',
    '--db-path',
    dir,
    '--submit-tx-rate',
    '0',
    '--stream-tx-rate',
    '0',
    '--log-level',
    'warn',
  ]);
  const node = await startNode(config, { faces: [...defaultFaces(), probe.face], print: () => undefined });
  return { close: () => node.close(), addresses: node.addresses, runtime: probe.runtime(), sequencer: node.sequencer };
}

const MINT_A = Array.from(new Uint8Array(32).fill(201));
const MINT_B = Array.from(new Uint8Array(32).fill(202));

async function benchStream(rates: number[]): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-chain-stream-'));
  const node = await startBenchNode(dir);
  const out: Record<string, unknown> = {};
  try {
    const { ChainClient } = await import('../src/chain/api/client/index.js');
    const c = new ChainClient(node.addresses.grpc!);
    await c.submit({
      market: { base_mint: Uint8Array.from(MINT_A), quote_mint: Uint8Array.from(MINT_B), name: 'BENCH' },
    });
    c.close();
    const closed = new Map<number, number>(); // tick -> closed (µs, the tick's timestamp)
    const published = new Map<number, number>(); // tick -> durable and published by the sequencer (µs)
    const stored = new Map<number, number>(); // tick -> chain records stored and emitted (µs)
    const offPublished = node.sequencer.onTick((t) => {
      published.set(t.tickNumber, nowUs());
      closed.set(t.tickNumber, t.timestamp);
    });
    const offStored = node.runtime.chain.onTransactions((b) => stored.set(b.tick_number, nowUs()));
    let firstId = 1;
    for (const rate of rates) {
      log(`StreamTx: ${rate} orders/s for ${SECONDS} s (load ${load().join(' ')})`);
      const consumer = startChild<StreamJob, StreamSample[]>('chain-stream-client.js', {
        grpc: node.addresses.grpc!,
        seconds: SECONDS + 4,
      });
      await consumer.ready;
      await new Promise((r) => setTimeout(r, 500));
      const loadAvg = load();
      const loaded = await runChild<LoadJob, LoadResult>('chain-load.js', {
        grpc: node.addresses.grpc!,
        rate,
        seconds: SECONDS,
        base: MINT_A,
        quote: MINT_B,
        firstOrderId: firstId,
      });
      firstId += Math.ceil(rate * SECONDS) + 1;
      const samples = await consumer.result;
      if (samples.length === 0) log('StreamTx consumer received nothing');
      const total: number[] = [];
      const sequencer: number[] = [];
      const chainPart: number[] = [];
      const fromPublished: number[] = [];
      const toClient: number[] = [];
      for (const [tick, count, recv] of samples) {
        const cl = closed.get(tick);
        const pub = published.get(tick);
        const st = stored.get(tick);
        if (cl === undefined || st === undefined || pub === undefined) continue;
        for (let i = 0; i < count; i++) {
          total.push(recv - cl);
          sequencer.push(pub - cl);
          chainPart.push(st - pub);
          fromPublished.push(recv - pub);
          toClient.push(recv - st);
        }
      }
      for (const a of [total, sequencer, chainPart, fromPublished, toClient]) a.sort((x, y) => x - y);
      const r = {
        offered_per_s: rate,
        answered_per_s: Math.round(loaded.ok / loaded.seconds),
        submit_errors: loaded.errors,
        first_error: loaded.firstError || undefined,
        streamed_tx: total.length,
        closed_to_received_p50_ms: ms(percentile(total, 50)),
        closed_to_received_p99_ms: ms(percentile(total, 99)),
        published_to_received_p50_ms: ms(percentile(fromPublished, 50)),
        published_to_received_p99_ms: ms(percentile(fromPublished, 99)),
        sequencer_closed_to_published_p50_ms: ms(percentile(sequencer, 50)),
        sequencer_closed_to_published_p99_ms: ms(percentile(sequencer, 99)),
        chain_published_to_stored_p50_ms: ms(percentile(chainPart, 50)),
        chain_published_to_stored_p99_ms: ms(percentile(chainPart, 99)),
        stored_to_received_p50_ms: ms(percentile(toClient, 50)),
        stored_to_received_p99_ms: ms(percentile(toClient, 99)),
        load_avg: loadAvg,
      };
      log(JSON.stringify(r));
      out[`rate_${rate}`] = r;
    }
    offPublished();
    offStored();
  } finally {
    await node.close();
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

async function benchWs(clients: number): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-chain-ws-'));
  const node = await startBenchNode(dir);
  try {
    const { ChainClient } = await import('../src/chain/api/client/index.js');
    const c = new ChainClient(node.addresses.grpc!);
    await c.submit({
      market: { base_mint: Uint8Array.from(MINT_A), quote_mint: Uint8Array.from(MINT_B), name: 'BENCH' },
    });
    c.close();
    const emitted = new Map<number, number>();
    const off = node.runtime.chain.onBlock((d) => emitted.set(d.block.height, nowUs()));
    log(`WS: ${clients} clients, blocks from 1,000 orders/s for ${SECONDS} s (load ${load().join(' ')})`);
    const ws = startChild<WsJob, WsSample[]>('ws-clients.js', {
      url: `ws://${node.addresses.rpc}/ws/blocks`,
      clients,
      seconds: SECONDS + 4,
    });
    await ws.ready;
    const loadAvg = load();
    await runChild<LoadJob, LoadResult>('chain-load.js', {
      grpc: node.addresses.grpc!,
      rate: 1000,
      seconds: SECONDS,
      base: MINT_A,
      quote: MINT_B,
      firstOrderId: 1,
    });
    const samples = await ws.result;
    off();
    const lat = samples.flatMap(([h, recv]) => (emitted.has(h) ? [recv - emitted.get(h)!] : [])).sort((a, b) => a - b);
    const blocks = new Set(samples.map(([h]) => h)).size;
    const r = {
      clients,
      blocks,
      deliveries: lat.length,
      produced_to_received_p50_ms: ms(percentile(lat, 50)),
      produced_to_received_p99_ms: ms(percentile(lat, 99)),
      load_avg: loadAvg,
    };
    log(JSON.stringify(r));
    return r;
  } finally {
    await node.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A chain of `orders` stored orders built straight into LevelDB, served by the rpc face; HTTP load from a child. */
async function benchRest(orders: number): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-chain-rest-'));
  const db = await openDatabase(dir);
  try {
    const perTick = 10;
    const flow = recordedFlow(Math.ceil(orders / (perTick * 0.9)) + 1, perTick, 7);
    const status = { currentTick: flow.ticks.length } as SequencerStatus;
    const source: TickSource = {
      onTick: () => () => undefined,
      status: () => status,
      async *readTicks(from, to) {
        for (let n = from; n <= to; n++) yield flow.ticks[n - 1]!;
      },
    };
    const engine = new OrderBookEngine();
    const chain = new Chain({
      store: new ChainStore(db),
      engine,
      builder: new BlockBuilder(200),
      snapshotTxs: 1e12,
      snapshotTicks: 1e12,
    });
    const applier = new TickApplier(
      source,
      engine,
      { verifyMany: async (items) => items.map(() => true) },
      { throttle: () => chain.flushed(), rootBefore: chain.closesBlock },
    );
    applier.onApplied(chain.applied);
    const ids: string[] = [];
    let k = 0;
    chain.onTransactions((b) => {
      for (const t of b.transactions) if (k++ % 97 === 0 && ids.length < 20_000) ids.push(t.id);
    });
    log(`REST: storing ${flow.orders} orders (${flow.transactions} transactions) (load ${load().join(' ')})`);
    const t0 = performance.now();
    await applier.start();
    await chain.flushed();
    const stored = chain.status().total_transactions;
    log(
      `stored ${stored} transactions in ${chain.latestHeight()} blocks in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const face = await startRpcFace({
      chain,
      state: () => applier.engine.state,
      // No ticks here: the bench reads blocks, not their ticks.
      sequencer: {
        getTick: async () => undefined,
        status: noneProven,
      },
      addr: { host: '127.0.0.1', port: 0 },
      logger: silentLogger(),
    });
    const base = `http://${face.address}`;
    const latest: HttpResult[] = [];
    const byId: HttpResult[] = [];
    const loadAvg = load();
    for (let round = 0; round < 3; round++) {
      latest.push(
        await runChild<HttpJob, HttpResult>('http-gen.js', {
          base,
          paths: ['/blocks/latest'],
          seconds: 3,
          inFlight: 16,
        }),
      );
      byId.push(
        await runChild<HttpJob, HttpResult>('http-gen.js', {
          base,
          paths: ids.map((id) => `/transactions/${id}`),
          seconds: 3,
          inFlight: 16,
        }),
      );
    }
    await face.close();
    await applier.stop();
    const med = (rs: HttpResult[], key: keyof HttpResult) => Number(median(rs.map((r) => r[key])).toFixed(2));
    const r = {
      stored_transactions: stored,
      blocks: chain.latestHeight(),
      blocks_latest_req_per_s: Math.round(med(latest, 'perSecond')),
      blocks_latest_p50_ms: med(latest, 'p50Ms'),
      blocks_latest_p99_ms: med(latest, 'p99Ms'),
      transaction_req_per_s: Math.round(med(byId, 'perSecond')),
      transaction_p50_ms: med(byId, 'p50Ms'),
      transaction_p99_ms: med(byId, 'p99Ms'),
      errors: [...latest, ...byId].reduce((a, x) => a + x.errors, 0),
      in_flight: 16,
      load_avg: loadAvg,
    };
    log(JSON.stringify(r));
    return r;
  } finally {
    await db.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

const result: Record<string, unknown> = { bench: 'chain', load_avg_start: load() };
if (PARTS.has('build')) {
  log(`block building: ${TICKS} ticks, about ${PER_TICK} order book transactions each (load ${load().join(' ')})`);
  result.build = await benchBuild(TICKS, PER_TICK);
  log(JSON.stringify(result.build));
}
if (PARTS.has('stream')) result.stream_tx = await benchStream(RATES);
if (PARTS.has('ws')) result.ws = await benchWs(WS_CLIENTS);
if (PARTS.has('rest')) result.rest = await benchRest(STORED);
if (PARTS.has('jetstream')) {
  result.jetstream = await benchMq();
  log(JSON.stringify(result.jetstream));
}
result.load_avg_end = load();
console.log(JSON.stringify(result));
process.exit(0);
