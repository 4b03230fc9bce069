/**
 * bench:chain, block building: a recorded flow of ticks (fixed seed: the same flow on
 * every machine) applied in process, three ways side by side (runs interleaved, medians):
 *   engine    the order book engine alone (decode + apply + state root per tick)
 *   builder   engine + block builder (blocks, transactions, events as objects)
 *   chain     the node's whole pipeline: TickApplier -> engine -> Chain (builder, JSON,
 *             LevelDB group commits), until every record is stored
 * Signatures are marked checked (ed25519 is measured by bench:dex). Reported: ticks/s,
 * orders/s, main-thread CPU µs per order (from /proc; the flow's cancels and markets are
 * counted in the work, not in the orders), the main thread's share at 1,000 and 10,000
 * orders/s that this CPU cost implies, and the cost of one state snapshot at the end.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlockBuilder } from '../src/chain/core/builder.js';
import { Chain } from '../src/chain/core/chain.js';
import { ChainStore } from '../src/chain/core/store.js';
import { openDatabase } from '../src/db/index.js';
import { TickApplier } from '../src/dex/applier.js';
import { recordedTicks } from '../test/chain/support/flow.js';
import {
  OrderBookEngine,
  prepareTick,
  encodeSnapshot,
  encodeCancelPayload,
  encodeCreateMarket,
  encodePlaceOrderIntent,
} from '../src/dex/engine/index.js';
import { marketIdOf } from '../src/core/market-id.js';
import type { OrderIntent } from '../src/core/order-messages.js';
import type { Tick, Transaction } from '../src/core/types.js';
import { xorshift32 } from './dex-flow.js';
import { threadCpuMs } from './support/cpu.js';
import { median } from './support/stats.js';

const MARKETS = 4;
const OWNERS = 64;
const SIG = new Uint8Array(64).fill(7);

function mint(n: number): Uint8Array {
  return new Uint8Array(32).fill(n);
}

/**
 * `ticks` ticks `tickUs` apart (default 1 ms), each with 0..2*perTick order book
 * transactions: limit orders around a mid price (about half cross), 10% cancels of
 * earlier orders. At 1 ms and 3 per tick: about 3,000 transactions/s, 600 per 200 ms block.
 */
export function recordedFlow(
  ticks: number,
  perTick: number,
  seed = 42,
  tickUs = 1000,
): { ticks: Tick[]; orders: number; transactions: number } {
  const rnd = xorshift32(seed);
  const owners = Array.from({ length: OWNERS }, (_, i) => {
    const o = new Uint8Array(32);
    o[0] = i + 1;
    o[31] = 0x5a;
    return o;
  });
  const placed: Array<{ owner: Uint8Array; id: bigint; m: number }> = [];
  const nextId = new Array<bigint>(OWNERS).fill(0n);
  const out: Tick[] = [];
  let orders = 0;
  let transactions = 0;
  let seq = 0;
  const t0 = 1_700_000_000_000_000;
  const tx = (payload: Uint8Array, owner?: Uint8Array): Transaction => ({
    txId: `b${seq}`,
    payload,
    signature: SIG,
    publicKey: owner ?? new Uint8Array(0),
    nonce: BigInt(seq),
    timestamp: BigInt(t0),
  });
  for (let t = 1; t <= ticks; t++) {
    const txs: Transaction[] = [];
    if (t === 1)
      for (let m = 0; m < MARKETS; m++)
        txs.push(
          tx(
            encodeCreateMarket({
              baseMint: mint(10 + m),
              quoteMint: mint(100),
              name: `M${m}/Q`,
              marketKind: m % 2 ? 'Perp' : 'Spot',
            }),
          ),
        );
    else {
      const k = Math.floor(rnd() * (2 * perTick + 1));
      for (let i = 0; i < k; i++) {
        const m = Math.floor(rnd() * MARKETS);
        if (rnd() < 0.1 && placed.length > 0) {
          const p = placed[Math.floor(rnd() * placed.length)]!;
          txs.push(tx(encodeCancelPayload(p.id, p.owner, marketIdOf(mint(10 + p.m), mint(100)), SIG), p.owner));
          continue;
        }
        const w = Math.floor(rnd() * OWNERS);
        const id = ++nextId[w]!;
        const intent: OrderIntent = {
          orderId: id,
          owner: owners[w]!,
          side: rnd() < 0.5 ? 'Buy' : 'Sell',
          price: BigInt(10_000 + Math.floor(rnd() * 201) - 100),
          quantity: BigInt(1 + Math.floor(rnd() * 100)),
          expiry: 0n,
          baseMint: mint(10 + m),
          quoteMint: mint(100),
        };
        txs.push(tx(encodePlaceOrderIntent(intent, SIG), owners[w]));
        placed.push({ owner: owners[w]!, id, m });
        if (placed.length > 5000) placed.splice(0, 1000);
        orders++;
      }
    }
    transactions += txs.length;
    out.push({
      tickNumber: t,
      vdfProof: { input: new Uint8Array(0), output: new Uint8Array(0), proof: new Uint8Array(0), iterations: 20 },
      transactions: txs.map((transaction) => ({
        transaction,
        sequenceNumber: ++seq,
        txHash: SIG.subarray(0, 32),
        ingestionTimestamp: t0,
      })),
      batchHash: SIG.subarray(0, 32),
      timestamp: t0 + t * tickUs,
      previousOutput: new Uint8Array(0),
    });
  }
  return { ticks: out, orders, transactions };
}

