/**
 * `npm run bench:book-checksum`: what the book channel's checksum (docs/chain.md "Book
 * checksum") costs, in process. The real engine applies ticks of orders to one market whose
 * book holds BENCH_LEVELS levels a side; the node's BookSource derives each tick's delta
 * (folding the level changes into its mirror, whose checksum it keeps incrementally) and the
 * SDK's ChannelClient folds the delta messages as a client does. Printed: derive µs per delta
 * (checksum included), the level hashes per delta and µs per level hash (so the checksum's
 * share of a delta), the alternative of hashing the whole book per delta, and the client's
 * fold µs per delta. Last line: one JSON object.
 * Env: BENCH_LEVELS (default 1000), BENCH_TICKS (default 2000), BENCH_ORDERS_PER_TICK (default 25).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { BookSource } from '../src/channels/index.js';
import { bookChecksumOf, ChannelClient, levelHash, marketIdBytes } from '../src/sdk/index.js';
import type { ChannelConnectionEvents } from '../src/sdk/index.js';
import { marketTx, orderTx, seeded } from '../test/dex/support/orders.js';
import { TickMaker } from '../test/channels/support/ticks.js';
import type { PlaceOrderTx } from '../src/dex/engine/index.js';
import { round } from './support/stats.js';

const LEVELS = Number(process.env.BENCH_LEVELS ?? 1000);
const TICKS = Number(process.env.BENCH_TICKS ?? 2000);
const PER_TICK = Number(process.env.BENCH_ORDERS_PER_TICK ?? 25);

function main(): void {
  const m = new TickMaker();
  const source = new BookSource();
  source.derive(m.apply([marketTx()]));
  const marketId = m.engine.state.marketList()[0]!.info.marketId;
  const owners = [1, 2, 3, 4].map((n) => seeded(n).publicKey);
  let id = 0;
  const mid = 10 * LEVELS;
  // The book: LEVELS bids below mid, LEVELS asks above it, in ticks of 500 orders.
  const seedTxs: PlaceOrderTx[] = [];
  for (let i = 1; i <= LEVELS; i++) {
    seedTxs.push(orderTx(owners[0]!, ++id, 'Buy', mid - i, 10));
    seedTxs.push(orderTx(owners[1]!, ++id, 'Sell', mid + i, 10));
  }
  for (let i = 0; i < seedTxs.length; i += 500) source.derive(m.apply(seedTxs.slice(i, i + 500)));

  // Ticks of PER_TICK orders near the top of the book: new levels, added orders, trades.
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const ticks: PlaceOrderTx[][] = [];
  for (let t = 0; t < TICKS; t++) {
    const txs: PlaceOrderTx[] = [];
    for (let k = 0; k < PER_TICK; k++) {
      const buy = rnd(2) === 0;
      const owner = owners[2 + (buy ? 0 : 1)]!;
      const price = buy ? mid - 1 - rnd(20) + (rnd(10) === 0 ? 3 : 0) : mid + 1 + rnd(20) - (rnd(10) === 0 ? 3 : 0);
      txs.push(orderTx(owner, ++id, buy ? 'Buy' : 'Sell', price, 1 + rnd(5)));
    }
    ticks.push(txs);
  }

  const snapshotText = text(source.snapshot(marketId)!.frame); // what a client subscribing now gets
  let deriveMs = 0;
  let deltas = 0;
  let levelsChanged = 0;
  const frames: string[] = [];
  for (const txs of ticks) {
    const applied = m.apply(txs);
    const t0 = performance.now();
    const out = source.derive(applied);
    deriveMs += performance.now() - t0;
    for (const d of out) {
      deltas++;
      levelsChanged += d.item.book!.bids.length + d.item.book!.asks.length;
      frames.push(text(d.item.frame));
    }
  }
  const rows = source.rows(marketId)!;
  const bookLevels = rows.bids.length + rows.asks.length;

  // One level hash, alone.
  const market = marketIdBytes(marketId);
  const N = 200_000;
  let sink = 0n;
  let t0 = performance.now();
  for (let i = 0; i < N; i++) {
    sink ^= levelHash(market, (i & 1) as 0 | 1, BigInt(1 + i), BigInt(10 + (i % 97)), BigInt(1 + (i % 5)));
  }
  const hashUs = ((performance.now() - t0) * 1000) / N;

  // The alternative: hashing the whole book for each delta.
  const WHOLE = 50;
  t0 = performance.now();
  for (let i = 0; i < WHOLE; i++) bookChecksumOf(marketId, rows.bids, rows.asks);
  const wholeUs = ((performance.now() - t0) * 1000) / WHOLE;

  // The client: the SDK's ChannelClient folding the snapshot and every delta.
  let events: ChannelConnectionEvents | undefined;
  const dial = (_u: string, e: ChannelConnectionEvents) => {
    events = e;
    return { send: () => undefined, close: () => undefined };
  };
  const client = new ChannelClient({ url: 'ws://x/ws', dial });
  let last = '';
  client.book(marketId, (levels) => (last = levels.checksum));
  events!.message('{"type":"welcome","tick":1,"height":1,"heartbeat_ms":5000,"limits":{}}');
  const firstSeq = Number(/"seq":(\d+)/.exec(frames[0]!)![1]);
  const subscribed = { type: 'subscribed', id: 1, tick: 1, channel: 'book', market_id: marketId, seq: firstSeq - 1 };
  events!.message(JSON.stringify(subscribed));
  events!.message(snapshotText);
  t0 = performance.now();
  for (const f of frames) events!.message(f);
  const clientUs = ((performance.now() - t0) * 1000) / frames.length;
  client.close();
  const nodeSum = source.checksum(marketId);
  if (last !== nodeSum) throw new Error(`the client's checksum ${last} is not the node's ${nodeSum}`);
  if (client.checksumMismatches !== 0) throw new Error(`${client.checksumMismatches} mismatches`);

  const perDelta = levelsChanged / deltas;
  const result = {
    bench: 'book-checksum',
    book_levels: bookLevels,
    ticks: TICKS,
    orders_per_tick: PER_TICK,
    deltas,
    changed_levels_per_delta: round(perDelta, 2), // a level hash each, but for levels that are gone
    derive_us_per_delta: round((deriveMs * 1000) / deltas, 1),
    level_hash_us: round(hashUs, 2),
    checksum_us_per_delta: round(perDelta * hashUs, 1),
    whole_book_checksum_us: round(wholeUs, 0),
    client_fold_us_per_delta: round(clientUs, 1),
    load: os.loadavg().map((l) => round(l, 1)),
    sink: String(sink & 1n),
  };
  console.log(JSON.stringify(result));
}

/** A frame's JSON text (the frames are unmasked server frames). */
function text(f: Buffer): string {
  return f.toString('utf8', f[1]! === 126 ? 4 : f[1]! === 127 ? 10 : 2);
}

main();
