/**
 * bench:indexer — the indexer's targets (docs/benchmarks.md), one JSON line:
 *
 *  catch_up_tx_per_s   an indexer from an empty database through a stream of N order
 *                      transactions (default 50,000, in blocks of 500; --txs N)
 *  lag_ms_p50/p99      stream publish -> written to PostgreSQL, at --rate transactions/s
 *                      (default 1,000) for --seconds (default 10)
 *  trades_ms_p50/p99   GET /markets/:id/trades?limit=100 at a random cursor, 16 in flight,
 *  fills_ms_p50/p99    GET /owners/:owner/fills?limit=100 likewise,
 *  candles_ms_p50/p99  GET /markets/:id/candles?resolution=1m over one day (1,440 bars),
 *                      on 10^6 trades and 10^6 fills seeded with SQL (--seed-trades N)
 *
 * The stream is written by this bench, not by a node: messages of the node's contract
 * (docs/chain.md "Message queue"), orders that cross so the replay trades, their status
 * and filled_quantity computed by the engine's own book (as the node's would be). So
 * the figures are the indexer's own, with real nats-server and PostgreSQL (fsync on).
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { BUY, encodeLeaf, OrderBook, SELL, type BookOrder } from '../src/dex/engine/index.js';
import { startIndexer } from '../src/indexer/index.js';
import { silentLogger } from '../src/log/index.js';
import { toBase58 } from '../src/sdk/index.js';
import { encodeJson } from '../src/wire/index.js';
import { natsServer } from '../test/support/nats-server.js';
import { postgresServer } from '../test/support/postgres.js';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const TXS = arg('txs', 50_000);
const RATE = arg('rate', 1000);
const SECONDS = arg('seconds', 10);
const SEED_TRADES = arg('seed-trades', 1_000_000);
const PER_BLOCK = 500;
const MARKET = '11111111-2222-4333-8444-555555555555';
const OWNERS = Array.from({ length: 16 }, (_, i) => toBase58(new Uint8Array(32).fill(i + 1)));
const MINT_A = toBase58(new Uint8Array(32).fill(200));
const MINT_B = toBase58(new Uint8Array(32).fill(201));

/** The synthetic chain: order transactions and blocks, in the node's publication order. */
class Chain {
  private readonly book = new OrderBook(encodeLeaf);
  private height = 1;
  private inBlock: string[] = [];
  private n = 0;
  private tick = 1;
  private readonly started = Date.now();

  /** The next order's tx message (subject, id, body). */
  order(): { subject: string; id: string; data: Uint8Array } {
    const i = this.n++;
    const owner = OWNERS[i % OWNERS.length]!;
    const side = (i >> 1) % 2 === 0 ? 'Buy' : 'Sell';
    const price = 100n + BigInt(i % 5);
    const quantity = 1n + BigInt(i % 7);
    const cs = (BigInt(this.tick) << 32n) | BigInt(this.inBlock.length);
    if (this.inBlock.length % 50 === 49) this.tick++;
    const ts = this.started + Math.floor(i / 10);
    const order: BookOrder = {
      seq: cs,
      marketId: MARKET,
      orderId: BigInt(i + 1),
      owner: new Uint8Array(32),
      ownerKey: owner,
      side: side === 'Buy' ? BUY : SELL,
      price,
      quantity,
      remaining: quantity,
      expiry: 0n,
      slot: -1,
      open: false,
    };
    const r = this.book.place(order, Number(cs >> 32n), ts);
    const id = `${this.height.toString(16).padStart(16, '0')}-0000-${this.inBlock.length.toString(16).padStart(4, '0')}`;
    this.inBlock.push(id);
    const tx = {
      id,
      block_height: this.height,
      batch_index: 0,
      kind: 'order',
      market_id: MARKET,
      market_name: 'A/B',
      market_kind: 'Spot',
      owner,
      side,
      price,
      quantity,
      base_mint: MINT_A,
      quote_mint: MINT_B,
      order_id: BigInt(i + 1),
      timestamp_ms: ts,
      continuum_sequence: cs,
      signature: '00'.repeat(64),
      tick_number: Number(cs >> 32n),
      sequence_number: i + 1,
      tx_hash: '00'.repeat(32),
      expiry: 0n,
      status: r.status,
      filled_quantity: r.filled,
    };
    return { subject: `svc.tx.${MARKET}`, id, data: new TextEncoder().encode(encodeJson(tx)) };
  }

