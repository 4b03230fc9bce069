/**
 * gRPC svc.chain.v1.ChainService on a whole node, with a real @grpc/grpc-js client built
 * from the .proto: SubmitTx answers (sequence, tick, transaction id) and its status codes
 * for malformed, unsigned, wrongly signed and replayed transactions; StreamTx from a
 * continuum_sequence and live, in order without gaps; a stalled stream does not hold up
 * the others and catches up from the store; a cancel releases it; per-peer rate limits;
 * reflection and health list the service.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import {
  ChainClient,
  signedCancelRequest,
  signedOrderRequest,
  type WireTxBatch,
} from '../../../src/chain/api/client/index.js';
import { loadChainPackage } from '../../../src/chain/api/client/index.js';
import {
  encodeCancelOrderData,
  encodeOrderIntent,
  orderMessage,
  type OrderIntent,
} from '../../../src/core/order-messages.js';
import { sign } from '../../../src/crypto/keys.js';
import { marketIdOf } from '../../../src/core/market-id.js';
import { keyOf, mintOf } from '../support/flow.js';
import { healthOf, listServices } from '../support/reflection.js';
import { startChainNode, type ChainNode } from '../support/node.js';

const alice = keyOf(1);
const bob = keyOf(2);

function intent(owner: Uint8Array, id: number, side: 'Buy' | 'Sell', price: number, qty: number): OrderIntent {
  return {
    orderId: BigInt(id),
    owner,
    side,
    price: BigInt(price),
    quantity: BigInt(qty),
    expiry: 0n,
    baseMint: mintOf(1),
    quoteMint: mintOf(2),
  };
}

async function codeOf(p: Promise<unknown>): Promise<{ code: number; details: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as grpc.ServiceError;
    return { code: e.code, details: e.details };
  }
  throw new Error('expected the call to fail');
}

function rawSubmit(address: string, body: Buffer): Promise<{ code: number; details: string }> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/svc.chain.v1.ChainService/SubmitTx',
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
      (err) => {
        client.close();
        resolve({ code: err?.code ?? 0, details: err?.details ?? '' });
      },
    );
  });
}

/** Collect StreamTx batches until `until` says stop. */
function collect(
  stream: grpc.ClientReadableStream<WireTxBatch>,
  until: (all: WireTxBatch[]) => boolean,
  timeoutMs = 60_000,
): Promise<WireTxBatch[]> {
  const all: WireTxBatch[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`stream: only ${all.length} batches after ${timeoutMs} ms`)),
      timeoutMs,
    );
    stream.on('data', (b: WireTxBatch) => {
      all.push(b);
      if (until(all)) {
        clearTimeout(timer);
        resolve(all);
      }
    });
    stream.on('error', (err: grpc.ServiceError) => {
      if (err.code === grpc.status.CANCELLED) return;
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Open streams the node counts (the /metrics gauge), waited for until at least `count`. */
async function waitForStreams(n: ChainNode, count: number): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    const text = await (await fetch(`http://${n.node.addresses.rest}/metrics`)).text();
    if (Number(/^svc_stream_clients (\d+)/m.exec(text)![1]) >= count) return;
    if (Date.now() > until) throw new Error(`the node never had ${count} streams open`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const seqs = (batches: WireTxBatch[]) =>
  batches.flatMap((b) => b.transactions.map((t) => BigInt(t.continuum_sequence)));

/** SubmitTx's answers and refusals, run on the node `node()` gives (main-thread intake or intake threads). */
function submitTxCases(node: () => ChainNode): void {
  it('SubmitTx: orders, cancels and markets answer with sequence, tick and transaction id', async () => {
    const sell = await node().client.submit(
      signedOrderRequest(intent(alice.publicKey, 1, 'Sell', 100, 5), alice.secretKey),
    );
    expect(Number(sell.sequence_number)).to.be.greaterThan(0);
    expect(sell.transaction_id).to.match(/^[0-9a-f]{16}-[0-9a-f]{4}-[0-9a-f]{4}$/);
    expect(BigInt(sell.continuum_sequence) >> 32n).to.equal(BigInt(sell.tick_number));
    expect(sell.transaction).to.include({
      id: sell.transaction_id,
      kind: 'order',
      side: 'Sell',
      price: '100',
      status: 'resting',
      market_name: 'ONE/TWO',
    });
    const buy = await node().client.submit(signedOrderRequest(intent(bob.publicKey, 1, 'Buy', 100, 2), bob.secretKey));
    expect(buy.transaction).to.include({ status: 'filled', filled_quantity: '2' });
    expect(BigInt(buy.continuum_sequence) > BigInt(sell.continuum_sequence)).to.equal(true);
    const cancel = await node().client.submit(
      signedCancelRequest(
        { orderId: 1n, owner: alice.publicKey, marketId: marketIdOf(mintOf(1), mintOf(2)) },
        alice.secretKey,
      ),
    );
    expect(cancel.transaction).to.include({ kind: 'cancel', cancelled_quantity: '3' });
    const market = await node().client.submit({
      market: { base_mint: mintOf(5), quote_mint: mintOf(6), name: 'FIVE/SIX', kind: 'Perp' },
    });
    // A market creation is not a transaction (spec/3 has two kinds): it answers in `market`.
    expect(market.transaction).to.equal(null);
    expect(market.market).to.include({
      id: market.transaction_id,
      market_kind: 'Perp',
      market_name: 'FIVE/SIX',
      market_id: marketIdOf(mintOf(5), mintOf(6)),
      tx_hash: market.tx_hash,
    });
    // What SubmitTx answered is what the explorer serves.
    const rest = await node().get(`/transactions/${buy.transaction_id}`);
    expect(rest.status).to.equal(200);
    expect((rest.json as { tx_hash: string }).tx_hash).to.equal(buy.tx_hash);
  });

  it('SubmitTx bad input: INVALID_ARGUMENT, UNAUTHENTICATED, ALREADY_EXISTS, NOT_FOUND, FAILED_PRECONDITION', async () => {
    const S = grpc.status;
    const good = intent(alice.publicKey, 50, 'Sell', 200, 1);
    const sig = sign(orderMessage(good), alice.secretKey);
    const cases: Array<[string, Promise<unknown>, number]> = [
      [
        'no tx',
        rawSubmit(node().grpc, Buffer.alloc(0)).then((r) => Promise.reject(Object.assign(new Error(r.details), r))),
        S.INVALID_ARGUMENT,
      ],
      [
        'short intent',
        node().client.submit({ order: { intent: encodeOrderIntent(good).subarray(0, 100), signature: sig } }),
        S.INVALID_ARGUMENT,
      ],
      [
        'side byte 7',
        node().client.submit({
          order: {
            intent: (() => {
              const b = encodeOrderIntent(good);
              b[40] = 7;
              return b;
            })(),
            signature: sig,
          },
        }),
        S.INVALID_ARGUMENT,
      ],
      [
        'signature of 10 bytes',
        node().client.submit({ order: { intent: encodeOrderIntent(good), signature: sig.subarray(0, 10) } }),
        S.INVALID_ARGUMENT,
      ],
      [
        'unsigned order',
        node().client.submit({ order: { intent: encodeOrderIntent(good), signature: new Uint8Array(0) } }),
        S.UNAUTHENTICATED,
      ],
      [
        'signed by another key',
        node().client.submit({
          order: { intent: encodeOrderIntent(good), signature: sign(orderMessage(good), bob.secretKey) },
        }),
        S.UNAUTHENTICATED,
      ],
      [
        'signature of other bytes',
        node().client.submit({ order: { intent: encodeOrderIntent({ ...good, price: 201n }), signature: sig } }),
        S.UNAUTHENTICATED,
      ],
      [
        'zero price',
        node().client.submit(signedOrderRequest({ ...good, orderId: 51n, price: 0n }, alice.secretKey)),
        S.INVALID_ARGUMENT,
      ],
      [
        'expired',
        node().client.submit(signedOrderRequest({ ...good, orderId: 52n, expiry: 1000n }, alice.secretKey)),
        S.INVALID_ARGUMENT,
      ],
      [
        'unknown market',
        node().client.submit(signedOrderRequest({ ...good, orderId: 53n, baseMint: mintOf(40) }, alice.secretKey)),
        S.NOT_FOUND,
      ],
      [
        'unsigned cancel',
        node().client.submit({
          cancel: {
            data: encodeCancelOrderData({
              orderId: 1n,
              owner: alice.publicKey,
              marketId: marketIdOf(mintOf(1), mintOf(2)),
            }),
            signature: new Uint8Array(0),
          },
        }),
        S.UNAUTHENTICATED,
      ],
      [
        'cancel of a bad market id',
        node().client.submit(
          signedCancelRequest({ orderId: 1n, owner: alice.publicKey, marketId: 'NOT-A-UUID' }, alice.secretKey),
        ),
        S.INVALID_ARGUMENT,
      ],
      [
        'cancel of an unknown order',
        node().client.submit(
          signedCancelRequest(
            { orderId: 999n, owner: alice.publicKey, marketId: marketIdOf(mintOf(1), mintOf(2)) },
            alice.secretKey,
          ),
        ),
        S.NOT_FOUND,
      ],
      [
        'market with short mints',
        node().client.submit({ market: { base_mint: new Uint8Array(5), quote_mint: mintOf(2), name: 'X' } }),
        S.INVALID_ARGUMENT,
      ],
      [
        'market kind Future',
        node().client.submit({ market: { base_mint: mintOf(7), quote_mint: mintOf(8), name: 'X', kind: 'Future' } }),
        S.INVALID_ARGUMENT,
      ],
      [
        'market name with a newline',
        node().client.submit({ market: { base_mint: mintOf(7), quote_mint: mintOf(8), name: 'A\nB' } }),
        S.INVALID_ARGUMENT,
      ],
      [
        'duplicate market (other orientation)',
        node().client.submit({ market: { base_mint: mintOf(2), quote_mint: mintOf(1), name: 'TWO/ONE' } }),
        S.ALREADY_EXISTS,
      ],
    ];
    for (const c of cases) c[1].catch(() => undefined); // all in flight at once; checked one by one below
    for (const [what, call, code] of cases) {
      const got = await codeOf(call);
      expect(got.code, `${what}: ${got.details}`).to.equal(code);
      expect(got.details.length, what).to.be.greaterThan(5);
    }
    // Replays: the same signed order twice (sequential and concurrent), an order id reused, a cancel sent again.
    const first = await node().client.submit({ order: { intent: encodeOrderIntent(good), signature: sig } });
    expect(first.transaction!.status).to.equal('resting');
    expect(
      (await codeOf(node().client.submit({ order: { intent: encodeOrderIntent(good), signature: sig } }))).code,
    ).to.equal(S.ALREADY_EXISTS);
    expect(
      (await codeOf(node().client.submit(signedOrderRequest({ ...good, price: 300n }, alice.secretKey)))).code,
    ).to.equal(S.ALREADY_EXISTS);
    const twin = signedOrderRequest({ ...good, orderId: 60n }, alice.secretKey);
    const both = await Promise.allSettled([node().client.submit(twin), node().client.submit(twin)]);
    expect(both.map((r) => r.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
    expect(
      ((both.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as grpc.ServiceError).code,
    ).to.equal(S.ALREADY_EXISTS);
    const cancel = signedCancelRequest(
      { orderId: 50n, owner: alice.publicKey, marketId: marketIdOf(mintOf(1), mintOf(2)) },
      alice.secretKey,
    );
    await node().client.submit(cancel);
    expect((await codeOf(node().client.submit(cancel))).code).to.equal(S.ALREADY_EXISTS);
    // A filled order cannot be cancelled: FAILED_PRECONDITION.
    await node().client.submit(signedOrderRequest(intent(bob.publicKey, 70, 'Buy', 500, 1), bob.secretKey)); // takes alice's order 60 at 200
    const filled = signedCancelRequest(
      { orderId: 60n, owner: alice.publicKey, marketId: marketIdOf(mintOf(1), mintOf(2)) },
      alice.secretKey,
    );
    expect((await codeOf(node().client.submit(filled))).code).to.equal(S.FAILED_PRECONDITION);
    // Malformed protobuf bytes.
    for (const body of [Buffer.from([0xff, 0xff, 0xff]), Buffer.from([0x0a, 0x50, 0x01]), Buffer.from([0x08])]) {
      expect((await rawSubmit(node().grpc, body)).code).to.equal(S.INVALID_ARGUMENT);
    }
  });
}

describe('chain: gRPC ChainService on a whole node', function () {
  this.timeout(180_000);
  let n: ChainNode;
  let nextId = 100;

  before(async () => {
    // --max-pending 1024: a test below sends 400 orders at once from one client, beyond its default fair share.
    n = await startChainNode({ args: ['--max-pending', '1024'] });
    await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } });
  });
  after(async () => {
    await n?.close();
  });

  submitTxCases(() => n);

  it('StreamTx: from a continuum_sequence (stored, then live) in order without gaps; 0 = live only', async () => {
    const historyStream = n.client.stream(1n);
    const history = await collect(historyStream, (all) => all.length > 0 && seqs(all).length >= 5, 30_000);
    historyStream.cancel();
    const start = seqs(history);
    expect(start.length).to.be.at.least(5);
    const live = n.client.stream(0);
    const from = n.client.stream(start[2]!);
    await waitForStreams(n, 2); // a live stream starts where the call lands: wait until the node has both
    const posted = [];
    for (let i = 0; i < 20; i++)
      posted.push(
        n.client.submit(signedOrderRequest(intent(bob.publicKey, nextId++, 'Buy', 10 + i, 1), bob.secretKey)),
      );
    const answers = await Promise.all(posted);
    const last = answers.map((a) => BigInt(a.continuum_sequence)).reduce((a, b) => (a > b ? a : b)); // concurrent submissions: the highest, not the last sent
    const done = (all: WireTxBatch[]) => seqs(all).some((s) => s >= last);
    const [liveBatches, fromBatches] = await Promise.all([collect(live, done), collect(from, done)]);
    live.cancel();
    from.cancel();
    const fromSeqs = seqs(fromBatches);
    for (const b of [...history, ...fromBatches]) expect(b.batch_hash).to.match(/^[0-9a-f]{64}$/);
    expect(fromSeqs[0]).to.equal(start[2]);
    expect(fromSeqs).to.deep.equal([...fromSeqs].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(fromSeqs).size).to.equal(fromSeqs.length);
    for (const a of answers) expect(fromSeqs).to.include(BigInt(a.continuum_sequence));
    const liveSeqs = seqs(liveBatches);
    expect(liveSeqs.every((s) => s > start[start.length - 1]!)).to.equal(true);
    for (const a of answers) expect(liveSeqs).to.include(BigInt(a.continuum_sequence));
    // The whole history read back equals the REST view of each transaction.
    const one = fromBatches[fromBatches.length - 1]!.transactions[0]!;
    expect((await n.get(`/transactions/${one.id}`)).json).to.include({ id: one.id, owner: one.owner });
    // Malformed request bytes.
    const raw = new grpc.Client(n.grpc, grpc.credentials.createInsecure());
    const bad = raw.makeServerStreamRequest(
      '/svc.chain.v1.ChainService/StreamTx',
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.from([0x08, 0xff]),
    );
    const status = await new Promise<grpc.StatusObject>((resolve) =>
      bad
        .on('status', resolve)
        .on('error', () => undefined)
        .on('data', () => undefined),
    );
    expect(status.code).to.equal(grpc.status.INVALID_ARGUMENT);
    raw.close();
  });

  it('a stalled StreamTx does not hold up the others, catches up from the store, and a cancel releases it', async () => {
    // Both streams start at a known sequence (a live stream, from 0, starts wherever the call lands).
    const mark = await n.client.submit(
      signedOrderRequest(intent(alice.publicKey, 9_999, 'Sell', 5000, 1), alice.secretKey),
    );
    const from = BigInt(mark.continuum_sequence) + 1n;
    const slow = new ChainClient(n.grpc, { 'grpc-node.flow_control_window': 65_535 });
    const stalled = slow.stream(from);
    let stalledGot: WireTxBatch[] = [];
    stalled.on('data', (b: WireTxBatch) => stalledGot.push(b));
    stalled.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, 300));
    stalled.pause(); // stops reading: HTTP/2 flow control stops the server's writes
    const watcher = n.client.stream(from);
    const posted = [];
    for (let i = 0; i < 400; i++)
      posted.push(
        n.client.submit(
          signedOrderRequest(intent(alice.publicKey, 10_000 + i, 'Sell', 1000 + (i % 50), 1), alice.secretKey),
        ),
      );
    const answers = await Promise.all(posted);
    const last = answers.map((a) => BigInt(a.continuum_sequence)).reduce((a, b) => (a > b ? a : b)); // concurrent submissions: the highest, not the last sent
    const seen = await collect(watcher, (all) => seqs(all).some((s) => s >= last));
    expect(seqs(seen).length).to.be.at.least(400);
    const before = stalledGot.length;
    expect(
      seqs(stalledGot).some((s) => s >= last),
      'the stalled stream cannot have read everything',
    ).to.equal(false);
    stalled.resume();
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('stalled stream did not catch up')), 60_000);
      const check = () => {
        if (seqs(stalledGot).some((s) => s >= last)) {
          clearTimeout(t);
          resolve();
        } else setTimeout(check, 50);
      };
      check();
    });
    const all = seqs(stalledGot);
    expect(all).to.deep.equal([...all].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(all).size).to.equal(all.length);
    for (const a of answers) expect(all).to.include(BigInt(a.continuum_sequence));
    expect(stalledGot.length).to.be.greaterThan(before);
    // Cancel both: the node's count of open streams goes back to zero.
    stalled.cancel();
    watcher.cancel();
    stalledGot = [];
    const metrics = async () => {
      const text = await (await fetch(`http://${n.node.addresses.rest}/metrics`)).text();
      return Number(/^svc_stream_clients (\d+)/m.exec(text)![1]);
    };
    const until = Date.now() + 10_000;
    while ((await metrics()) !== 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(await metrics()).to.equal(0);
    slow.close();
  });

  it('reflection lists svc.chain.v1.ChainService and health says SERVING', async () => {
    expect(Object.keys(loadChainPackage())).to.include('svc.chain.v1.ChainService');
    const services = await listServices(n.grpc);
    expect(services).to.include.members(['svc.chain.v1.ChainService', 'svc.sequencer.v1.SequencerService']);
    expect(await healthOf(n.grpc, 'svc.chain.v1.ChainService')).to.equal('SERVING');
  });
});

