/**
 * bench:chain, JetStream part (docs/benchmarks.md "Chain node, explorer and full node"): published
 * transactions per second with acks, the node's producer side by side with a bare
 * JetStream publisher, in one run, against one real `nats-server -js` (Debian's) on this
 * machine, in interleaved rounds (medians).
 *
 *   producer    startMqPublisher over chainSource (src/chain/mq/source.ts, as in the node)
 *               over the chain's own LevelDB store (src/chain/core/store.ts) holding the
 *               records: it reads them back in pages, picks the fields it needs out of the
 *               stored JSON, publishes with Nats-Msg-Id and Nats-Expected-Last-Sequence,
 *               and waits for every ack: the path of a node catching the stream up
 *   bare        js.publish of the same messages (same subjects, same bytes, held in
 *               memory), no headers, acks awaited, the same window in flight, a client
 *               with default options
 *   bare-tuned  the same with the client option the producer uses (noAsyncTraces: no
 *               Error captured per request): the strict side-by-side reference
 *   bare-tuned+id  bare-tuned with Nats-Msg-Id (what deduplication alone costs)
 *
 * Also reported: client CPU (this process) and nats-server CPU per message, from
 * process.cpuUsage and /proc. Options (env): MQ_BENCH_TXS (50000), MQ_BENCH_ROUNDS (5),
 * MQ_BENCH_WINDOW (512). Run alone: `node dist/bench/chain-mq.bench.js`; ends with one
 * JSON line.
 */
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { heightKey, recordKey, u64Key } from '../src/chain/core/ids.js';
import type { BlockDetail, BlockRecord, ExplorerEvent, ExplorerTransaction } from '../src/chain/core/index.js';
import { encodeJson } from '../src/wire/index.js';
import { chainSource, mqBlock, mqTx, startMqPublisher, subjects, type StoredChain } from '../src/chain/mq/index.js';
import { ChainStore, type ChainOp } from '../src/chain/core/store.js';
import { openDatabase, type Database } from '../src/db/index.js';
import { natsServer, type NatsServer } from '../test/support/nats-server.js';
import { median, round } from './support/stats.js';

const log = (msg: string) => process.stderr.write(`${msg}\n`);

const MARKETS = [
  '6f1c0e2a-1b2c-4d3e-8f40-5a6b7c8d9e01',
  '0a9b8c7d-6e5f-4a3b-9c2d-1e0f2a3b4c5d',
  '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a99',
];
const OWNER = '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi';
const MINT_A = 'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx';
const MINT_B = 'YMN9Qj5jPNp7j14VPcML1B6xGgcPWVZUGLFU3Mnyfaf';

/** The records of a chain of `txCount` order transactions, `perTick` a tick, `perBlock` a block. */
export class MemoryChain {
  readonly txs: ExplorerTransaction[] = [];
  readonly blocks: BlockDetail[] = [];

  constructor(txCount: number, perTick = 10, perBlock = 200) {
    let open: ExplorerTransaction[] = [];
    let tick = 1000;
    for (let i = 0; i < txCount; i++) {
      if (i % perTick === 0) tick += 1;
      const height = this.blocks.length + 1;
      const batch = Math.floor((i % perBlock) / perTick);
      const index = i % perTick;
      const market = MARKETS[i % MARKETS.length]!;
      const tx: ExplorerTransaction = {
        id: `${height.toString(16).padStart(16, '0')}-${batch.toString(16).padStart(4, '0')}-${index.toString(16).padStart(4, '0')}`,
        block_height: height,
        batch_index: batch,
        kind: 'order',
        market_id: market,
        market_name: 'SEVEN/EIGHT',
        market_kind: 'Spot',
        owner: OWNER,
        side: i % 2 ? 'Buy' : 'Sell',
        price: BigInt(10_000 + (i % 97)),
        quantity: BigInt(1 + (i % 50)),
        base_mint: MINT_A,
        quote_mint: MINT_B,
        order_id: BigInt(i + 1),
        timestamp_ms: 1_795_420_000_000 + i,
        continuum_sequence: (BigInt(tick) << 32n) | BigInt(index),
        signature: 'ab'.repeat(64),
        tick_number: tick,
        sequence_number: i + 1,
        tx_hash: 'cd'.repeat(32),
        expiry: 0n,
        status: 'resting',
        filled_quantity: 0n,
      };
      this.txs.push(tx);
      open.push(tx);
      if (open.length === perBlock || i === txCount - 1) {
        this.blocks.push(blockOf(height, open));
        open = [];
      }
    }
  }
}