  /** The block of the transactions since the last one. */
  block(): { subject: string; id: string; data: Uint8Array } {
    const h = this.height++;
    const markets =
      h === 1
        ? [
            {
              id: '0000000000000001-0000-ffff',
              block_height: 1,
              batch_index: 0,
              market_id: MARKET,
              market_name: 'A/B',
              market_kind: 'Spot',
              base_mint: MINT_A,
              quote_mint: MINT_B,
              timestamp_ms: this.started,
              continuum_sequence: 0n,
              tick_number: 0,
              sequence_number: 0,
              tx_hash: '00'.repeat(32),
            },
          ]
        : [];
    const block = {
      height: h,
      state_root: new Array(32).fill(0),
      applied_batches: h,
      applied_orders: 0,
      produced_at: Math.floor(Date.now() / 1000),
      total_orders: this.inBlock.length,
      total_cancels: 0,
      batch_summaries: [],
      transaction_ids: this.inBlock,
      event_ids: [],
      total_markets: markets.length,
      first_tick: this.tick,
      last_tick: this.tick,
      trade_count: 0,
    };
    this.inBlock = [];
    this.tick++;
    return {
      subject: 'svc.blocks',
      id: String(h),
      data: new TextEncoder().encode(encodeJson({ block, events: [], markets })),
    };
  }
}

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 100) / 100;
}

