/**
 * gRPC SequencerService through a real @grpc/grpc-js client over loopback: every method,
 * every bad input of the issue, and the status mapping. The sequencer behind it is the
 * FakeSequencer test double (validation by the engine's limits, ticks closed on demand).
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { GrpcFace } from '../../../src/sequencer/api/grpc/server.js';
import { shortHash, transactionHash } from '../../../src/core/tx-hash.js';
import { FakeSequencer } from '../../support/fake-sequencer.js';
import { grpcFace } from '../../support/front-ends.js';
import { SequencerClient, rawUnary, wireTx, type WireTick } from '../../support/grpc-client.js';

async function expectStatus(p: Promise<unknown>, code: grpc.status, message?: RegExp): Promise<grpc.ServiceError> {
  try {
    await p;
  } catch (err) {
    const e = err as grpc.ServiceError;
    expect(e.code, `${e.code} ${e.details}`).to.equal(code);
    if (message) expect(e.details).to.match(message);
    return e;
  }
  throw new Error(`expected status ${grpc.status[code]}, got OK`);
}

describe('gRPC SequencerService (real client, fake sequencer)', () => {
  let fake: FakeSequencer;
  let face: GrpcFace;
  let client: SequencerClient;

  beforeEach(async () => {
    fake = new FakeSequencer({ queueCapacity: 50 });
    face = await grpcFace(fake);
    client = new SequencerClient(face.address);
  });
  afterEach(async () => {
    client.close();
    await face.close();
  });

  describe('SubmitTransaction', () => {
    it('answers sequence number, expected tick and the 8-hex hash of the Borsh bytes', async () => {
      const tx = wireTx(200);
      const r = await client.submit(tx);
      const expected = shortHash(
        transactionHash({
          txId: tx.tx_id,
          payload: tx.payload,
          signature: tx.signature,
          publicKey: tx.public_key,
          nonce: BigInt(tx.nonce),
          timestamp: BigInt(tx.timestamp),
        }),
      );
      expect(r).to.deep.equal({ sequence_number: '1', expected_tick: '1', tx_hash: expected });
      expect((await client.submit(wireTx())).sequence_number).to.equal('2');
    });

    it('carries a u64 nonce of 2^64-1 unchanged into the tick', async () => {
      const tx = { ...wireTx(), nonce: '18446744073709551615' };
      await client.submit(tx);
      fake.closeTick();
      expect(fake.ticks[0]!.transactions[0]!.transaction.nonce).to.equal(18446744073709551615n);
    });

    it('refuses a request without a transaction', async () => {
      await expectStatus(client.call('SubmitTransaction', {}), grpc.status.INVALID_ARGUMENT, /transaction is required/);
    });
    it('refuses an empty tx_id', async () => {
      await expectStatus(client.submit({ ...wireTx(), tx_id: '' }), grpc.status.INVALID_ARGUMENT, /tx_id/);
    });
    it('refuses an oversized payload, signature, public key and tx_id', async () => {
      await expectStatus(
        client.submit({ ...wireTx(), payload: Buffer.alloc(65_537) }),
        grpc.status.INVALID_ARGUMENT,
        /payload/,
      );
      await expectStatus(
        client.submit({ ...wireTx(), signature: Buffer.alloc(257) }),
        grpc.status.INVALID_ARGUMENT,
        /signature/,
      );
      await expectStatus(
        client.submit({ ...wireTx(), public_key: Buffer.alloc(257) }),
        grpc.status.INVALID_ARGUMENT,
        /public_key/,
      );
      await expectStatus(client.submit({ ...wireTx(), tx_id: 'x'.repeat(129) }), grpc.status.INVALID_ARGUMENT, /tx_id/);
    });
    it('maps ALREADY_EXISTS from the sequencer', async () => {
      const tx = wireTx();
      await client.submit(tx);
      await expectStatus(client.submit(tx), grpc.status.ALREADY_EXISTS);
    });
    it('answers INVALID_ARGUMENT (not INTERNAL) to malformed protobuf bytes', async () => {
      for (const bytes of [
        [0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f],
        [0x0a, 0x05, 0x0a],
        [0x0f],
        [0x0a, 0x03, 0x0a, 0x01, 0xff],
      ]) {
        await expectStatus(
          rawUnary(face.address, 'SubmitTransaction', Buffer.from(bytes)),
          grpc.status.INVALID_ARGUMENT,
          /malformed/,
        );
        await expectStatus(
          rawUnary(face.address, 'SubmitBatch', Buffer.from(bytes)),
          grpc.status.INVALID_ARGUMENT,
          /malformed/,
        );
      }
      await expectStatus(
        rawUnary(face.address, 'GetTick', Buffer.from([0x08])),
        grpc.status.INVALID_ARGUMENT,
        /malformed/,
      );
    });
    it('answers RESOURCE_EXHAUSTED when the queue is full', async () => {
      for (let i = 0; i < 50; i++) await client.submit(wireTx());
      await expectStatus(client.submit(wireTx()), grpc.status.RESOURCE_EXHAUSTED);
      fake.closeTick();
      expect((await client.submit(wireTx())).sequence_number).to.equal('51');
    });
    it('answers UNAVAILABLE once the node stops accepting', async () => {
      face.stopAccepting();
      await expectStatus(client.submit(wireTx()), grpc.status.UNAVAILABLE);
    });
  });

  describe('SubmitBatch', () => {
    it('keeps failed items in place with sequence_number 0 and an empty hash, and reports them in trailers', async () => {
      const txs = [
        wireTx(),
        { ...wireTx(), tx_id: '' },
        wireTx(),
        { ...wireTx(), payload: Buffer.alloc(70_000) },
        wireTx(),
      ];
      const { response, trailers } = await client.callWithTrailers<{
        responses: Array<{ sequence_number: string; tx_hash: string }>;
      }>('SubmitBatch', { transactions: txs });
      expect(response.responses.map((r) => r.sequence_number)).to.deep.equal(['1', '0', '2', '0', '3']);
      expect(response.responses[1]!.tx_hash).to.equal('');
      expect(response.responses[0]!.tx_hash).to.match(/^[0-9a-f]{8}$/);
      expect(trailers.get('svc-failed-items')).to.deep.equal(['2']);
      const errors = JSON.parse(String(trailers.get('svc-item-errors')[0])) as Array<{ index: number; code: string }>;
      expect(errors.map((e) => [e.index, e.code])).to.deep.equal([
        [1, 'INVALID_ARGUMENT'],
        [3, 'INVALID_ARGUMENT'],
      ]);
    });
    it('refuses an empty batch and one over the batch limit', async () => {
      await expectStatus(client.submitBatch([]), grpc.status.INVALID_ARGUMENT, /empty/);
      const many = Array.from({ length: 10_001 }, (_, i) => ({
        tx_id: `m${i}`,
        payload: Buffer.alloc(0),
        signature: Buffer.alloc(0),
        public_key: Buffer.alloc(0),
        nonce: '0',
        timestamp: '0',
      }));
      await expectStatus(client.submitBatch(many), grpc.status.INVALID_ARGUMENT, /more than 10000/);
      expect(fake.status().pendingTransactions).to.equal(0);
    });
    it('accepts what fits in the queue, and answers RESOURCE_EXHAUSTED when nothing fits', async () => {
      const first = await client.submitBatch(Array.from({ length: 60 }, () => wireTx()));
      expect(first.responses.filter((r) => r.sequence_number !== '0')).to.have.length(50);
      expect(first.responses.slice(50).every((r) => r.sequence_number === '0' && r.tx_hash === '')).to.equal(true);
      await expectStatus(client.submitBatch([wireTx(), wireTx()]), grpc.status.RESOURCE_EXHAUSTED, /queue is full/);
    });
    it('refuses a message above the server maximum with RESOURCE_EXHAUSTED', async () => {
      const small = await grpcFace(fake, { maxReceiveMessageBytes: 64 * 1024 });
      const c = new SequencerClient(small.address);
      try {
        await expectStatus(
          c.submitBatch([wireTx(40_000), wireTx(40_000)]),
          grpc.status.RESOURCE_EXHAUSTED,
          /larger than max/,
        );
        expect((await c.submit(wireTx(1000))).sequence_number).to.equal('1');
      } finally {
        c.close();
        await small.close();
      }
    });
  });

  describe('queries', () => {
    it('GetStatus reports the sequencer figures', async () => {
      await client.submitBatch([wireTx(), wireTx(), wireTx()]);
      fake.closeTick();
      await client.submit(wireTx());
      const s = await client.call<Record<string, unknown>>('GetStatus', {});
      expect(s).to.include({ current_tick: '1', total_transactions: '3', pending_transactions: '1' });
      expect(s).to.have.property('transactions_per_second');
    });

    it('GetTransaction finds by hash in any case, found=false for unknown, INVALID_ARGUMENT for bad hashes', async () => {
      const tx = wireTx(33);
      const r = await client.submit(tx);
      fake.closeTick();
      const got = await client.call<{
        found: boolean;
        tick_number: string;
        transaction: { sequence_number: string; tx_hash: string; transaction: { tx_id: string; payload: Buffer } };
      }>('GetTransaction', { tx_hash: r.tx_hash.toUpperCase() });
      expect(got.found).to.equal(true);
      expect(got.tick_number).to.equal('1');
      expect(got.transaction.sequence_number).to.equal(r.sequence_number);
      expect(got.transaction.tx_hash).to.equal(r.tx_hash);
      expect(got.transaction.transaction.tx_id).to.equal(tx.tx_id);
      expect(got.transaction.transaction.payload.equals(tx.payload)).to.equal(true);
      const other = r.tx_hash === '00000000' ? '00000001' : '00000000';
      expect(await client.call('GetTransaction', { tx_hash: other })).to.include({ found: false });
      for (const bad of ['', 'abc', '123456789', 'zzzzzzzz', '0x12345678', '1234567g']) {
        await expectStatus(client.call('GetTransaction', { tx_hash: bad }), grpc.status.INVALID_ARGUMENT, /tx_hash/);
      }
    });

    it('GetTick returns the tick with hex fields, found=false when unknown, INVALID_ARGUMENT for 0 and huge', async () => {
      await client.submit(wireTx());
      const tick = fake.closeTick();
      const got = await client.call<{ found: boolean; tick: WireTick }>('GetTick', { tick_number: '1' });
      expect(got.found).to.equal(true);
      expect(got.tick.tick_number).to.equal('1');
      expect(got.tick.vdf_proof.output).to.equal(Buffer.from(tick.vdfProof.output).toString('hex'));
      expect(got.tick.previous_output).to.equal(Buffer.from(tick.previousOutput).toString('hex'));
      expect(got.tick.transaction_batch_hash).to.equal(Buffer.from(tick.batchHash).toString('hex'));
      expect(got.tick.transactions).to.have.length(1);
      expect(await client.call('GetTick', { tick_number: '2' })).to.include({ found: false });
      await expectStatus(client.call('GetTick', { tick_number: '0' }), grpc.status.INVALID_ARGUMENT, /genesis/);
      await expectStatus(
        client.call('GetTick', { tick_number: '18446744073709551615' }),
        grpc.status.INVALID_ARGUMENT,
        /too large/,
      );
    });

    it('GetChainState: default 10 ticks, tick_limit honoured, more than 100 refused, hash sample', async () => {
      for (let i = 0; i < 15; i++) {
        await client.submit(wireTx());
        fake.closeTick();
      }
      const def = await client.call<{
        chain_height: string;
        total_transactions: string;
        recent_ticks: WireTick[];
        tx_to_tick_sample: Record<string, string>;
      }>('GetChainState', {});
      expect(def.chain_height).to.equal('15');
      expect(def.total_transactions).to.equal('15');
      expect(def.recent_ticks.map((t) => t.tick_number)).to.deep.equal([
        '15',
        '14',
        '13',
        '12',
        '11',
        '10',
        '9',
        '8',
        '7',
        '6',
      ]);
      expect(Object.keys(def.tx_to_tick_sample)).to.have.length(10);
      for (const [hash, n] of Object.entries(def.tx_to_tick_sample)) {
        const tick = fake.ticks[Number(n) - 1]!;
        expect(shortHash(tick.transactions[0]!.txHash)).to.equal(hash);
      }
      const three = await client.call<{ recent_ticks: WireTick[] }>('GetChainState', { tick_limit: 3 });
      expect(three.recent_ticks).to.have.length(3);
      await expectStatus(
        client.call('GetChainState', { tick_limit: 101 }),
        grpc.status.INVALID_ARGUMENT,
        /at most 100/,
      );
    });

    it('maps a failing store read to INTERNAL without leaking the error', async () => {
      fake.failNextRead = true;
      await expectStatus(
        client.call('GetTick', { tick_number: '1' }),
        grpc.status.INTERNAL,
        /internal error in GetTick/,
      );
    });
  });

  describe('reflection and health', () => {
    it('lists the service through grpc.reflection.v1 (as grpcurl does)', async () => {
      const protoLoader = await import('@grpc/proto-loader');
      const { createRequire } = await import('node:module');
      const require = createRequire(import.meta.url);
      const reflectionProto = require.resolve('@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto');
      const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(reflectionProto, { keepCase: true })) as unknown as {
        grpc: { reflection: { v1: { ServerReflection: grpc.ServiceClientConstructor } } };
      };
      const c = new pkg.grpc.reflection.v1.ServerReflection(face.address, grpc.credentials.createInsecure());
      const call = (
        c as unknown as {
          ServerReflectionInfo(): grpc.ClientDuplexStream<
            object,
            { list_services_response: { service: Array<{ name: string }> } }
          >;
        }
      ).ServerReflectionInfo();
      const names = await new Promise<string[]>((resolve, reject) => {
        call.on('data', (msg) => resolve(msg.list_services_response.service.map((s: { name: string }) => s.name)));
        call.on('error', reject);
        call.write({ list_services: '' });
      });
      call.end();
      c.close();
      expect(names).to.include('svc.sequencer.v1.SequencerService');
    });

    it('answers grpc.health.v1 Check with SERVING, and NOT_SERVING once stopping', async () => {
      const protoLoader = await import('@grpc/proto-loader');
      const { protoPath } = await import('grpc-health-check');
      const pkg = grpc.loadPackageDefinition(
        protoLoader.loadSync(protoPath, { keepCase: true, enums: String }),
      ) as unknown as {
        grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
      };
      const c = new pkg.grpc.health.v1.Health(
        face.address,
        grpc.credentials.createInsecure(),
      ) as unknown as grpc.Client & {
        Check(req: object, cb: (err: grpc.ServiceError | null, res: { status: string }) => void): void;
      };
      const check = (service: string) =>
        new Promise<string>((resolve, reject) =>
          c.Check({ service }, (err, res) => (err ? reject(err) : resolve(res.status))),
        );
      expect(await check('')).to.equal('SERVING');
      expect(await check('svc.sequencer.v1.SequencerService')).to.equal('SERVING');
      face.stopAccepting();
      expect(await check('svc.sequencer.v1.SequencerService')).to.equal('NOT_SERVING');
      c.close();
    });
  });
});
