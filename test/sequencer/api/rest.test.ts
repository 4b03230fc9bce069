/**
 * REST /api/v1 and /metrics over real HTTP (node fetch) against the Koa app on a real
 * server: every route's shape (spec/1 + design.md), and every bad input of the issue.
 */
import { expect } from 'chai';
import { ingestionDigest } from '../../../src/vdf/binding.js';
import type { RestFace } from '../../../src/sequencer/api/rest/server.js';
import { createMetrics } from '../../../src/metrics/index.js';
import { shortHash } from '../../../src/core/tx-hash.js';
import { decodeArchiveRecord, encodeArchiveRecord } from '../../../src/store/archive.js';
import type { Transaction } from '../../../src/core/types.js';
import { FakeSequencer } from '../../support/fake-sequencer.js';
import { restFace } from '../../support/front-ends.js';

function tx(i: number, extra: Partial<Transaction> = {}): Transaction {
  return {
    txId: `rest-${i}`,
    payload: new Uint8Array(10 + i),
    signature: new Uint8Array(64),
    publicKey: new Uint8Array(32),
    nonce: BigInt(i),
    timestamp: 1n,
    ...extra,
  };
}

describe('REST /api/v1 (real HTTP, fake sequencer)', () => {
  let fake: FakeSequencer;
  let face: RestFace;
  let base: string;
  const get = async (path: string) => {
    const res = await fetch(base + path);
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      text,
      body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    };
  };

  beforeEach(async () => {
    fake = new FakeSequencer();
    face = await restFace(fake, createMetrics({ sequencer: fake, streamClients: () => 3 }).registry);
    base = `http://${face.address}`;
  });
  afterEach(async () => {
    await face.close();
  });

  it('GET /api/v1/status', async () => {
    await fake.submit(tx(1));
    await fake.submit(tx(2));
    fake.closeTick();
    await fake.submit(tx(3));
    const r = await get('/api/v1/status');
    expect(r.status).to.equal(200);
    expect(r.type).to.match(/application\/json/);
    expect(r.body).to.include({
      chain_height: 1,
      total_transactions: 2,
      latest_tick: 1,
      status: 'running',
      pending_transactions: 1,
    });
  });

  it('GET /api/v1/health answers healthy with a microsecond timestamp, 503 while stopping', async () => {
    const before = Date.now() * 1000;
    const r = await get('/api/v1/health');
    expect(r.status).to.equal(200);
    expect(r.body!.status).to.equal('healthy');
    const ts = r.body!.timestamp as number;
    expect(ts).to.be.within(before - 1_000_000, Date.now() * 1000 + 1_000_000);
    face.stopAccepting();
    const s = await get('/api/v1/health');
    expect(s.status).to.equal(503);
    expect(s.body!.error).to.match(/shutting down/);
  });

  it('GET /api/v1/tick/{n}: spec fields, the fields the VDF input binds, vdf_proof in lowercase hex; ?transactions=true', async () => {
    await fake.submit(tx(1));
    const tick = fake.closeTick();
    const r = await get('/api/v1/tick/1');
    expect(r.status).to.equal(200);
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
    expect(r.body).to.deep.equal({
      tick_number: 1,
      found: true,
      tick: {
        tick_number: 1,
        timestamp: tick.timestamp,
        first_sequence: tick.transactions[0]!.sequenceNumber,
        transaction_count: 1,
        transaction_batch_hash: hex(tick.batchHash),
        ingestion_digest: hex(ingestionDigest([tick.transactions[0]!.ingestionTimestamp])),
        vdf_iterations: tick.vdfProof.iterations,
        previous_output: hex(tick.previousOutput),
        vdf_proof: {
          input: hex(tick.vdfProof.input),
          output: hex(tick.vdfProof.output),
          proof: hex(tick.vdfProof.proof),
          iterations: tick.vdfProof.iterations,
        },
      },
    });
    expect((r.body!.tick as { vdf_proof: { output: string } }).vdf_proof.output).to.match(/^[0-9a-f]{512}$/);
    // With its transactions: every field a full hash is computed from, u64s as strings.
    const o = tick.transactions[0]!;
    const full = await get('/api/v1/tick/1?transactions=true');
    expect((full.body!.tick as { transactions: unknown[] }).transactions).to.deep.equal([
      {
        sequence_number: o.sequenceNumber,
        ingestion_timestamp: o.ingestionTimestamp,
        tx_hash: hex(o.txHash),
        tx_id: o.transaction.txId,
        payload: hex(o.transaction.payload),
        signature: hex(o.transaction.signature),
        public_key: hex(o.transaction.publicKey),
        nonce: o.transaction.nonce.toString(),
        timestamp: o.transaction.timestamp.toString(),
      },
    ]);
    expect((await get('/api/v1/tick/1?transactions=yes')).status).to.equal(400);
  });

  it('GET /api/v1/tick/{n}: 404 with found=false for a tick that does not exist', async () => {
    const r = await get('/api/v1/tick/5');
    expect(r.status).to.equal(404);
    expect(r.body).to.include({ found: false });
    expect(r.body!.error).to.be.a('string');
    const big = await get(`/api/v1/tick/${Number.MAX_SAFE_INTEGER}`);
    expect(big.status).to.equal(404);
  });

  it("GET /api/v1/archive/{n}: spec/1's archived JSON record of the tick, byte for byte; 404 and 400 like /tick", async () => {
    await fake.submit(tx(1, { nonce: 18446744073709551615n }));
    fake.closeTick();
    const r = await get('/api/v1/archive/1');
    expect(r.status).to.equal(200);
    expect(r.type).to.match(/application\/json/);
    expect(r.text).to.equal(encodeArchiveRecord(fake.ticks[0]!));
    expect(decodeArchiveRecord(r.text)).to.deep.equal(fake.ticks[0]);
    expect((await get('/api/v1/archive/9')).status).to.equal(404);
    expect((await get('/api/v1/archive/x')).status).to.equal(400);
  });

  for (const bad of [
    '0',
    '-1',
    '1.5',
    'abc',
    '1e3',
    '9007199254740992',
    '99999999999999999999999999',
    '0x1',
    '%20',
    '1%00',
    '%E0%A4%A',
  ]) {
    it(`GET /api/v1/tick/${bad} answers 400 with a clear message`, async () => {
      const r = await get(`/api/v1/tick/${bad}`);
      expect(r.status).to.equal(400);
      expect(r.body!.error).to.match(/tick number/);
    });
  }

  it('GET /api/v1/tx/{hash}: lookup shape, tx_id as submitted text, nonce an integer up to 2^53 - 1 and a decimal string above', async () => {
    const big = 18446744073709551615n;
    await fake.submit(tx(7, { txId: 'ünïcode-id', nonce: big }));
    fake.closeTick();
    const o = fake.ticks[0]!.transactions[0]!;
    const hash = shortHash(o.txHash);
    const r = await get(`/api/v1/tx/${hash.toUpperCase()}`);
    expect(r.status).to.equal(200);
    expect(r.text).to.contain('"nonce":"18446744073709551615"'); // never a bare integer a JavaScript client would round
    await fake.submit(tx(8, { nonce: 9007199254740991n }));
    fake.closeTick();
    const small = await get(`/api/v1/tx/${shortHash(fake.ticks[1]!.transactions[0]!.txHash)}`);
    expect(small.text).to.contain('"nonce":9007199254740991');
    expect(r.body).to.deep.include({
      tx_hash: hash,
      tick_number: 1,
      sequence_number: o.sequenceNumber,
      found: true,
      matches: 1,
    });
    const t = r.body!.transaction as Record<string, unknown>;
    expect(t).to.include({ tx_id: 'ünïcode-id', ingestion_timestamp: o.ingestionTimestamp, payload_size: 17 });
  });

  it('GET /api/v1/tx/{hash}: with colliding hashes answers the earliest and the number of matches', async () => {
    await fake.submit(tx(1));
    await fake.submit(tx(2));
    fake.closeTick();
    // Force a collision of the 8-hex form: give the second the first one's leading bytes.
    const [a, b] = fake.ticks[0]!.transactions;
    b!.txHash = Uint8Array.from([...a!.txHash.subarray(0, 4), ...b!.txHash.subarray(4)]);
    const r = await get(`/api/v1/tx/${shortHash(a!.txHash)}`);
    expect(r.body).to.include({ found: true, matches: 2, sequence_number: a!.sequenceNumber });
  });

  it('GET /api/v1/tx/{hash}: 404 found=false for unknown, 400 for bad hashes', async () => {
    const r = await get('/api/v1/tx/00000000');
    expect(r.status).to.equal(404);
    expect(r.body).to.include({ found: false });
    for (const bad of ['abc', '123456789', 'zzzzzzzz', '0x123456', '%20%20%20%20%20%20%20%20', '%ZZ', 'deadbee%00']) {
      const b = await get(`/api/v1/tx/${bad}`);
      expect(b.status, bad).to.equal(400);
      expect(b.body!.error, bad).to.match(/tx_hash/);
    }
  });

  it('GET /api/v1/ticks/recent: newest first, default 20, limit and offset, total = number returned', async () => {
    for (let i = 0; i < 30; i++) {
      await fake.submit(tx(i));
      fake.closeTick();
    }
    const def = await get('/api/v1/ticks/recent');
    const ticks = def.body!.ticks as Array<{ tick_number: number; timestamp: number; transaction_count: number }>;
    expect(ticks.map((t) => t.tick_number)).to.deep.equal(Array.from({ length: 20 }, (_, i) => 30 - i));
    expect(def.body!.total).to.equal(20);
    expect(ticks[0]).to.have.keys(['tick_number', 'timestamp', 'transaction_count']);
    const page = await get('/api/v1/ticks/recent?limit=5&offset=27');
    expect((page.body!.ticks as Array<{ tick_number: number }>).map((t) => t.tick_number)).to.deep.equal([3, 2, 1]);
    expect(page.body!.total).to.equal(3);
    const max = await get('/api/v1/ticks/recent?limit=100');
    expect(max.body!.total).to.equal(30);
  });

  const badQueries = [
    'limit=0',
    'limit=101',
    'limit=-1',
    'limit=abc',
    'limit=1.5',
    'limit=',
    'offset=-1',
    'offset=x',
    'offset=1e3',
    'offset=99999999999',
    'limit=1&limit=2',
  ];
  for (const q of badQueries) {
    it(`GET /api/v1/ticks/recent?${q} answers 400`, async () => {
      const r = await get(`/api/v1/ticks/recent?${q}`);
      expect(r.status).to.equal(400);
      expect(r.body!.error).to.match(/limit|offset/);
    });
  }

  it('answers 404 JSON for unknown routes, 405 for non-GET methods, 500 for a failing read', async () => {
    const r = await get('/api/v1/nope');
    expect(r.status).to.equal(404);
    expect(r.body!.error).to.match(/no such route/);
    const post = await fetch(`${base}/api/v1/status`, { method: 'POST', body: '{}' });
    expect(post.status).to.equal(405);
    expect(((await post.json()) as { error: string }).error).to.match(/GET only/);
    fake.failNextRead = true;
    const fail = await get('/api/v1/tick/1');
    expect(fail.status).to.equal(500);
    expect(fail.body).to.deep.equal({ error: 'internal server error' });
  });

  it('GET /metrics exposes tick time, queue depth, tx/s, stream clients and process metrics', async () => {
    fake.closeTick();
    fake.closeTick();
    await fake.submit(tx(1));
    const r = await get('/metrics');
    expect(r.status).to.equal(200);
    expect(r.type).to.match(/text\/plain/);
    expect(r.text).to.match(/^svc_tick_time_seconds_count 1$/m);
    expect(r.text).to.match(/^svc_queue_depth 1$/m);
    expect(r.text).to.match(/^svc_transactions_per_second 0$/m);
    expect(r.text).to.match(/^svc_stream_clients 3$/m);
    expect(r.text).to.match(/^svc_current_tick 2$/m);
    expect(r.text).to.match(/^process_resident_memory_bytes \d+/m);
  });
});
