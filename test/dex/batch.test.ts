/**
 * Batch order entry (issue 28 point 1) on the real `svc node` binary: POST /orders/batch
 * through 2 gateway processes, and gRPC SubmitTxBatch; the single-process face
 * (--gateways 0) in process with the test sequencer. The clients are this process; the node is another. Checked: a mixed batch
 * (good, bad signature, unknown market, duplicate order id, cancel of an earlier item, a
 * malformed item) answers each item with the single call's code, in order, in sequence
 * order, receipts verifying; batches over the item and byte limits, and over the address's
 * fair share, are refused whole with nothing of them sequenced; a batch of all-bad items;
 * kill -9 right after answered batches loses none of their items.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status as grpcStatus } from '@grpc/grpc-js';
import {
  ChainClient,
  signedCancelRequest,
  signedOrderRequest,
  type SubmitTxRequest,
} from '../../src/chain/api/client/index.js';
import {
  buildCancelBody,
  buildOrderBody,
  DexApiError,
  DexClient,
  fromBase58Key,
  keyPairFromSeed,
  toBase58,
  verifyReceipt,
  type BatchItemBody,
  type BatchItemResult,
  type OrderIntent,
  type Receipt,
} from '../../src/sdk/index.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { startTestDex, type TestDex } from './support/server.js';

const BASE = new Uint8Array(32).fill(41);
const QUOTE = new Uint8Array(32).fill(42);
const OTHER = new Uint8Array(32).fill(43); // no market for BASE/OTHER

function intentOf(seed: number, orderId: bigint, over: Partial<OrderIntent> = {}): OrderIntent {
  const owner = keyPairFromSeed(new Uint8Array(32).fill(seed)).publicKey;
  return {
    orderId,
    owner,
    side: 'Buy',
    price: 10n + (orderId % 5n),
    quantity: 3n,
    expiry: 0n,
    baseMint: BASE,
    quoteMint: QUOTE,
    ...over,
  };
}

function orderItem(seed: number, orderId: bigint, over: Partial<OrderIntent> = {}): BatchItemBody {
  return {
    kind: 'order',
    ...buildOrderBody(intentOf(seed, orderId, over), keyPairFromSeed(new Uint8Array(32).fill(seed)).secretKey),
  };
}

function cancelItem(seed: number, orderId: bigint, marketId: string): BatchItemBody {
  const kp = keyPairFromSeed(new Uint8Array(32).fill(seed));
  return { kind: 'cancel', ...buildCancelBody({ orderId, owner: kp.publicKey, marketId }, kp.secretKey) };
}

function badSignature(item: BatchItemBody): BatchItemBody {
  const s = item.signature;
  return { ...item, signature: (s[0] === '0' ? '1' : '0') + s.slice(1) };
}

async function rawBatch(
  dexUrl: string,
  body: string,
): Promise<{ status: number; body: { ok: boolean; code?: string; data?: { results: BatchItemResult[] } } }> {
  const res = await fetch(`${dexUrl}/orders/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; code?: string } };
}

function codes(results: BatchItemResult[]): string[] {
  return results.map((r) => (r.ok ? 'ok' : r.code));
}

/** The receipt of an applied item. */
function receiptOf(r: BatchItemResult): Receipt {
  if (!r.ok) throw new Error(`item refused: ${r.code} ${r.error}`);
  return r.data.receipt;
}

async function startNode(
  dir: string,
  extra: string[],
): Promise<{
  node: NodeProcess;
  dex: DexClient;
  url: string;
  grpc: ChainClient;
  sequencerKey: Uint8Array;
  marketId: string;
}> {
  const node = await spawnNode(dir, ['--idle-tick-ms', '20', ...extra], ['grpc', 'rest', 'dex', 'rpc']);
  const url = `http://${node.addresses.dex!}`;
  const dex = new DexClient(url);
  const sequencerKey = fromBase58Key((await dex.health()).public_key);
  const existing = (await dex.listMarkets()).find((m) => m.base_mint === toBase58(BASE));
  const marketId =
    existing?.market_id ??
    (await dex.createMarket({ base_mint: toBase58(BASE), quote_mint: toBase58(QUOTE), name: 'BATCH/TEST' })).market_id;
  return { node, dex, url, grpc: new ChainClient(node.addresses.grpc!), sequencerKey, marketId };
}

