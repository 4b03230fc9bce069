/**
 * What the indexer tests run against, all real: a nats-server with JetStream, a throwaway
 * PostgreSQL server, and the real `svc node` publishing its chain to the stream while a
 * flow of crossing orders trades, plus a few orders of our own that rest, get cancelled
 * (one by one and by a mass cancel) and meet the self-trade rule. `settle()` waits until the stream ends with the node's
 * latest block and the flow is over: then the stream is the node's whole chain.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildCancelAllBody,
  buildCancelBody,
  buildOrderBody,
  DexClient,
  keyPairFromSeed,
  toBase58,
  type OrderIntent,
} from '../../../src/sdk/index.js';
import { readStream, streamLastSeq } from '../../support/jetstream.js';
import { natsServer, type NatsServer } from '../../support/nats-server.js';
import { spawnNode, type NodeProcess } from '../../support/node-process.js';
import { startOrderFlow } from '../../support/order-flow.js';
import { postgresServer, type PostgresServer } from '../../support/postgres.js';

export interface Fixture {
  nats: NatsServer;
  pg: PostgresServer;
  node: NodeProcess;
  rpc: string;
  dex: string;
  marketId: string;
  /** The market of our own orders and their owner A (Base58). */
  ownMarketId: string;
  owner: string;
  /** Owner B (Base58): its sells 2 and 3 ended by its mass cancel (Sell side), its bid 4 open. */
  massOwner: string;
  /** The stream's last sequence once settled. */
  lastSeq: number;
  close(): Promise<void>;
}

export async function getText(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

export async function getJson<T>(url: string): Promise<T> {
  const { status, body } = await getText(url);
  if (status !== 200) throw new Error(`GET ${url}: ${status} ${body}`);
  return JSON.parse(body) as T;
}

/**
 * `beforeNode` runs once NATS and PostgreSQL are up and before the node starts; it returns
 * extra node flags (the explorer page test starts its indexer there, for --indexer-url).
 */
export async function startFixture(
  flowMs = 1500,
  beforeNode?: (nats: NatsServer, pg: PostgresServer) => Promise<string[]>,
): Promise<Fixture> {
  const [nats, pg] = await Promise.all([natsServer(), postgresServer()]);
  const dbPath = await mkdtemp(join(tmpdir(), 'svc-idx-node-'));
  let node: NodeProcess | undefined;
  const close = async () => {
    if (node) {
      node.child.kill('SIGKILL');
      await node.exited;
    }
    await Promise.all([nats.dispose(), pg.dispose(), rm(dbPath, { recursive: true, force: true })]);
  };
  try {
    // A loaded 2-core machine can take a while to start a node.
    const extra = beforeNode ? await beforeNode(nats, pg) : [];
    node = await spawnNode(
      dbPath,
      ['--mq-url', nats.url, '--idle-tick-ms', '20', '--block-ms', '100', ...extra],
      ['grpc', 'rest', 'dex', 'rpc'],
      { timeoutMs: 60_000 },
    );
    const rpc = `http://${node.addresses.rpc}`;
    const dex = `http://${node.addresses.dex}`;
    const flow = await startOrderFlow(dex, { concurrency: 3 });
    const own = await ownOrders(dex);
    await new Promise((r) => setTimeout(r, flowMs));
    await flow.stop();
    const lastSeq = await settle(rpc, nats);
    return {
      nats,
      pg,
      node,
      rpc,
      dex,
      marketId: flow.marketId,
      ownMarketId: own.marketId,
      owner: own.owner,
      massOwner: own.massOwner,
      lastSeq,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * In a market of their own: owner A rests two bids (cancels one), rests an ask and then
 * bids into it (the self-trade rule takes the ask away, the bid rests); owner B sells into
 * A's bids (two trades, one order partly filled), then rests two asks and a bid and
 * mass-cancels its sells. Returns A and B (Base58).
 */
async function ownOrders(dexUrl: string): Promise<{ owner: string; massOwner: string; marketId: string }> {
  const dex = new DexClient(dexUrl);
  const base = new Uint8Array(32).fill(9);
  const quote = new Uint8Array(32).fill(10);
  const { market_id: marketId } = await dex.createMarket({
    base_mint: toBase58(base),
    quote_mint: toBase58(quote),
    name: 'NINE/TEN',
  });
  const a = keyPairFromSeed(new Uint8Array(32).fill(99));
  const b = keyPairFromSeed(new Uint8Array(32).fill(98));
  const place = (key: typeof a, orderId: bigint, side: 'Buy' | 'Sell', price: bigint, quantity: bigint) => {
    const intent: OrderIntent = {
      orderId,
      owner: key.publicKey,
      side,
      price,
      quantity,
      expiry: 0n,
      baseMint: base,
      quoteMint: quote,
    };
    return dex.placeOrder(buildOrderBody(intent, key.secretKey));
  };
  await place(a, 1n, 'Buy', 5n, 5n);
  await place(a, 2n, 'Buy', 6n, 6n);
  await dex.cancelOrder(buildCancelBody({ orderId: 1n, owner: a.publicKey, marketId }, a.secretKey));
  await place(a, 3n, 'Sell', 20n, 2n);
  await place(a, 4n, 'Buy', 20n, 3n);
  await place(b, 1n, 'Sell', 6n, 4n);
  await place(b, 2n, 'Sell', 30n, 2n);
  await place(b, 3n, 'Sell', 31n, 1n);
  await place(b, 4n, 'Buy', 1n, 1n);
  await dex.cancelAll(buildCancelAllBody({ requestId: 1n, owner: b.publicKey, marketId, side: 'Sell' }, b.secretKey));
  return { owner: toBase58(a.publicKey), massOwner: toBase58(b.publicKey), marketId };
}

/** Wait until the stream ends with the node's latest block and stops moving; its last sequence. */
async function settle(rpc: string, nats: NatsServer): Promise<number> {
  const end = Date.now() + 60_000;
  let last = -1;
  for (;;) {
    const { block_height, total_transactions } = await getJson<{ block_height: number; total_transactions: number }>(
      `${rpc}/status`,
    );
    const seq = await streamLastSeq(nats.url);
    const tail = seq > 0 ? (await readStream(nats.url)).at(-1) : undefined;
    const txs = total_transactions;
    if (
      seq === last &&
      tail?.subject === 'svc.blocks' &&
      tail.msgId === String(block_height) &&
      seq === txs + block_height
    )
      return seq;
    last = seq;
    if (Date.now() > end) throw new Error(`the stream did not settle (seq ${seq}, node at block ${block_height})`);
    await new Promise((r) => setTimeout(r, 400));
  }
}
