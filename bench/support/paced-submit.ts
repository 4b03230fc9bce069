/**
 * Child process (startChild): evenly paced, open-loop transactions to the SequencerService,
 * as a background load or a trickle: SubmitTransaction (batchSize 1: one transaction per
 * call) or SubmitBatch of batchSize, calls spaced 1000 * batchSize / txPerSecond ms apart
 * on a fixed schedule (not waiting for answers). Says `{ ready }` once connected, runs
 * until `seconds` have passed or it receives `{ stop }`, waits for the answers still out,
 * then reports what was sent and accepted.
 */
import * as grpc from '@grpc/grpc-js';
import { benchTransaction, encodeBatchRequest, encodeSubmitRequest } from './requests.js';
import { parseBatchHashes } from './tick-parse.js';

export interface PacedJob {
  address: string; // gRPC host:port
  txPerSecond: number;
  batchSize: number; // 1: SubmitTransaction; more: SubmitBatch
  seconds?: number; // omitted: until { stop }
  tag: string;
}

export interface PacedResult {
  seconds: number;
  calls: number;
  sent: number;
  accepted: number;
  errors: number;
  firstError: string;
}

const SERVICE = '/svc.sequencer.v1.SequencerService';
const identity = (b: Buffer) => b;

async function run(job: PacedJob): Promise<PacedResult> {
  const client = new grpc.Client(job.address, grpc.credentials.createInsecure(), {
    'grpc.max_send_message_length': -1,
  });
  await new Promise<void>((resolve, reject) =>
    client.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())),
  );
  let stopped = false;
  process.on('message', (msg: { stop?: boolean }) => {
    if (msg.stop) stopped = true;
  });
  process.send!({ ready: true });
  const single = job.batchSize <= 1;
  const method = single ? `${SERVICE}/SubmitTransaction` : `${SERVICE}/SubmitBatch`;
  const size = single ? 1 : job.batchSize;
  const gapMs = (1000 * size) / job.txPerSecond;
  const r: PacedResult = { seconds: 0, calls: 0, sent: 0, accepted: 0, errors: 0, firstError: '' };
  const pending = new Set<Promise<void>>();
  const start = performance.now();
  const end = job.seconds === undefined ? Infinity : start + job.seconds * 1000;
  for (let i = 0; !stopped; i++) {
    const due = start + i * gapMs;
    if (due >= end) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    if (stopped) break;
    const txs = Array.from({ length: size }, () => benchTransaction(job.tag));
    const body = single ? encodeSubmitRequest(txs[0]!) : encodeBatchRequest(txs);
    r.calls++;
    r.sent += size;
    const p = new Promise<void>((resolve) => {
      client.makeUnaryRequest(method, identity, identity, body, (err, res) => {
        if (err || !res) {
          r.errors += size;
          r.firstError ||= err?.message ?? 'no answer';
        } else if (single) r.accepted++;
        else {
          const ok = parseBatchHashes(res).filter((h) => h !== '').length;
          r.accepted += ok;
          r.errors += size - ok;
        }
        resolve();
      });
    });
    pending.add(p);
    void p.then(() => pending.delete(p));
  }
  r.seconds = (performance.now() - start) / 1000;
  await Promise.all(pending);
  client.close();
  return r;
}

process.once('message', (job: PacedJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
  );
});