async function main(): Promise<void> {
  const [nats, server] = await Promise.all([natsServer(), postgresServer()]);
  const nc = await connect({ servers: nats.url });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: 'SVC', subjects: ['svc.tx.*', 'svc.blocks'], storage: 'file' as never });
  const js = jetstream(nc);
  const chain = new Chain();
  let seq = 0;
  const publish = async (m: { subject: string; id: string; data: Uint8Array }) => {
    seq++;
    await js.publish(m.subject, m.data, { msgID: m.id });
  };
  // The backlog: TXS transactions in blocks of PER_BLOCK.
  let window: Array<Promise<void>> = [];
  for (let i = 0; i < TXS; i++) {
    window.push(publish(chain.order()));
    if ((i + 1) % PER_BLOCK === 0) {
      await Promise.all(window);
      window = [];
      await publish(chain.block());
    }
  }
  await Promise.all(window);
  if (TXS % PER_BLOCK !== 0) await publish(chain.block());
  const backlog = seq;

  const url = await server.createDatabase('bench');
  const t0 = performance.now();
  const ix = await startIndexer({
    pgUrl: url,
    mqUrl: nats.url,
    mqStream: 'SVC',
    indexerConsumer: 'bench',
    indexerAddr: { host: '127.0.0.1', port: 0 },
    indexerBatch: 1000,
    logger: silentLogger(),
  });
  await ix.reached(backlog, 600_000);
  const catchUp = TXS / ((performance.now() - t0) / 1000);

  // Live: RATE transactions a second, a block every 100 ms; lag = publish -> written.
  const sentAt = new Map<number, number>();
  const lags: number[] = [];
  let watching = true;
  const watcher = (async () => {
    let seen = ix.status().stream_seq;
    while (watching) {
      const now = ix.status().stream_seq;
      const t = performance.now();
      for (let s = seen + 1; s <= now; s++) {
        const at = sentAt.get(s);
        if (at !== undefined) lags.push(t - at);
        sentAt.delete(s);
      }
      seen = now;
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const perTick = RATE / 10;
  const start = performance.now();
  for (let k = 0; k < SECONDS * 10; k++) {
    const due = start + k * 100;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const batch: Array<Promise<void>> = [];
    for (let i = 0; i < perTick; i++) {
      const m = chain.order();
      sentAt.set(seq + 1, performance.now());
      batch.push(publish(m));
    }
    sentAt.set(seq + 1, performance.now());
    batch.push(publish(chain.block()));
    await Promise.all(batch);
  }
  await ix.reached(seq, 60_000);
  watching = false;
  await watcher;

  // Reads on SEED_TRADES trades and fills (seeded with SQL) and a day of 1m candles.
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const market = '99999999-2222-4333-8444-555555555555';
  const owner = OWNERS[0]!;
  await db.query(
    `INSERT INTO trades SELECT $1, g, 100 + g % 7, 1 + g % 5, 'Buy', $2, g, $3, g + 1, g::numeric * 4294967296, 'x', g / 500 + 1, 1700000000000 + g * 50
     FROM generate_series(1, $4::bigint) g`,
    [market, OWNERS[1], owner, SEED_TRADES],
  );
  await db.query(`INSERT INTO books VALUES ($1, $2, 0)`, [market, SEED_TRADES + 1]);
  await db.query(
    `INSERT INTO fills SELECT $1, g::numeric * 4294967296, g, $2, g, 'taker', 'Buy', 100 + g % 7, 1 + g % 5, $3, 'x', g / 500 + 1, 1700000000000 + g * 50
     FROM generate_series(1, $4::bigint) g`,
    [owner, market, OWNERS[1], SEED_TRADES],
  );
  const day = 1700006400;
  await db.query(
    `INSERT INTO candles SELECT $1, 60, $2 + g * 60, 100, 105, 95, 101, 1000, 10 FROM generate_series(0, 1439) g`,
    [market, day],
  );
  await db.query('ANALYZE');
  await db.end();
  const base = `http://127.0.0.1:${ix.address.port}`;
  const cursor = (parts: Array<number | bigint>) => Buffer.from(parts.join(':')).toString('base64url');
  const rand = () => 1 + Math.floor(Math.random() * SEED_TRADES);
  const measure = async (path: () => string, ms = 4000): Promise<number[]> => {
    const times: number[] = [];
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (performance.now() < end) {
          const t = performance.now();
          const res = await fetch(`${base}${path()}`);
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${path()}: ${res.status}`);
          times.push(performance.now() - t);
        }
      }),
    );
    return times;
  };
  const trades = await measure(() => `/markets/${market}/trades?limit=100&cursor=${cursor([rand()])}`);
  const fills = await measure(() => {
    const g = rand();
    return `/owners/${owner}/fills?limit=100&cursor=${cursor([BigInt(g) * 4294967296n, g])}`;
  });
  const candles = await measure(() => `/markets/${market}/candles?resolution=1m&from=${day}&to=${day + 86400}`);

  await ix.close();
  await nc.close();
  await Promise.all([nats.dispose(), server.dispose()]);
  console.log(
    JSON.stringify({
      bench: 'indexer',
      txs: TXS,
      catch_up_tx_per_s: Math.round(catchUp),
      rate: RATE,
      seconds: SECONDS,
      lag_ms_p50: pct(lags, 0.5),
      lag_ms_p99: pct(lags, 0.99),
      lag_samples: lags.length,
      seeded_trades: SEED_TRADES,
      trades_ms_p50: pct(trades, 0.5),
      trades_ms_p99: pct(trades, 0.99),
      trades_requests: trades.length,
      fills_ms_p50: pct(fills, 0.5),
      fills_ms_p99: pct(fills, 0.99),
      candles_ms_p50: pct(candles, 0.5),
      candles_ms_p99: pct(candles, 0.99),
      in_flight: 16,
    }),
  );
}

await main();
process.exit(0);
