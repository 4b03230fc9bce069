/**
 * The strict request decoders (src/sequencer/api/grpc/requests.ts) read exactly what protobufjs writes
 * for every request message, including edge values and unknown fields, and refuse the
 * malformed families of docs/api.md "Request decoding" without throwing. (The same bodies go
 * to the real node in test/hostile/grpc.test.ts.)
 */
import { expect } from 'chai';
import protobuf from 'protobufjs';
import { join } from 'node:path';
import { SEQUENCER_PROTO } from '../../../src/sequencer/api/client/index.js';
import { PROTO_DIR } from '../../../src/wire/index.js';
import {
  decodeGetChainStateRequest,
  decodeGetStatusRequest,
  decodeGetTickRequest,
  decodeGetTransactionRequest,
  decodeStreamTicksRequest,
  isMalformed,
} from '../../../src/sequencer/api/grpc/requests.js';

const root = new protobuf.Root().loadSync(join(PROTO_DIR, SEQUENCER_PROTO), { keepCase: true });
const encode = (type: string, value: object) => {
  const T = root.lookupType(`svc.sequencer.v1.${type}`);
  return T.encode(T.fromObject(value)).finish();
};
const hex = (h: string) => Buffer.from(h.replace(/\s+/g, ''), 'hex');

describe('strict request decoders vs protobufjs', () => {
  it('uint64 fields: 0 (absent), 1, 2^53 - 1, 2^63, 2^64 - 1', () => {
    for (const v of ['0', '1', '9007199254740991', '9223372036854775808', '18446744073709551615']) {
      expect(decodeGetTickRequest(encode('GetTickRequest', { tick_number: v }))).to.deep.equal({
        tickNumber: BigInt(v),
      });
      expect(decodeStreamTicksRequest(encode('StreamTicksRequest', { start_tick: v }))).to.deep.equal({
        startTick: BigInt(v),
      });
    }
  });

  it('uint32 tick_limit and string tx_hash, unicode included', () => {
    for (const v of [0, 1, 100, 4294967295])
      expect(decodeGetChainStateRequest(encode('GetChainStateRequest', { tick_limit: v }))).to.deep.equal({
        tickLimit: v,
      });
    for (const v of ['', 'deadbeef', 'ünï€😀'])
      expect(decodeGetTransactionRequest(encode('GetTransactionRequest', { tx_hash: v }))).to.deep.equal({ txHash: v });
    expect(decodeGetStatusRequest(encode('GetStatusRequest', {}))).to.deep.equal({});
  });

  it('non-minimal varints are valid protobuf and read as their value', () => {
    expect(decodeGetTickRequest(hex('08 8100'))).to.deep.equal({ tickNumber: 1n });
    expect(decodeGetTickRequest(hex('08 81808080808080808000'))).to.deep.equal({ tickNumber: 1n }); // 10 bytes
  });

  it('refuses the malformed families, naming the message and the problem', () => {
    const cases: Array<[string, RegExp]> = [
      ['ffffffff', /truncated varint/],
      ['08ff', /truncated varint/],
      ['126401', /runs past the end/],
      ['0001', /field number 0/],
      ['0f00', /undefined wire type 7/],
      ['0b', /group/],
      ['08 8080808080808080808001', /longer than 10 bytes/],
      ['08 ffffffffffffffffff02', /above 2\^64/],
      ['8880808010 01', /tag above 2\^32/],
      ['11 0000', /truncated fixed-width/],
      ['0a 00', /field tick_number has wire type 2, expected 0/],
    ];
    for (const [body, why] of cases) {
      const d = decodeGetTickRequest(hex(body));
      expect(isMalformed(d), body).to.equal(true);
      expect((d as { malformed: string }).malformed, body)
        .to.match(/^malformed GetTickRequest: /)
        .and.match(why);
    }
    expect(decodeGetTransactionRequest(hex('0a 02 c328'))).to.deep.equal({
      malformed: 'malformed GetTransactionRequest: tx_hash is not valid UTF-8',
    });
    expect(isMalformed(decodeGetChainStateRequest(hex('08 8080808010')))).to.equal(true);
  });
});