async function stop(node: NodeProcess): Promise<void> {
  node.child.kill('SIGKILL');
  await node.exited;
}

/** The mixed batch, answered in order with each single call's code; receipts verify and follow the items' order. */
async function mixedBatch(dex: DexClient, sequencerKey: Uint8Array, marketId: string, seed: number): Promise<void> {
  const items: BatchItemBody[] = [
    orderItem(seed, 1n),
    orderItem(seed, 1n, { price: 99n }), // the same order id again: the later one is a replay
    badSignature(orderItem(seed, 2n)),
    orderItem(seed, 3n, { quoteMint: OTHER }),
    cancelItem(seed, 1n, marketId), // cancels the first item
    {
      kind: 'order',
      ...buildOrderBody(intentOf(seed, 4n), keyPairFromSeed(new Uint8Array(32).fill(seed)).secretKey),
      price: '0',
    },
    orderItem(seed, 5n),
    cancelItem(seed, 2n, marketId), // its order was refused (bad signature): unknown, judged at once
  ];
  const started = performance.now();
  const results = await dex.placeBatch(items);
  const took = performance.now() - started;
  expect(codes(results)).to.deep.equal([
    'ok',
    'ORDER_REPLAYED',
    'BAD_SIGNATURE',
    'UNKNOWN_MARKET',
    'ok',
    'INVALID_FIELD',
    'ok',
    'UNKNOWN_ORDER',
  ]);
  expect(results.map((r) => (r.ok ? 200 : r.status))).to.deep.equal([200, 409, 401, 404, 200, 400, 200, 404]);
  // A cancel of an order refused in the same batch is judged at once, not held for 1 s.
  expect(took, 'batch answer time (ms)').to.be.below(5_000);
  const applied = [0, 4, 6].map((i) => receiptOf(results[i]!));
  for (const r of applied) expect(verifyReceipt(r, sequencerKey)).to.equal(true);
  const seqs = applied.map((r) => BigInt(r.continuum_sequence));
  expect(seqs[0]! < seqs[1]! && seqs[1]! < seqs[2]!, `continuum sequences ${seqs.join(' < ')}`).to.equal(true);
  const cancelled = results[4]!;
  expect(cancelled.ok && 'cancelled_quantity' in cancelled.data && cancelled.data.cancelled_quantity).to.equal('3');
  // The refused items were never sequenced: sent alone now, they are judged afresh.
  await dex.placeOrder(buildOrderBody(intentOf(seed, 2n), keyPairFromSeed(new Uint8Array(32).fill(seed)).secretKey));
}