describe('chain: gRPC per-peer rate limits (flags)', function () {
  this.timeout(120_000);
  it('--submit-tx-rate and --stream-tx-rate answer RESOURCE_EXHAUSTED past the budget', async () => {
    const n = await startChainNode({ args: ['--submit-tx-rate', '2', '--stream-tx-rate', '1'] });
    try {
      const calls = await Promise.allSettled(
        [1, 2, 3, 4].map((i) =>
          n.client.submit({ market: { base_mint: mintOf(10 + i), quote_mint: mintOf(20 + i), name: `M${i}` } }),
        ),
      );
      const codes = calls.map((c) => (c.status === 'fulfilled' ? 0 : (c.reason as grpc.ServiceError).code));
      expect(codes.filter((c) => c === 0)).to.have.length(2);
      expect(codes.filter((c) => c === grpc.status.RESOURCE_EXHAUSTED)).to.have.length(2);
      // The retry hint rides in the trailers (docs/chain.md).
      for (const c of calls)
        if (c.status === 'rejected')
          expect((c.reason as grpc.ServiceError).metadata.get('retry-after-ms')).to.deep.equal(['1000']);
      const s1 = n.client.stream(0);
      s1.on('error', () => undefined);
      s1.on('data', () => undefined);
      const second = await codeOf(collect(n.client.stream(0), () => true, 10_000));
      expect(second.code).to.equal(grpc.status.RESOURCE_EXHAUSTED);
      expect(second.details).to.match(/per minute/);
      s1.cancel();
    } finally {
      await n.close();
    }
  });
});

