/**
 * Hostile protobuf to every method of svc.sequencer.v1.SequencerService on the real node:
 * each malformed request body (docs/api.md "Request decoding") answers INVALID_ARGUMENT,
 * valid unknown fields are skipped, and the node still answers other clients.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { SequencerClient, wireTx, type WireTransaction } from '../support/grpc-client.js';
import { rawCall, rawStream, rawStreamOf, startHostileNode, stillServes, type HostileNode } from './support.js';

const hex = (h: string) => Buffer.from(h.replace(/\s+/g, ''), 'hex');
const UNARY = ['SubmitTransaction', 'SubmitBatch', 'GetStatus', 'GetTransaction', 'GetTick', 'GetChainState'];

/** Bodies that are not valid protobuf for any message, with what is wrong with them. */
const MALFORMED: Array<[string, Buffer]> = [
  ['ff ff ff ff (truncated tag varint)', hex('ffffffff')],
  ['08 ff (truncated varint value)', hex('08ff')],
  ['0a 64 01 (length 100 past the end)', hex('0a6401')],
  ['00 01 (field number 0)', hex('0001')],
  ['0f 00 (wire type 7)', hex('0f00')],
  ['0e 00 (wire type 6)', hex('0e00')],
  ['0b 0c (a group, wire types 3 and 4)', hex('0b0c')],
  ['1b 1c (a group in an unknown field)', hex('1b1c')],
  ['0c (a lone end-group)', hex('0c')],
  ['an 11-byte varint', hex('08 8080808080808080808001')],
  ['a 10-byte varint above 2^64', hex('08 ffffffffffffffffff7f')],
  ['a tag above 2^32 that truncates to field 1', hex('8880808010 01')],
  ['field number 2^29 (above the maximum)', hex('8080808010 01')],
  ['truncated fixed64 in an unknown field', hex('11 0000')],
  ['truncated fixed32 in an unknown field', hex('15 00')],
  ['an unknown length-delimited field past the end', hex('12 0a 0102')],
  ['a length varint above 2^53', hex('12 ffffffffffffffff7f')],
];

