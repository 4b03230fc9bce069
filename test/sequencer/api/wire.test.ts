/**
 * The hand-written protobuf codec against protobufjs reading the same .proto: every
 * encoder's output must decode to the same values, every decoder must read what
 * protobufjs writes, and malformed bytes must come back as `malformed`, never a throw.
 */
import { expect } from 'chai';
import protobuf from 'protobufjs';
import { join } from 'node:path';
import { SEQUENCER_PROTO } from '../../../src/sequencer/api/client/index.js';
import { PROTO_DIR } from '../../../src/wire/index.js';
import {
  decodeSubmitBatchRequest,
  decodeSubmitTransactionRequest,
  isMalformed,
} from '../../../src/sequencer/api/grpc/requests.js';
import {
  encodeGetChainStateResponse,
  encodeGetStatusResponse,
  encodeGetTickResponse,
  encodeGetTransactionResponse,
  encodeSubmitBatchResponse,
  encodeTick,
} from '../../../src/sequencer/api/grpc/encode.js';
import { FakeSequencer } from '../../support/fake-sequencer.js';

const root = new protobuf.Root().loadSync(join(PROTO_DIR, SEQUENCER_PROTO), { keepCase: true });
const T = (name: string) => root.lookupType(`svc.sequencer.v1.${name}`);
const asObject = (type: string, buf: Uint8Array) =>
  T(type).toObject(T(type).decode(buf), { longs: String, bytes: Buffer, defaults: true }) as Record<string, unknown>;

function sampleTx(i: number, nonce = BigInt(i)) {
  return {
    txId: `id-${i}-é`,
    payload: new Uint8Array(200).fill(i & 0xff),
    signature: new Uint8Array(64).fill(1),
    publicKey: new Uint8Array(32).fill(2),
    nonce,
    timestamp: 1_700_000_000_000_000n + BigInt(i),
  };
}