/** The records written as the chain writes them (src/chain/core/chain.ts), and read back through chainSource. */
export async function storeChain(chain: MemoryChain, db: Database): Promise<StoredChain> {
  const store = new ChainStore(db);
  for (const d of chain.blocks) {
    const ops: ChainOp[] = [];
    const h = d.block.height;
    d.transactions.forEach((t) => {
      const key = recordKey(h, t.batch_index, parseInt(t.id.slice(-4), 16));
      store.putText(ops, store.txs, key, encodeJson(t));
      store.putText(ops, store.seqs, u64Key(t.continuum_sequence), key);
    });
    d.events.forEach((e) => store.putText(ops, store.events, recordKey(h, e.batch_index, 0), encodeJson(e))); // one event per batch here
    store.putText(ops, store.blocks, heightKey(h), encodeJson(d.block));
    await store.write(ops);
  }
  await store.flushed();
  const last = chain.txs.at(-1)!.continuum_sequence;
  return {
    latestHeight: () => chain.blocks.length,
    lastStoredSequence: () => last,
    readTransactionJsons: (from, limit) => store.transactionJsonsFrom(from, last, limit),
    readBlockJsons: async (height) => {
      const block = await store.blockJson(height);
      return block === undefined
        ? undefined
        : { block, events: await store.blockEventJsons(height), markets: await store.blockMarketJsons(height) };
    },
    onTransactions: () => () => {},
    onBlock: () => () => {},
  };
}

function blockOf(height: number, txs: ExplorerTransaction[]): BlockDetail {
  const ticks = [...new Set(txs.map((t) => t.tick_number))];
  const events: ExplorerEvent[] = ticks.map((tick, b) => ({
    id: `${height.toString(16).padStart(16, '0')}-${b.toString(16).padStart(4, '0')}-0000`,
    block_height: height,
    batch_index: b,
    market_id: MARKETS[0]!,
    market_name: 'SEVEN/EIGHT',
    applied_orders: 3,
    batch_hash: 'ef'.repeat(32),
    tick_number: tick,
    order_count: 10,
    cancel_count: 0,
    trade_count: 3,
  }));
  const block: BlockRecord = {
    height,
    state_root: Array.from({ length: 32 }, (_, i) => (i * 7 + height) & 0xff),
    applied_batches: height * ticks.length,
    applied_orders: 30,
    produced_at: 1_795_420_000 + height,
    total_orders: txs.length,
    total_cancels: 0,
    batch_summaries: ticks.map((tick, b) => ({
      index: b,
      tick_number: tick,
      order_count: txs.filter((t) => t.tick_number === tick).length,
      cancel_count: 0,
      continuum_sequences: txs.filter((t) => t.tick_number === tick).map((t) => t.continuum_sequence),
      batch_hash: 'ef'.repeat(32),
      market_count: 0,
    })),
    transaction_ids: txs.map((t) => t.id),
    event_ids: events.map((e) => e.id),
    total_markets: 0,
    first_tick: ticks[0]!,
    last_tick: ticks.at(-1)!,
    trade_count: 3,
    last_tick_output_hash: '12'.repeat(32),
  };
  return { block, transactions: txs, events, markets: [] };
}

