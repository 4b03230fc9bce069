/**
 * Matching engine figures for `npm run bench:dex`: our OrderBook vs the nodejs-order-book
 * package's `limit()` on the same fixed flow (dex-flow.ts), in the same process, runs
 * interleaved, medians reported. Our engine always maintains its state commitment (slot
 * bookkeeping); the variants differ in how often the Merkle root is computed.
 */
import { createRequire } from 'node:module';
import { OrderBook, encodeLeaf, type BookOrder } from '../src/dex/engine/index.js';
import { makeFlow, type FlowOrder } from './dex-flow.js';

interface NobOrderBook {
  limit(o: { side: 'buy' | 'sell'; id: string; size: number; price: number }): unknown;
}
const require = createRequire(import.meta.url);
const { OrderBook: NodejsOrderBook } = require('nodejs-order-book') as { OrderBook: new () => NobOrderBook };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const owners = Array.from({ length: 64 }, (_, i) => {
  const o = new Uint8Array(32);
  o[0] = i;
  o[31] = 0xaa;
  return { bytes: o, key: Buffer.from(o).toString('latin1') };
});

function runNob(flow: FlowOrder[]): number {
  const ob = new NodejsOrderBook();
  const t0 = performance.now();
  for (let i = 0; i < flow.length; i++) {
    const f = flow[i]!;
    ob.limit({ side: f.side === 0 ? 'buy' : 'sell', id: `o${i}`, size: f.size, price: f.price });
  }
  return flow.length / ((performance.now() - t0) / 1000);
}

/** rootEvery: 0 = one root at the end; n = a root after every n-th order. */
function runOurs(
  flow: FlowOrder[],
  rootEvery: number,
): { rate: number; rateWithRoot: number; trades: number; root: string } {
  const book = new OrderBook(encodeLeaf);
  let trades = 0;
  const t0 = performance.now();
  for (let i = 0; i < flow.length; i++) {
    const f = flow[i]!;
    const ow = owners[f.owner]!;
    const q = BigInt(f.size);
    const o: BookOrder = {
      seq: BigInt(i),
      marketId: 'bench',
      orderId: BigInt(i),
      owner: ow.bytes,
      ownerKey: ow.key,
      side: f.side,
      price: BigInt(f.price),
      quantity: q,
      remaining: q,
      expiry: 0n,
      slot: -1,
      open: false,
    };
    trades += book.place(o, 1, 0).trades.length;
    if (rootEvery > 0 && i % rootEvery === rootEvery - 1) book.root();
  }
  const t1 = performance.now();
  const root = Buffer.from(book.root()).toString('hex');
  const t2 = performance.now();
  return { rate: flow.length / ((t1 - t0) / 1000), rateWithRoot: flow.length / ((t2 - t0) / 1000), trades, root };
}

function restingAfter(flow: FlowOrder[]): number {
  const book = new OrderBook(encodeLeaf);
  flow.forEach((f, i) => {
    const ow = owners[f.owner]!;
    const q = BigInt(f.size);
    book.place(
      {
        seq: BigInt(i),
        marketId: 'bench',
        orderId: BigInt(i),
        owner: ow.bytes,
        ownerKey: ow.key,
        side: f.side,
        price: BigInt(f.price),
        quantity: q,
        remaining: q,
        expiry: 0n,
        slot: -1,
        open: false,
      },
      1,
      0,
    );
  });
  return book.restingOrders().length;
}

export interface EngineFigures {
  orders: number;
  trades: number;
  nob_orders_per_s: number;
  ours_orders_per_s: number;
  ratio: number;
  ours_with_final_root_per_s: number;
  ratio_with_final_root: number;
  resting_at_end: number;
  ours_root_per_1000_orders_per_s: number;
  ours_root_every_order_per_s: number;
  root_every_order_sample: number;
}

export function benchEngine(n = 300_000, runs = 3): EngineFigures {
  const flow = makeFlow(n);
  const nob: number[] = [];
  const ours: number[] = [];
  const oursRoot: number[] = [];
  const per1000: number[] = [];
  let trades = 0;
  let root = '';
  for (let r = 0; r < runs; r++) {
    nob.push(runNob(flow));
    const a = runOurs(flow, 0);
    ours.push(a.rate);
    oursRoot.push(a.rateWithRoot);
    if (root && a.root !== root) throw new Error('non-deterministic root');
    root = a.root;
    trades = a.trades;
    per1000.push(runOurs(flow, 1000).rateWithRoot);
  }
  // A root after every order is much slower; measure it on a prefix of the flow.
  const sample = Math.min(n, 30_000);
  const everyOrder = runOurs(flow.slice(0, sample), 1).rateWithRoot;
  const resting = restingAfter(flow);
  const o = median(ours);
  const b = median(nob);
  return {
    orders: n,
    trades,
    nob_orders_per_s: Math.round(b),
    ours_orders_per_s: Math.round(o),
    ratio: Number((o / b).toFixed(2)),
    ours_with_final_root_per_s: Math.round(median(oursRoot)),
    ratio_with_final_root: Number((median(oursRoot) / b).toFixed(2)),
    resting_at_end: resting,
    ours_root_per_1000_orders_per_s: Math.round(median(per1000)),
    ours_root_every_order_per_s: Math.round(everyOrder),
    root_every_order_sample: sample,
  };
}
