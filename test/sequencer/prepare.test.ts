/**
 * Intake's pure half (src/sequencer/prepare.ts): every stored form it writes equals what
 * the format's own encoder writes (tx-record body, archive record, replay key, full hash),
 * invalid items are named without stopping the rest, and a batch survives the move to
 * another thread (a real worker_threads transfer).
 */
import { expect } from 'chai';
import { Worker } from 'node:worker_threads';
import { transactionHash } from '../../src/core/tx-hash.js';
import { TX_BODY_HEADER, writeTxBody } from '../../src/core/tx-record.js';
import type { Transaction } from '../../src/core/types.js';
import { LAYOUT_STRIDE, PreparedReader, prepareTransactions, type PreparedBatch } from '../../src/sequencer/prepare.js';
import { replayKeysOf, type ReplayKeys } from '../../src/sequencer/replay.js';
import { makeTx } from '../store/fixtures.js';

const enc = new TextEncoder();

function referenceBody(tx: Transaction): Uint8Array {
  const id = enc.encode(tx.txId);
  const out = new Uint8Array(
    TX_BODY_HEADER + id.length + tx.payload.length + tx.signature.length + tx.publicKey.length,
  );
  writeTxBody(out, new DataView(out.buffer), 0, tx, id, transactionHash(tx));
  return out;
}

describe('sequencer/prepare', () => {
  const txs: Transaction[] = [
    makeTx(1),
    makeTx(2, { txId: 'ü-😀-"quoted"\\', publicKey: new Uint8Array(0) }),
    makeTx(3, {
      payload: new Uint8Array(0),
      signature: new Uint8Array(0),
      nonce: 2n ** 64n - 1n,
      timestamp: 2n ** 53n + 1n,
    }),
  ];

  it('writes the body, full hash, replay keys and archive prefix the formats define', () => {
    const batch = prepareTransactions(txs);
    expect(batch.count).to.equal(3);
    expect(batch.errors).to.deep.equal([]);
    const reader = new PreparedReader(batch);
    txs.forEach((tx, i) => {
      expect(reader.error(i)).to.equal(undefined);
      const p = reader.item(i);
      expect(p.tx).to.deep.equal({
        ...tx,
        payload: new Uint8Array(tx.payload),
        signature: new Uint8Array(tx.signature),
        publicKey: new Uint8Array(tx.publicKey),
      });
      expect(Buffer.from(p.fullHash).equals(Buffer.from(transactionHash(tx)))).to.equal(true);
      expect(Buffer.from(p.body).equals(Buffer.from(referenceBody(tx)))).to.equal(true);
      expect(replayKeys(p)).to.deep.equal(replayKeys(replayKeysOf(tx, transactionHash(tx))));
    });
  });

  it('names invalid items in place and prepares the others', () => {
    const batch = prepareTransactions([makeTx(1), { txId: '' }, null, makeTx(4, { nonce: -1n }), makeTx(5)]);
    const reader = new PreparedReader(batch);
    expect(batch.errors.map((e) => e.index)).to.deep.equal([1, 2, 3]);
    expect(reader.error(1)).to.match(/tx_id/);
    expect(reader.error(2)).to.match(/missing/);
    expect(reader.error(3)).to.match(/nonce/);
    expect(reader.item(0).tx.txId).to.equal(makeTx(1).txId);
    expect(reader.item(4).tx.txId).to.equal(makeTx(5).txId);
    expect(batch.layout.length).to.equal(5 * LAYOUT_STRIDE);
  });

  it('an empty request prepares to an empty batch', () => {
    const batch = prepareTransactions([]);
    expect(batch.count).to.equal(0);
    expect(batch.bytes.length).to.equal(0);
  });

  it('a batch moved to another thread and back reads the same', async () => {
    const batch = prepareTransactions(txs);
    const before = new PreparedReader(batch).item(1);
    const copy = { ...batch, bytes: batch.bytes.slice(), layout: batch.layout.slice() };
    const worker = new Worker(
      'const { parentPort } = require("node:worker_threads"); parentPort.once("message", (m) => parentPort.postMessage(m, [m.bytes.buffer, m.layout.buffer]));',
      { eval: true },
    );
    const back = await new Promise<PreparedBatch>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage(copy, [copy.bytes.buffer, copy.layout.buffer]);
    });
    await worker.terminate();
    expect(copy.bytes.byteLength).to.equal(0); // moved, not copied
    const after = new PreparedReader(back).item(1);
    expect(after.tx.txId).to.equal(before.tx.txId);
    expect(replayKeys(after)).to.deep.equal(replayKeys(before));
    expect(Buffer.from(after.body).equals(Buffer.from(before.body))).to.equal(true);
  });
});

/** A transaction's replay keys, wherever their bytes sit: the bytes and the fingerprints. */
function replayKeys(k: ReplayKeys): object {
  const hex = (a: number, b: number): string => Buffer.from(k.keyBytes.subarray(a, b)).toString('hex');
  return {
    id: hex(k.idAt, k.idEnd),
    pkNonce: hex(k.pkNonceAt, k.pkNonceEnd),
    prints: [k.idPrintLo, k.idPrintHi, k.pkNoncePrintLo, k.pkNoncePrintHi],
  };
}