/** CPU seconds nats-server has used (utime + stime from /proc). */
function serverCpu(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

interface Run {
  seconds: number;
  msg_per_s: number;
  tx_per_s: number;
  client_cpu_us_per_msg: number;
  server_cpu_us_per_msg: number;
}

async function timed(nats: NatsServer, messages: number, txs: number, work: () => Promise<void>): Promise<Run> {
  const pid = nats.pid();
  const cpu0 = process.cpuUsage();
  const s0 = serverCpu(pid);
  const t0 = performance.now();
  await work();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    seconds: round(seconds, 3),
    msg_per_s: Math.round(messages / seconds),
    tx_per_s: Math.round(txs / seconds),
    client_cpu_us_per_msg: round((cpu.user + cpu.system) / messages, 2),
    server_cpu_us_per_msg: round(((serverCpu(pid) - s0) * 1e6) / messages, 2),
  };
}

/** Publish `messages` with at most `window` awaiting their ack. */
async function publishWindowed(
  js: JetStreamClient,
  messages: { subject: string; data: Uint8Array; msgId?: string }[],
  window: number,
): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let next = 0;
    let done = 0;
    let inflight = 0;
    const pump = () => {
      while (inflight < window && next < messages.length) {
        const m = messages[next++]!;
        inflight += 1;
        const opts = m.msgId ? { msgID: m.msgId, timeout: 10_000 } : { timeout: 10_000 };
        js.publish(m.subject, m.data, opts).then(() => {
          inflight -= 1;
          done += 1;
          if (done === messages.length) resolve();
          else pump();
        }, reject);
      }
    };
    pump();
  });
}

const VARIANTS = ['bare', 'bare_tuned', 'bare_tuned_msgid', 'producer'] as const;
type Variant = (typeof VARIANTS)[number];

export interface MqBenchResult {
  txs: number;
  blocks: number;
  messages: number;
  avg_tx_bytes: number;
  avg_block_bytes: number;
  window: number;
  rounds: number;
  runs: Record<Variant, Run[]>;
  median_tx_per_s: Record<Variant, number>;
  /** Median over rounds of producer / bare-tuned measured in the same round (the target: >= 0.8). */
  producer_vs_bare_tuned: number;
  producer_vs_bare: number;
  median_client_cpu_us_per_msg: Record<Variant, number>;
  median_server_cpu_us_per_msg: Record<Variant, number>;
  loadavg_before: number[];
  loadavg_after: number[];
}