describe('hostile: gRPC request decoding (real node)', function () {
  this.timeout(60_000);
  let node: HostileNode;
  let grpcAddr: string;
  before(async () => {
    node = await startHostileNode();
    grpcAddr = node.addresses.grpc!;
  });
  after(async () => node?.stop());

  it('the issue: GetStatus refuses ff ff ff ff, 08 ff and 0a 64 01', async () => {
    for (const body of ['ffffffff', '08ff', '0a6401']) {
      const r = await rawCall(grpcAddr, 'GetStatus', hex(body));
      expect(r.code, `${body}: ${r.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
    }
  });

  it('the issue: GetChainState and StreamTicks refuse field number 0 (00 01) and wire type 7 (0f 00)', async () => {
    for (const body of ['0001', '0f00']) {
      const r = await rawCall(grpcAddr, 'GetChainState', hex(body));
      expect(r.code, `GetChainState ${body}: ${r.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
      const s = await rawStream(grpcAddr, 'StreamTicks', hex(body));
      expect(s.code, `StreamTicks ${body}: ${s.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(s.messages).to.equal(0);
    }
  });

  it('the issue: GetTick refuses a SubmitBatch body (field 1 as a message where a uint64 belongs)', async () => {
    // transactions { payload: "" }, and transactions { tx_id: "tx-1", payload: 01 02 }
    for (const body of ['0a 02 12 00', '0a 0a 0a 04 74782d31 12 02 0102']) {
      const r = await rawCall(grpcAddr, 'GetTick', hex(body));
      expect(r.code, `${body}: ${r.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(r.details).to.match(/wire type/);
    }
  });

  for (const [what, body] of MALFORMED) {
    it(`every method refuses ${what} with INVALID_ARGUMENT`, async () => {
      for (const method of UNARY) {
        const r = await rawCall(grpcAddr, method, body);
        expect(r.code, `${method}: ${r.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
        expect(r.details, method).to.match(/malformed/);
      }
      const s = await rawStream(grpcAddr, 'StreamTicks', body);
      expect(s.code, `StreamTicks: ${s.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
    });
  }

  it('svc.chain.v1.ChainService: SubmitTx and StreamTx refuse the same families with INVALID_ARGUMENT', async () => {
    const chain = 'svc.chain.v1.ChainService';
    const extra: Array<[string, Buffer]> = [
      ['order as a varint (wrong wire type)', hex('08 01')],
      ['order { intent: varint }', hex('0a 02 08 01')],
      ['market { name: invalid UTF-8 }', hex('1a 04 1a 02 c328')],
      ['order { intent: length past the embedded end }', hex('0a 03 0a 05 61')],
    ];
    for (const [what, body] of [...MALFORMED, ...extra]) {
      const r = await rawCall(grpcAddr, 'SubmitTx', body, chain);
      expect(r.code, `SubmitTx ${what}: ${r.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(r.details, what).to.match(/malformed/);
    }
    for (const [what, body] of [...MALFORMED, ['from_sequence as bytes', hex('0a 00')] as [string, Buffer]]) {
      const r = await rawStreamOf(grpcAddr, `/${chain}/StreamTx`, body);
      expect(r.code, `StreamTx ${what}: ${r.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
    }
  });

  it('a known field with the wrong wire type is refused for each request message', async () => {
    const cases: Array<[string, string]> = [
      ['GetTick', '0a 01 05'], // tick_number as bytes
      ['GetTick', '0d 01000000'], // tick_number as fixed32
      ['GetTransaction', '08 01'], // tx_hash as varint
      ['GetChainState', '0a 00'], // tick_limit as bytes
      ['GetChainState', '09 0000000000000000'], // tick_limit as fixed64
      ['SubmitTransaction', '08 01'], // transaction as varint
      ['SubmitBatch', '08 01'], // transactions as varint
      ['SubmitTransaction', '0a 02 28 ff'], // transaction { nonce: truncated }
      ['SubmitTransaction', '0a 02 2a 00'], // transaction { nonce as bytes }
      ['SubmitBatch', '0a 03 0a 05 61'], // transactions { tx_id: length past the embedded end }
    ];
    for (const [method, body] of cases) {
      const r = await rawCall(grpcAddr, method, hex(body));
      expect(r.code, `${method} ${body}: ${r.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
    }
    const s = await rawStream(grpcAddr, 'StreamTicks', hex('0a 01 01'));
    expect(s.code, s.details).to.equal(grpc.status.INVALID_ARGUMENT);
  });

  it('invalid UTF-8 in a string field, and numbers out of range, are refused', async () => {
    expect((await rawCall(grpcAddr, 'GetTransaction', hex('0a 08 c328 6161616161 61'))).code).to.equal(
      grpc.status.INVALID_ARGUMENT,
    );
    expect((await rawCall(grpcAddr, 'GetChainState', hex('08 8080808010'))).code).to.equal(
      grpc.status.INVALID_ARGUMENT,
    ); // tick_limit 2^32
    expect((await rawCall(grpcAddr, 'GetChainState', hex('08 65'))).code).to.equal(grpc.status.INVALID_ARGUMENT); // 101 > 100
    expect((await rawCall(grpcAddr, 'GetTick', hex('08 ffffffffffffffffff01'))).code).to.equal(
      grpc.status.INVALID_ARGUMENT,
    ); // 2^64 - 1
    expect((await rawCall(grpcAddr, 'GetTick', hex('08 00'))).code).to.equal(grpc.status.INVALID_ARGUMENT); // tick 0
  });

  it('unknown fields with a valid encoding are skipped (forward compatibility); the last of a repeated scalar wins', async () => {
    const unknown = hex('10 05  1a 03 616263  25 01020304  29 0102030405060708  f8ffffff0f 01');
    const status = await rawCall(grpcAddr, 'GetStatus', unknown);
    expect(status.code, status.details).to.equal(grpc.status.OK);
    const chain = await rawCall(grpcAddr, 'GetChainState', Buffer.concat([hex('08 01'), unknown, hex('08 02')]));
    expect(chain.code, chain.details).to.equal(grpc.status.OK);
    expect(chain.response!.length).to.be.greaterThan(0);
    const tick = await rawCall(grpcAddr, 'GetTick', Buffer.concat([hex('08 00'), unknown, hex('08 01')])); // tick 0, then tick 1
    expect(tick.code, tick.details).to.equal(grpc.status.OK);
    expect((await rawCall(grpcAddr, 'GetStatus', Buffer.alloc(0))).code).to.equal(grpc.status.OK);
    const s = await rawStream(grpcAddr, 'StreamTicks', Buffer.concat([hex('08 01'), unknown]));
    expect(s.code, s.details).to.equal(grpc.status.OK);
    expect(s.messages).to.equal(1);
  });

  it('submissions with oversized, unicode, empty and invalid fields: INVALID_ARGUMENT, the rest of a batch goes on', async () => {
    const client = new SequencerClient(grpcAddr);
    try {
      const bad: Array<[string, Partial<WireTransaction>]> = [
        ['tx_id of 129 bytes made of 43 three-byte characters', { tx_id: '€'.repeat(43) }],
        ['empty tx_id', { tx_id: '' }],
        ['payload of 65,537 bytes', { payload: Buffer.alloc(65_537) }],
        ['signature of 257 bytes', { signature: Buffer.alloc(257) }],
        ['public_key of 257 bytes', { public_key: Buffer.alloc(257) }],
      ];
      for (const [what, over] of bad) {
        const err = await client.submit({ ...wireTx(), ...over }).then(
          () => undefined,
          (e: grpc.ServiceError) => e,
        );
        expect(err?.code, what).to.equal(grpc.status.INVALID_ARGUMENT);
      }
      const ok = await client.submit({ ...wireTx(), tx_id: '€'.repeat(42), nonce: '18446744073709551615' }); // 126 bytes: fine
      expect(Number(ok.sequence_number)).to.be.greaterThan(0);
      const batch = await client.callWithTrailers<{ responses: Array<{ sequence_number: string }> }>('SubmitBatch', {
        transactions: [wireTx(), { ...wireTx(), payload: Buffer.alloc(65_537) }, wireTx()],
      });
      expect(batch.response.responses.map((r) => r.sequence_number === '0')).to.deep.equal([false, true, false]);
      expect(batch.trailers.get('svc-failed-items')).to.deep.equal(['1']);
      // invalid UTF-8 in tx_id: transaction { tx_id: c3 28 }
      expect((await rawCall(grpcAddr, 'SubmitTransaction', hex('0a 04 0a 02 c328'))).code).to.equal(
        grpc.status.INVALID_ARGUMENT,
      );
      expect((await rawCall(grpcAddr, 'SubmitBatch', Buffer.alloc(0))).code).to.equal(grpc.status.INVALID_ARGUMENT); // empty batch
      const tooMany = Buffer.concat(Array.from({ length: 10_001 }, () => hex('0a 03 0a 01 61')));
      const r = await rawCall(grpcAddr, 'SubmitBatch', tooMany);
      expect(r.code).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(r.details).to.match(/more than 10000/);
    } finally {
      client.close();
    }
  });

  it('a request above 8 MiB answers RESOURCE_EXHAUSTED; the node answers everyone afterwards', async () => {
    const r = await rawCall(grpcAddr, 'SubmitBatch', Buffer.alloc(9 * 1024 * 1024));
    expect(r.code).to.equal(grpc.status.RESOURCE_EXHAUSTED);
    await stillServes(node);
  });

  it('after all of the above, every face still answers within the bound', async () => {
    await stillServes(node);
  });
});