describe('chain: gRPC SubmitTx through intake threads (--intake-threads 1)', function () {
  this.timeout(180_000);
  let n: ChainNode;
  before(async () => {
    n = await startChainNode({ args: ['--intake-threads', '1'] });
    await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } });
  });
  after(async () => {
    await n?.close();
  });
  submitTxCases(() => n);
});

describe('chain: gRPC SubmitTx through the order entry (--grpc-entry-addr, in the gateway processes)', function () {
  this.timeout(180_000);
  let n: ChainNode;
  let entry: ChainClient;
  let view: ChainNode;
  before(async () => {
    // --gateways 0 is the support's default; later flags win.
    n = await startChainNode({ args: ['--gateways', '1', '--grpc-entry-addr', '127.0.0.1:0'] });
    entry = new ChainClient(n.node.addresses['grpc-entry']!);
    await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'ONE/TWO' } });
    // The same cases through the entry: orders, cancels and mass cancels there; market
    // creations (not taken by the entry) to the node's own gRPC port.
    const submit: ChainClient['submit'] = (req, deadlineMs) =>
      'market' in req ? n.client.submit(req, deadlineMs) : entry.submit(req, deadlineMs);
    view = { ...n, grpc: n.node.addresses['grpc-entry']!, client: { submit } as ChainClient };
  });
  after(async () => {
    entry?.close();
    await n?.close();
  });

  submitTxCases(() => view);

  it('answers what the node port answers: the stored record, the explorer shows it', async () => {
    const o = intent(alice.publicKey, 900, 'Sell', 700, 3);
    const got = await entry.submit(signedOrderRequest(o, alice.secretKey));
    const stored = await n.get(`/transactions/${got.transaction_id}`);
    expect(stored.status).to.equal(200);
    expect(stored.json).to.include({ tx_hash: got.tx_hash, sequence_number: Number(got.sequence_number) });
    expect(got.transaction).to.include({ kind: 'order', status: 'resting', price: '700' });
  });

  it('a request over 64 KiB: RESOURCE_EXHAUSTED before any decoding; the entry takes the next order', async () => {
    const address = n.node.addresses['grpc-entry']!;
    // Field 1 (order), a length of 70,000 bytes: over the entry's bound before any decoding.
    const big = Buffer.concat([Buffer.from([0x0a, 0xf0, 0xa2, 0x04]), Buffer.alloc(70_000, 1)]);
    const r = await rawSubmit(address, big);
    expect(r.code).to.equal(grpc.status.RESOURCE_EXHAUSTED);
    expect(r.details).to.match(/larger than max/i);
    const ok = await entry.submit(signedOrderRequest(intent(bob.publicKey, 901, 'Buy', 1, 1), bob.secretKey));
    expect(ok.transaction).to.include({ kind: 'order', price: '1' });
  });

  it('takes SubmitTx only: a market creation FAILED_PRECONDITION, StreamTx UNIMPLEMENTED', async () => {
    const market = await codeOf(
      entry.submit({ market: { base_mint: mintOf(7), quote_mint: mintOf(8), name: 'SEVEN/EIGHT' } }),
    );
    expect(market.code).to.equal(grpc.status.FAILED_PRECONDITION);
    expect(market.details).to.match(/market creation/);
    const stream = entry.stream(0n);
    const code = await new Promise<number>((resolve) => {
      stream.on('data', () => undefined);
      stream.on('error', (err: grpc.ServiceError) => resolve(err.code));
    });
    expect(code).to.equal(grpc.status.UNIMPLEMENTED);
    // Nothing was created: the node's explorer does not know the market.
    const markets = await n.get('/markets');
    expect(markets.text).to.not.include('SEVEN/EIGHT');
  });
});