/** CPU ms (user + system) of the main thread so far (Linux /proc; NaN elsewhere). */
/** CPU ms of this process's main thread (bench/support/cpu.ts). */
export const mainThreadCpuMs = (): number => threadCpuMs();

interface Run {
  seconds: number;
  cpuMs: number;
}

function timed(work: () => void): Run {
  const c0 = mainThreadCpuMs();
  const t0 = performance.now();
  work();
  return { seconds: (performance.now() - t0) / 1000, cpuMs: mainThreadCpuMs() - c0 };
}

async function timedAsync(work: () => Promise<void>): Promise<Run> {
  const c0 = mainThreadCpuMs();
  const t0 = performance.now();
  await work();
  return { seconds: (performance.now() - t0) / 1000, cpuMs: mainThreadCpuMs() - c0 };
}

const allChecked = () => true;

function runEngine(ticks: Tick[], withBuilder: boolean): Run {
  const engine = new OrderBookEngine();
  const builder = new BlockBuilder(200);
  return timed(() => {
    for (const t of ticks) {
      const r = engine.apply(prepareTick(t, allChecked), { rootBefore: withBuilder && builder.closes(t) });
      if (withBuilder) builder.apply(r);
      else if (t.tickNumber % 200 === 0) engine.stateRoot(); // a root per 200 ticks (about one per block), like the chain
    }
  });
}

/** The node's pipeline over a source that serves the recorded ticks, into a fresh LevelDB. */
async function runChain(ticks: Tick[]): Promise<Run & { blocks: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-chain-build-'));
  const db = await openDatabase(dir);
  try {
    const source = recordedTicks(ticks);
    const store = new ChainStore(db);
    const engine = new OrderBookEngine();
    const chain = new Chain({ store, engine, builder: new BlockBuilder(200), snapshotTxs: 1e12, snapshotTicks: 1e12 });
    const applier = new TickApplier(
      source,
      engine,
      { verifyMany: async (items) => items.map(() => true) },
      { throttle: () => chain.flushed(), rootBefore: chain.closesBlock },
    );
    applier.onApplied(chain.applied);
    const run = await timedAsync(async () => {
      await applier.start();
      await chain.flushed();
    });
    await applier.stop();
    return { ...run, blocks: chain.latestHeight() };
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export interface BuildFigures {
  ticks: number;
  orders: number;
  transactions: number;
  engine_ticks_per_s: number;
  engine_orders_per_s: number;
  engine_cpu_us_per_order: number;
  builder_ticks_per_s: number;
  builder_orders_per_s: number;
  builder_cpu_us_per_order: number;
  chain_ticks_per_s: number;
  chain_orders_per_s: number;
  chain_cpu_us_per_order: number;
  chain_blocks: number;
  main_thread_share_at_1k_orders_s_pct: number;
  main_thread_share_at_10k_orders_s_pct: number;
  snapshot_ms: number;
  snapshot_bytes: number;
}

export async function benchBuild(tickCount: number, perTick: number, rounds = 3): Promise<BuildFigures> {
  const flow = recordedFlow(tickCount, perTick);
  const e: Run[] = [];
  const b: Run[] = [];
  const c: Array<Run & { blocks: number }> = [];
  runEngine(flow.ticks.slice(0, 2000), true); // warm-up
  for (let r = 0; r < rounds; r++) {
    e.push(runEngine(flow.ticks, false));
    b.push(runEngine(flow.ticks, true));
    c.push(await runChain(flow.ticks));
  }
  const per = (runs: Run[], n: number) => Math.round(median(runs.map((x) => n / x.seconds)));
  const cpu = (runs: Run[]) => Number(median(runs.map((x) => (x.cpuMs * 1000) / flow.orders)).toFixed(1));
  const chainCpu = cpu(c);
  const end = new OrderBookEngine();
  for (const t of flow.ticks) end.apply(prepareTick(t, allChecked));
  const s0 = performance.now();
  const snap = encodeSnapshot(end.state);
  const snapshotMs = performance.now() - s0;
  return {
    ticks: tickCount,
    orders: flow.orders,
    transactions: flow.transactions,
    engine_ticks_per_s: per(e, tickCount),
    engine_orders_per_s: per(e, flow.orders),
    engine_cpu_us_per_order: cpu(e),
    builder_ticks_per_s: per(b, tickCount),
    builder_orders_per_s: per(b, flow.orders),
    builder_cpu_us_per_order: cpu(b),
    chain_ticks_per_s: per(c, tickCount),
    chain_orders_per_s: per(c, flow.orders),
    chain_cpu_us_per_order: chainCpu,
    chain_blocks: c[0]!.blocks,
    main_thread_share_at_1k_orders_s_pct: Number(((chainCpu * 1000) / 1e4).toFixed(1)),
    main_thread_share_at_10k_orders_s_pct: Number(((chainCpu * 10_000) / 1e4).toFixed(1)),
    snapshot_ms: Number(snapshotMs.toFixed(1)),
    snapshot_bytes: snap.length,
  };
}