describe('wire codec (hand-written protobuf) vs protobufjs', () => {
  it('decodes SubmitBatchRequest exactly as written by protobufjs, u64 up to 2^64-1', () => {
    const txs = [sampleTx(1), sampleTx(2, 0xffff_ffff_ffff_ffffn), sampleTx(3, 2n ** 53n + 1n)];
    const type = T('SubmitBatchRequest');
    const bytes = type
      .encode(
        type.fromObject({
          transactions: txs.map((t) => ({
            tx_id: t.txId,
            payload: t.payload,
            signature: t.signature,
            public_key: t.publicKey,
            nonce: t.nonce.toString(),
            timestamp: t.timestamp.toString(),
          })),
        }),
      )
      .finish();
    const decoded = decodeSubmitBatchRequest(bytes, 10);
    if (isMalformed(decoded)) throw new Error(decoded.malformed);
    expect(decoded.transactions).to.have.length(3);
    decoded.transactions.forEach((got, i) => {
      const want = txs[i]!;
      expect(got.txId).to.equal(want.txId);
      expect(Buffer.from(got.payload).equals(Buffer.from(want.payload))).to.equal(true);
      expect(Buffer.from(got.signature).equals(Buffer.from(want.signature))).to.equal(true);
      expect(Buffer.from(got.publicKey).equals(Buffer.from(want.publicKey))).to.equal(true);
      expect(got.nonce).to.equal(want.nonce);
      expect(got.timestamp).to.equal(want.timestamp);
    });
  });

  it('refuses more than the batch limit while decoding', () => {
    const bytes = T('SubmitBatchRequest')
      .encode({ transactions: [1, 2, 3].map((i) => ({ tx_id: `t${i}` })) })
      .finish();
    const decoded = decodeSubmitBatchRequest(bytes, 2);
    expect(isMalformed(decoded) && decoded.malformed).to.match(/more than 2 transactions/);
  });

  it('skips unknown fields and reports an absent transaction', () => {
    // field 15 varint, then nothing else: no transaction
    const decoded = decodeSubmitTransactionRequest(Uint8Array.from([0x78, 0x05]));
    expect(decoded).to.deep.equal({});
  });

  const malformedCases: Array<[string, number[]]> = [
    ['truncated varint', [0x0a, 0x80]],
    ['length past the end', [0x0a, 0x10, 0x01]],
    ['wrong wire type for the transaction', [0x08, 0x01]],
    ['invalid UTF-8 in tx_id', [0x0a, 0x04, 0x0a, 0x02, 0xc3, 0x28]],
    ['wrong wire type for nonce', [0x0a, 0x03, 0x2a, 0x01, 0x00]],
    ['group wire type', [0x0b]],
    ['field number 0', [0x00, 0x01]],
  ];
  for (const [name, bytes] of malformedCases) {
    it(`returns malformed for ${name}`, () => {
      const decoded = decodeSubmitTransactionRequest(Uint8Array.from(bytes));
      expect(isMalformed(decoded), JSON.stringify(decoded)).to.equal(true);
      expect(isMalformed(decodeSubmitBatchRequest(Uint8Array.from(bytes), 10))).to.equal(true);
    });
  }

  it('encodes a Tick that protobufjs decodes field for field', async () => {
    const fake = new FakeSequencer();
    for (let i = 0; i < 3; i++) await fake.submit(sampleTx(i, 2n ** 63n + BigInt(i)));
    const tick = fake.closeTick();
    const obj = asObject('Tick', encodeTick(tick));
    expect(obj.tick_number).to.equal('1');
    expect(obj.timestamp).to.equal(String(tick.timestamp));
    expect(obj.transaction_batch_hash).to.equal(Buffer.from(tick.batchHash).toString('hex'));
    expect(obj.previous_output).to.equal(Buffer.from(tick.previousOutput).toString('hex'));
    expect(obj.vdf_proof).to.deep.equal({
      input: Buffer.from(tick.vdfProof.input).toString('hex'),
      output: Buffer.from(tick.vdfProof.output).toString('hex'),
      proof: Buffer.from(tick.vdfProof.proof).toString('hex'),
      iterations: String(tick.vdfProof.iterations),
    });
    const txs = obj.transactions as Array<Record<string, unknown>>;
    expect(txs).to.have.length(3);
    txs.forEach((o, i) => {
      const want = tick.transactions[i]!;
      expect(o.sequence_number).to.equal(String(want.sequenceNumber));
      expect(o.tx_hash).to.equal(Buffer.from(want.txHash.subarray(0, 4)).toString('hex'));
      expect(o.ingestion_timestamp).to.equal(String(want.ingestionTimestamp));
      const t = o.transaction as Record<string, unknown>;
      expect(t.tx_id).to.equal(want.transaction.txId);
      expect(t.nonce).to.equal(want.transaction.nonce.toString());
      expect((t.payload as Buffer).equals(Buffer.from(want.transaction.payload))).to.equal(true);
    });
  });

  it('gives each encoded Tick bytes of its own (the encoder reuses its scratch space)', async () => {
    const fake = new FakeSequencer();
    await fake.submit(sampleTx(1));
    const first = fake.closeTick();
    await fake.submit({ ...sampleTx(2), payload: new Uint8Array(9_000).fill(7) });
    const second = fake.closeTick();
    const a = encodeTick(first);
    const copy = Buffer.from(a);
    const b = encodeTick(second);
    expect(a.equals(copy), 'the first encoding is unchanged by the second').to.equal(true);
    expect(a.buffer === b.buffer && a.byteOffset === b.byteOffset).to.equal(false);
    expect(asObject('Tick', b).tick_number).to.equal('2');
    expect(encodeTick(first).equals(copy), 'the same tick encodes to the same bytes').to.equal(true);
  });

  it('encodes a Tick larger than 2 MiB (nested length needs 4 bytes)', async () => {
    const fake = new FakeSequencer({ queueCapacity: 100 });
    for (let i = 0; i < 40; i++) await fake.submit({ ...sampleTx(i), payload: new Uint8Array(60_000).fill(i) });
    const tick = fake.closeTick();
    const encoded = encodeTick(tick);
    expect(encoded.length).to.be.greaterThan(2_000_000);
    const obj = asObject('GetTickResponse', encodeGetTickResponse(encoded));
    expect(obj.found).to.equal(true);
    const txs = (obj.tick as Record<string, unknown>).transactions as Array<Record<string, Record<string, Buffer>>>;
    expect(txs).to.have.length(40);
    expect(txs[39]!.transaction!.payload![0]).to.equal(39);
  });

  it('encodes batch, status, transaction and chain-state responses', async () => {
    const batch = asObject(
      'SubmitBatchResponse',
      encodeSubmitBatchResponse([{ sequenceNumber: 5, expectedTick: 2, txHash: 'deadbeef' }, undefined]),
    );
    expect(batch.responses).to.deep.equal([
      { sequence_number: '5', expected_tick: '2', tx_hash: 'deadbeef' },
      { sequence_number: '0', expected_tick: '0', tx_hash: '' },
    ]);
    const status = asObject(
      'GetStatusResponse',
      encodeGetStatusResponse({
        currentTick: 7,
        totalTransactions: 9,
        pendingTransactions: 1,
        uptimeSeconds: 3.7,
        transactionsPerSecond: 12.5,
      }),
    );
    expect(status).to.deep.equal({
      current_tick: '7',
      total_transactions: '9',
      pending_transactions: '1',
      uptime_seconds: '3',
      transactions_per_second: 12.5,
    });
    const fake = new FakeSequencer();
    await fake.submit(sampleTx(9));
    const tick = fake.closeTick();
    const tx = asObject(
      'GetTransactionResponse',
      encodeGetTransactionResponse({ tickNumber: 1, transaction: tick.transactions[0]! }),
    );
    expect(tx.found).to.equal(true);
    expect(tx.tick_number).to.equal('1');
    expect(asObject('GetTransactionResponse', encodeGetTransactionResponse(undefined)).found).to.equal(false);
    const cs = asObject(
      'GetChainStateResponse',
      encodeGetChainStateResponse({
        chainHeight: 1,
        totalTransactions: 1,
        recentTicks: [encodeTick(tick)],
        txToTickSample: [['abcdef01', 1]],
      }),
    );
    expect(cs.chain_height).to.equal('1');
    expect((cs.recent_ticks as unknown[]).length).to.equal(1);
    expect(cs.tx_to_tick_sample).to.deep.equal({ abcdef01: '1' });
  });
});
