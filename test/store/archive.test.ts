/**
 * The archived tick record (spec/1 JSON): exact field names and encodings (byte fields
 * as integer arrays, proof fields as 0x hex), lossless round trip including u64 values
 * above 2^53 and hostile tx_id text, and rejection of corrupt records.
 */
import { expect } from 'chai';
import {
  CorruptRecordError,
  decodeArchiveRecord,
  encodeArchiveRecord,
  encodeArchiveRecordBytes,
  encodeArchiveRecordsBytes,
} from '../../src/store/archive.js';
import type { Tick } from '../../src/core/types.js';
import { makeTick, makeTx } from './fixtures.js';
import { transactionHash } from '../../src/core/tx-hash.js';

describe('store/archive', () => {
  it('writes spec/1 field names with integer-array bytes and 0x hex proofs', () => {
    const tick = makeTick(7, 2, 11);
    const json = JSON.parse(encodeArchiveRecord(tick)) as Record<string, unknown>;
    expect(Object.keys(json)).to.deep.equal([
      'tick_number',
      'vdf_proof',
      'transactions',
      'batch_hash',
      'timestamp',
      'previous_vdf_output',
    ]);
    const p = json.vdf_proof as Record<string, unknown>;
    expect(p.input).to.equal(`0x${Buffer.from(tick.vdfProof.input).toString('hex')}`);
    expect(p.proof).to.match(/^0x0{510}01$/);
    expect(p.iterations).to.equal(20);
    expect(json.batch_hash).to.deep.equal(Array.from(tick.batchHash));
    expect(json.previous_vdf_output).to.deep.equal(Array.from(tick.previousOutput));
    const tx = (json.transactions as Array<Record<string, unknown>>)[0]!;
    expect(Object.keys(tx)).to.deep.equal([
      'tx_id',
      'tx_hash',
      'payload',
      'signature',
      'public_key',
      'nonce',
      'timestamp',
      'sequence_number',
      'ingestion_timestamp',
    ]);
    expect(tx.tx_hash).to.deep.equal(Array.from(tick.transactions[0]!.txHash));
    expect(tx.sequence_number).to.equal(11);
  });

  it('round-trips ticks exactly, u64 values beyond 2^53 included', () => {
    for (const tick of [makeTick(1, 0, 0), makeTick(2, 5, 1), makeTick(3, 3, 6, { trivial: false })]) {
      const text = encodeArchiveRecord(tick);
      const back = decodeArchiveRecord(text);
      expect(back).to.deep.equal(tick);
      expect(decodeArchiveRecord(encodeArchiveRecordBytes(tick))).to.deep.equal(tick);
      expect(JSON.parse(text)).to.be.an('object'); // plain JSON for any reader
      expect(encodeArchiveRecord(back)).to.equal(text);
    }
    const big = makeTick(4, 1, 1);
    big.transactions[0]!.transaction.nonce = 0xffff_ffff_ffff_ffffn;
    big.transactions[0]!.transaction.timestamp = 9_007_199_254_740_993n; // 2^53 + 1
    const back = decodeArchiveRecord(encodeArchiveRecord(big));
    expect(back.transactions[0]!.transaction.nonce).to.equal(0xffff_ffff_ffff_ffffn);
    expect(back.transactions[0]!.transaction.timestamp).to.equal(9_007_199_254_740_993n);
  });

  it('keeps hostile tx_id text intact (quotes, field-like text, unicode)', () => {
    const tick = makeTick(5, 1, 1);
    const tx = makeTx(1, { txId: '"nonce":123456789012345678901,"timestamp":1 \\ \u2028 😀' });
    tick.transactions[0] = { transaction: tx, sequenceNumber: 1, txHash: transactionHash(tx), ingestionTimestamp: 5 };
    const back = decodeArchiveRecord(encodeArchiveRecord(tick));
    expect(back.transactions[0]!.transaction.txId).to.equal(tx.txId);
    expect(back.transactions[0]!.transaction.nonce).to.equal(tx.nonce);
  });

  it('writes byte for byte what plain JSON text building gives (one record or many in one buffer)', () => {
    // The reference: the record built as a string with JSON.stringify and String().
    const arr = (b: Uint8Array): string => `[${Array.from(b).join(',')}]`;
    const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
    const reference = (t: Tick): string =>
      '{"tick_number":' +
      String(t.tickNumber) +
      ',"vdf_proof":{"input":"0x' +
      hex(t.vdfProof.input) +
      '","output":"0x' +
      hex(t.vdfProof.output) +
      '","proof":"0x' +
      hex(t.vdfProof.proof) +
      '","iterations":' +
      String(t.vdfProof.iterations) +
      '},"transactions":[' +
      t.transactions
        .map(
          (o) =>
            '{"tx_id":' +
            JSON.stringify(o.transaction.txId) +
            ',"tx_hash":' +
            arr(o.txHash) +
            ',"payload":' +
            arr(o.transaction.payload) +
            ',"signature":' +
            arr(o.transaction.signature) +
            ',"public_key":' +
            arr(o.transaction.publicKey) +
            ',"nonce":' +
            o.transaction.nonce.toString() +
            ',"timestamp":' +
            o.transaction.timestamp.toString() +
            ',"sequence_number":' +
            String(o.sequenceNumber) +
            ',"ingestion_timestamp":' +
            String(o.ingestionTimestamp) +
            '}',
        )
        .join(',') +
      '],"batch_hash":' +
      arr(t.batchHash) +
      ',"timestamp":' +
      String(t.timestamp) +
      ',"previous_vdf_output":' +
      arr(t.previousOutput) +
      '}';
    const ids = ['a', 'tx-1', '"q"', 'back\\slash', 'tab\there', 'nl\n', '\u007f', 'ü', '😀', '\u2028', ' ', '~}{'];
    const nums = [
      0n,
      1n,
      9n,
      10n,
      99n,
      2n ** 53n - 1n,
      2n ** 53n,
      2n ** 53n + 1n,
      2n ** 64n - 1n,
      1_700_000_000_000_000n,
    ];
    const ticks: Tick[] = [];
    for (let n = 1; n <= 40; n++) {
      const t = makeTick(n, n % 7, n * 10, { trivial: n % 3 !== 0 });
      t.timestamp = [
        0,
        9,
        10,
        1_700_000_000_500_000 + n,
        Number.MAX_SAFE_INTEGER,
        99_999_999,
        100_000_000,
        1_000_000_000_000_005,
      ][n % 8]!;
      t.vdfProof.iterations = [20, 1, 0, 47_326, 1_000_000_007][n % 5]!;
      t.transactions.forEach((o, k) => {
        o.transaction.txId = ids[(n + k) % ids.length]! + (k % 2 ? String(n) : '');
        o.transaction.nonce = nums[(n + k) % nums.length]!;
        o.transaction.timestamp = nums[(n * 3 + k) % nums.length]!;
        o.ingestionTimestamp = [0, 7, 1_700_000_000_123_456, 2 ** 53 - 1][k % 4]!;
        o.sequenceNumber = [1, 10, 99, 100, 123_456_789][(n + k) % 5]!;
      });
      ticks.push(t);
    }
    const dec = new TextDecoder();
    for (const t of ticks) expect(encodeArchiveRecord(t), `tick ${t.tickNumber}`).to.equal(reference(t));
    const many = encodeArchiveRecordsBytes(ticks);
    expect(many.length).to.equal(ticks.length);
    many.forEach((b, i) => expect(dec.decode(b), `tick ${i + 1} in one buffer`).to.equal(reference(ticks[i]!)));
  });

  it('rejects corrupt records', () => {
    const good = encodeArchiveRecord(makeTick(6, 1, 1));
    const bad = [
      '',
      'not json',
      '[]',
      good.replace('"tick_number":6', '"tick_number":-6'),
      good.replace('"batch_hash":[', '"batch_hash":[300,'),
      good.replace('"input":"0x', '"input":"0xzz'),
      good.replace('"nonce":', '"nonce":-'),
      good.replace('"tx_hash":[', '"tx_hash":[1,'),
      good.replace(/"nonce":\d+/, '"nonce":99999999999999999999999'),
    ];
    for (const text of bad) expect(() => decodeArchiveRecord(text), text.slice(0, 40)).to.throw(CorruptRecordError);
  });
});
