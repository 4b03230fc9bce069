/**
 * SubmitBatch through the intake threads (`--intake-threads 2`, issue 8 point 2) on the
 * real node: requests decoded, checked and hashed on workers keep every answer of the
 * main-thread path (item errors in place, malformed and empty requests refused,
 * duplicates idempotent), each batch is admitted as one run of sequence numbers, and
 * every acknowledged transaction is ticked with the hash it was answered with.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { SequencerClient, rawUnary, wireTx, type WireSubmitResponse } from '../../support/grpc-client.js';
import { spawnNode, type NodeProcess } from '../../support/node-process.js';
import { tempDirs } from '../../support/temp-dirs.js';
import { until } from '../../support/until.js';
import protobuf from 'protobufjs';
import { join } from 'node:path';
import { SEQUENCER_PROTO } from '../../../src/sequencer/api/client/index.js';
import { PROTO_DIR } from '../../../src/wire/index.js';
import { IntakeThreads, MAX_INTAKE_BYTES } from '../../../src/sequencer/api/grpc/intake.js';
import { SubmitError } from '../../../src/sequencer/interface.js';

async function statusOf(p: Promise<unknown>): Promise<{ code: grpc.status; details: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as grpc.ServiceError;
    return { code: e.code, details: e.details };
  }
  return { code: grpc.status.OK, details: '' };
}

describe('gRPC SubmitBatch through intake threads (real node)', function () {
  this.timeout(60_000);
  const dirs = tempDirs('svc-intake-');
  let node: NodeProcess;
  let client: SequencerClient;

  before(async () => {
    node = await spawnNode(dirs.make(), ['--intake-threads', '2', '--idle-tick-ms', '20']);
    client = new SequencerClient(node.addresses.grpc!);
  });
  after(async () => {
    client?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    dirs.removeAll();
  });

  it('keeps failed items in place and names them in the trailers', async () => {
    const txs = [
      wireTx(),
      { ...wireTx(), tx_id: '' },
      wireTx(),
      { ...wireTx(), payload: Buffer.alloc(70_000) },
      wireTx(),
    ];
    const { response, trailers } = await client.callWithTrailers<{ responses: WireSubmitResponse[] }>('SubmitBatch', {
      transactions: txs,
    });
    const seqs = response.responses.map((r) => Number(r.sequence_number));
    expect(seqs[1]).to.equal(0);
    expect(seqs[3]).to.equal(0);
    expect([seqs[2]! - seqs[0]!, seqs[4]! - seqs[2]!]).to.deep.equal([1, 1]);
    expect(response.responses[1]!.tx_hash).to.equal('');
    const errors = JSON.parse(String(trailers.get('svc-item-errors')[0])) as Array<{
      index: number;
      code: string;
      message: string;
    }>;
    expect(errors.map((e) => [e.index, e.code])).to.deep.equal([
      [1, 'INVALID_ARGUMENT'],
      [3, 'INVALID_ARGUMENT'],
    ]);
    expect(errors[1]!.message).to.match(/payload/);
  });

  it('refuses malformed bytes, an empty batch and one over the limit as a whole', async () => {
    for (const bytes of [[0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f], [0x0a, 0x05, 0x0a], [0x0f]]) {
      const s = await statusOf(rawUnary(node.addresses.grpc!, 'SubmitBatch', Buffer.from(bytes)));
      expect(s.code).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(s.details).to.match(/malformed/);
    }
    expect((await statusOf(client.submitBatch([]))).details).to.match(/empty/);
    const many = Array.from({ length: 10_001 }, (_, i) => ({
      tx_id: `m${i}`,
      payload: Buffer.alloc(0),
      signature: Buffer.alloc(0),
      public_key: Buffer.alloc(0),
      nonce: '0',
      timestamp: '0',
    }));
    const over = await statusOf(client.submitBatch(many));
    expect(over.code).to.equal(grpc.status.INVALID_ARGUMENT);
    expect(over.details).to.match(/more than 10000/);
  });

  it('admits concurrent batches each as one run, loses none, ticks all with their hashes; a resubmission is idempotent', async () => {
    const sizes = [2000, 1, 500, 3, 1500, 1, 1, 800, 2, 1000, 7, 1200];
    const batches = sizes.map((n, b) => Array.from({ length: n }, () => wireTx(120, `intake-${b}`)));
    const answers = await Promise.all(batches.map((txs) => client.submitBatch(txs)));
    const all: number[] = [];
    answers.forEach(({ responses }, b) => {
      const seqs = responses.map((r) => Number(r.sequence_number));
      expect(
        seqs.every((s) => s > 0),
        `batch ${b}`,
      ).to.equal(true);
      for (let i = 1; i < seqs.length; i++) expect(seqs[i]! - seqs[i - 1]!, `batch ${b} item ${i}`).to.equal(1);
      all.push(...seqs);
    });
    const sorted = [...all].sort((a, b) => a - b);
    expect(new Set(all).size).to.equal(all.length);
    expect(sorted[sorted.length - 1]! - sorted[0]! + 1).to.equal(all.length); // no hole: nothing else was submitted meanwhile

    const again = await client.submitBatch(batches[4]!);
    expect(again.responses).to.deep.equal(answers[4]!.responses);

    // Every answered hash is found in a stored tick under the answered sequence number.
    await until('the last transaction ticked', async () => {
      const s = await client.call<{ total_transactions: string }>('GetStatus', {});
      return Number(s.total_transactions) >= sorted[sorted.length - 1]! ? true : undefined;
    });
    // They went through the intake threads, not the main thread.
    const metrics = await (await fetch(`http://${node.addresses.rest}/metrics`)).text();
    expect(Number(/svc_submit_batch_requests_total\{intake="thread"\} (\d+)/.exec(metrics)?.[1])).to.be.at.least(
      sizes.length + 1,
    );
    expect(metrics).not.to.match(/svc_submit_batch_requests_total\{intake="main"\}/);
    for (const b of [0, 1, 5, 11]) {
      const r = answers[b]!.responses[answers[b]!.responses.length - 1]!;
      const found = await client.call<{ found: boolean; transaction: { sequence_number: string; tx_hash: string } }>(
        'GetTransaction',
        { tx_hash: r.tx_hash },
      );
      expect(found.found).to.equal(true);
      expect(found.transaction.sequence_number).to.equal(r.sequence_number);
    }
  });
});

describe('intake threads: the byte budget', function () {
  this.timeout(60_000);
  it('refuses a request with RESOURCE_EXHAUSTED while MAX_INTAKE_BYTES of requests are being prepared, and takes it again after', async () => {
    const root = new protobuf.Root().loadSync(join(PROTO_DIR, SEQUENCER_PROTO), { keepCase: true });
    const type = root.lookupType('svc.sequencer.v1.SubmitBatchRequest');
    const payload = Buffer.alloc(700, 1);
    const big = type
      .encode({
        transactions: Array.from({ length: 10_000 }, (_, i) => ({
          tx_id: `budget-${i}`,
          payload,
          nonce: String(i),
          timestamp: '1',
        })),
      })
      .finish();
    const fit = Math.floor(MAX_INTAKE_BYTES / big.length);
    const intake = new IntakeThreads(1);
    try {
      const all = await Promise.allSettled(Array.from({ length: fit + 1 }, () => intake.prepareSubmitBatch(big)));
      expect(all.slice(0, fit).every((r) => r.status === 'fulfilled')).to.equal(true);
      const last = all[fit]!;
      expect(last.status).to.equal('rejected');
      const err = (last as PromiseRejectedResult).reason as SubmitError;
      expect(err).to.be.instanceOf(SubmitError);
      expect(err.code).to.equal('RESOURCE_EXHAUSTED');
      expect(err.message).to.match(/MiB of requests are already being prepared/);
      const again = await intake.prepareSubmitBatch(big); // the budget was given back
      expect(again.count).to.equal(10_000);
    } finally {
      await intake.close();
    }
  });
});