export async function benchMq(
  options: { txs?: number; rounds?: number; window?: number } = {},
): Promise<MqBenchResult> {
  const txCount = options.txs ?? Number(process.env.MQ_BENCH_TXS ?? 50_000);
  const rounds = options.rounds ?? Number(process.env.MQ_BENCH_ROUNDS ?? 5);
  const window = options.window ?? Number(process.env.MQ_BENCH_WINDOW ?? 512);
  const loadBefore = loadavg().map((x) => round(x, 2));
  const chain = new MemoryChain(txCount);
  const names = subjects();
  // The bare publishers get the very messages the producer sends, rendered beforehand.
  const plain: { subject: string; data: Uint8Array; msgId: string }[] = [];
  for (const b of chain.blocks) {
    for (const t of b.transactions) {
      const m = mqTx(t);
      plain.push({ subject: names.tx(m.marketId), data: m.body, msgId: m.id });
    }
    plain.push({ subject: names.blocks, data: mqBlock(b).body(1 << 20), msgId: String(b.block.height) });
  }
  const txBytes = plain.filter((m) => m.subject !== names.blocks).reduce((s, m) => s + m.data.length, 0) / txCount;
  const blockBytes =
    plain.filter((m) => m.subject === names.blocks).reduce((s, m) => s + m.data.length, 0) / chain.blocks.length;
  log(
    `JetStream: ${txCount} transactions in ${chain.blocks.length} blocks (${plain.length} messages, tx ${Math.round(txBytes)} B, block ${Math.round(blockBytes)} B), window ${window}, ${rounds} rounds`,
  );

  const dir = await mkdtemp(join(tmpdir(), 'svc-mq-bench-'));
  const db = await openDatabase(dir);
  const source = chainSource(await storeChain(chain, db));
  const nats = await natsServer();
  const nc = await connect({ servers: nats.url });
  const tuned = await connect({ servers: nats.url, noAsyncTraces: true });
  const jsm = await jetstreamManager(nc);
  const fresh = async (name: string, filters: string[]) => {
    await jsm.streams.delete(name).catch(() => false);
    if (filters.length) await jsm.streams.add({ name, subjects: filters });
  };
  const bareNames = subjects('BARE', 'bare');
  const asBare = plain.map((m) => ({ ...m, subject: m.subject.replace(/^svc\./, 'bare.') }));
  const noIds = asBare.map(({ subject, data }) => ({ subject, data }));
  const runOne: Record<Variant, () => Promise<void>> = {
    bare: () => publishWindowed(jetstream(nc), noIds, window),
    bare_tuned: () => publishWindowed(jetstream(tuned), noIds, window),
    bare_tuned_msgid: () => publishWindowed(jetstream(tuned), asBare, window),
    producer: async () => {
      const p = startMqPublisher({ url: nats.url, source, window, ackTimeoutMs: 10_000 });
      try {
        await p.caughtUp(300_000);
        if (p.status().publishedTx !== txCount)
          throw new Error(`producer published ${p.status().publishedTx} of ${txCount}`);
      } finally {
        await p.close();
      }
    },
  };
  const runs = Object.fromEntries(VARIANTS.map((v) => [v, [] as Run[]])) as Record<Variant, Run[]>;
  const ratios: number[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      // Alternate the order, so no variant always runs first or last in a round.
      const order = r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
      for (const v of order) {
        await fresh('BARE', v === 'producer' ? [] : bareNames.filters);
        await fresh('SVC', []); // the producer creates its stream, as in the node
        runs[v].push(await timed(nats, plain.length, txCount, runOne[v]));
      }
      const si = await jsm.streams.info('SVC').catch(() => undefined);
      if (order.at(-1) === 'producer' && si?.state.messages !== plain.length)
        throw new Error(`stream SVC holds ${si?.state.messages} messages, expected ${plain.length}`);
      ratios.push(runs.producer[r]!.tx_per_s / runs.bare_tuned[r]!.tx_per_s);
      log(`round ${r + 1}: ${VARIANTS.map((v) => `${v} ${runs[v][r]!.tx_per_s}`).join(', ')} tx/s`);
    }
  } finally {
    await nc.close();
    await tuned.close();
    await nats.dispose();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
  const med = (k: Variant, f: keyof Run) => median(runs[k].map((x) => x[f]));
  const per = (f: keyof Run) => Object.fromEntries(VARIANTS.map((v) => [v, med(v, f)])) as Record<Variant, number>;
  const tx = per('tx_per_s');
  return {
    txs: txCount,
    blocks: chain.blocks.length,
    messages: plain.length,
    avg_tx_bytes: Math.round(txBytes),
    avg_block_bytes: Math.round(blockBytes),
    window,
    rounds,
    runs,
    median_tx_per_s: tx,
    producer_vs_bare_tuned: round(median(ratios), 3),
    producer_vs_bare: round(median(runs.producer.map((p, i) => p.tx_per_s / runs.bare[i]!.tx_per_s)), 3),
    median_client_cpu_us_per_msg: per('client_cpu_us_per_msg'),
    median_server_cpu_us_per_msg: per('server_cpu_us_per_msg'),
    loadavg_before: loadBefore,
    loadavg_after: loadavg().map((x) => round(x, 2)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchMq();
  console.log(JSON.stringify({ bench: 'chain-mq', ...result }));
}