describe('batch order entry (real node)', function () {
  this.timeout(120_000);

  describe('--gateways 2, gRPC', () => {
    let dir: string;
    let n: Awaited<ReturnType<typeof startNode>>;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'svc-batch-'));
      n = await startNode(dir, ['--gateways', '2']);
    });
    after(async () => {
      n.grpc.close();
      await stop(n.node);
      await rm(dir, { recursive: true, force: true });
    });

    it('a mixed batch through the gateways: each item its own answer, in order and in sequence order', async () => {
      await mixedBatch(n.dex, n.sequencerKey, n.marketId, 50);
    });

    it('over 64 items or 64 KiB, an empty or shapeless batch: refused whole, nothing sequenced', async () => {
      const tooMany = Array.from({ length: 65 }, (_, i) => orderItem(51, BigInt(i + 1)));
      const a = await rawBatch(n.url, JSON.stringify({ items: tooMany }));
      expect([a.status, a.body.code]).to.deep.equal([400, 'BATCH_TOO_LARGE']);
      const padded = Array.from({ length: 40 }, (_, i) => ({
        ...orderItem(52, BigInt(i + 1)),
        note: 'x'.repeat(1700),
      }));
      const b = await rawBatch(n.url, JSON.stringify({ items: padded }));
      expect([b.status, b.body.code]).to.deep.equal([413, 'BODY_TOO_LARGE']);
      expect((await rawBatch(n.url, '{"items":[]}')).body.code).to.equal('BAD_REQUEST');
      expect((await rawBatch(n.url, '{"items":{}}')).body.code).to.equal('BAD_REQUEST');
      expect((await rawBatch(n.url, '[1,2]')).body.code).to.equal('BAD_REQUEST');
      // Nothing of them was taken: the same signed orders go through now (no replay).
      const again = await n.dex.placeBatch([
        ...tooMany.slice(0, 32),
        ...padded.slice(0, 32).map(({ note: _note, ...o }) => o as BatchItemBody),
      ]);
      expect(
        codes(again).every((c) => c === 'ok'),
        codes(again).join(','),
      ).to.equal(true);
    });

    it('a batch of all-bad items: 200, every item refused with its code', async () => {
      const results = await n.dex.placeBatch([
        badSignature(orderItem(53, 1n)),
        orderItem(53, 2n, { quoteMint: OTHER }),
        cancelItem(53, 9n, '00000000-0000-4000-8000-000000000000'),
      ]);
      expect(codes(results)).to.deep.equal(['BAD_SIGNATURE', 'UNKNOWN_MARKET', 'UNKNOWN_MARKET']);
    });

    it('gRPC SubmitTxBatch: per-item results in order, consecutive sequence numbers, limits refused whole', async () => {
      const kp = keyPairFromSeed(new Uint8Array(32).fill(54));
      const bad = signedOrderRequest(intentOf(54, 2n), kp.secretKey) as {
        order: { intent: Uint8Array; signature: Uint8Array };
      };
      const badSig = {
        order: {
          intent: bad.order.intent,
          signature: new Uint8Array(bad.order.signature).map((v, i) => (i === 0 ? v ^ 1 : v)),
        },
      };
      const items: SubmitTxRequest[] = [
        signedOrderRequest(intentOf(54, 1n), kp.secretKey),
        signedOrderRequest(intentOf(54, 1n, { price: 77n }), kp.secretKey),
        badSig,
        signedOrderRequest(intentOf(54, 3n, { quoteMint: OTHER }), kp.secretKey),
        signedCancelRequest({ orderId: 1n, owner: kp.publicKey, marketId: n.marketId }, kp.secretKey),
        signedOrderRequest(intentOf(54, 4n), kp.secretKey),
        { market: { base_mint: OTHER, quote_mint: BASE, name: 'NOPE' } },
      ];
      const results = await untilChain(() => n.grpc.submitBatch(items));
      expect(results.map((r) => (r.result === 'ok' ? 0 : r.error!.code))).to.deep.equal([
        0,
        grpcStatus.ALREADY_EXISTS,
        grpcStatus.UNAUTHENTICATED,
        grpcStatus.NOT_FOUND,
        0,
        0,
        grpcStatus.INVALID_ARGUMENT,
      ]);
      expect(results[1]!.error!.details).to.match(/^ORDER_REPLAYED: /);
      const ok = [0, 4, 5].map((i) => results[i]!.ok!);
      expect(ok.map((r) => r.transaction!.kind)).to.deep.equal(['order', 'cancel', 'order']);
      expect(ok[1]!.transaction!.cancelled_quantity).to.equal('3');
      const seqs = ok.map((r) => BigInt(r.sequence_number));
      expect(seqs[1]! - seqs[0]!, 'no transaction between the batch items').to.equal(1n);
      expect(seqs[2]! - seqs[1]!).to.equal(1n);

      const tooMany = Array.from({ length: 65 }, (_, i) =>
        signedOrderRequest(intentOf(54, BigInt(100 + i)), kp.secretKey),
      );
      await expectGrpcError(n.grpc.submitBatch(tooMany), grpcStatus.INVALID_ARGUMENT, /BATCH_TOO_LARGE/);
      const big = Array.from({ length: 40 }, () => ({
        order: { intent: new Uint8Array(2000), signature: new Uint8Array(64) },
      }));
      await expectGrpcError(n.grpc.submitBatch(big), grpcStatus.INVALID_ARGUMENT, /above the limit of 65536/);
      await expectGrpcError(n.grpc.submitBatch([]), grpcStatus.INVALID_ARGUMENT, /empty/);
      // Nothing of the refused batch was taken.
      const again = await n.grpc.submitBatch(tooMany.slice(0, 64));
      expect(again.map((r) => r.error?.details ?? 'ok').filter((d) => d !== 'ok')).to.deep.equal([]);
    });

    it('kill -9 right after answered batches: every applied item is still there', async () => {
      const answered: Array<{ seed: number; orderId: bigint }> = [];
      for (let b = 0; b < 3; b++) {
        const items = Array.from({ length: 20 }, (_, i) =>
          orderItem(56 + b, BigInt(i + 1), { side: 'Sell', price: 1000n + BigInt(i) }),
        );
        const results = await n.dex.placeBatch(items);
        results.forEach((r, i) => {
          if (r.ok) answered.push({ seed: 56 + b, orderId: BigInt(i + 1) });
        });
      }
      expect(answered.length).to.equal(60);
      await stop(n.node);
      n.grpc.close();
      n = await startNode(dir, ['--gateways', '2']);
      const replays = await n.dex.placeBatch(
        answered.map((a) => orderItem(a.seed, a.orderId, { side: 'Sell', price: 1000n + a.orderId - 1n })),
      );
      expect(
        codes(replays).every((c) => c === 'ORDER_REPLAYED'),
        codes(replays).join(','),
      ).to.equal(true);
      const book = await n.dex.orderBook(n.marketId, 1000, true);
      const resting = new Set((book.orders ?? []).map((o) => `${o.owner}/${o.order_id}`));
      for (const a of answered)
        expect(
          resting.has(`${toBase58(intentOf(a.seed, a.orderId).owner)}/${a.orderId}`),
          `${a.seed}/${a.orderId}`,
        ).to.equal(true);
    });
  });

  describe('--gateways 2, --max-pending 40 (a gateway part of 20)', () => {
    let dir: string;
    let n: Awaited<ReturnType<typeof startNode>>;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'svc-batch-'));
      n = await startNode(dir, ['--gateways', '2', '--max-pending', '40']);
    });
    after(async () => {
      n.grpc.close();
      await stop(n.node);
      await rm(dir, { recursive: true, force: true });
    });

    it('a batch larger than the address fair share is refused whole (HTTP 503, gRPC RESOURCE_EXHAUSTED); nothing sequenced', async () => {
      const items = Array.from({ length: 41 }, (_, i) => orderItem(61, BigInt(i + 1)));
      const err = await n.dex.placeBatch(items).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(DexApiError);
      expect([(err as DexApiError).status, (err as DexApiError).code]).to.deep.equal([503, 'QUEUE_FULL']);
      const kp = keyPairFromSeed(new Uint8Array(32).fill(62));
      const reqs = Array.from({ length: 41 }, (_, i) => signedOrderRequest(intentOf(62, BigInt(i + 1)), kp.secretKey));
      await expectGrpcError(
        untilChain(() => n.grpc.submitBatch(reqs)),
        grpcStatus.RESOURCE_EXHAUSTED,
        /QUEUE_FULL/,
      );
      // Within the node's share (and over one gateway's part of 20: an address holding
      // nothing there may send one batch) the same items all go through: nothing of the
      // refused batches was sequenced.
      expect(codes(await n.dex.placeBatch(items.slice(0, 32))).every((c) => c === 'ok')).to.equal(true);
      expect((await n.grpc.submitBatch(reqs.slice(0, 40))).every((r) => r.result === 'ok')).to.equal(true);
    });
  });

  describe('the single-process face (--gateways 0; in process, test sequencer)', () => {
    let t: TestDex;
    before(async () => {
      t = await startTestDex();
    });
    after(async () => t.close());

    it('answers a mixed batch the same way', async () => {
      const dex = new DexClient(t.url);
      const sequencerKey = fromBase58Key((await dex.health()).public_key);
      const { market_id } = await dex.createMarket({
        base_mint: toBase58(BASE),
        quote_mint: toBase58(QUOTE),
        name: 'BATCH/TEST',
      });
      await mixedBatch(dex, sequencerKey, market_id, 60);
    });
  });
});

/** Retry while the chain is starting (UNAVAILABLE). */
async function untilChain<T>(call: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await call();
    } catch (err) {
      if ((err as { code?: number }).code !== grpcStatus.UNAVAILABLE || i > 100) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function expectGrpcError(p: Promise<unknown>, code: grpcStatus, details: RegExp): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e as { code: number; details: string },
  );
  expect(err, 'a gRPC error').to.not.equal(undefined);
  expect(err!.code, err!.details).to.equal(code);
  expect(err!.details).to.match(details);
}
