/**
 * Child process: submits transactions at a fixed rate (SubmitBatch, small batches every
 * few ms) while streaming ticks, and measures for each transaction the time from sending
 * its batch until the tick that carries it arrives on StreamTicks (same process clock).
 */
import * as grpc from '@grpc/grpc-js';
import { batchRequests } from './requests.js';
import { parseBatchHashes, parseTickHashes } from './tick-parse.js';
import { percentile } from './stats.js';

export interface LatencyJob {
  address: string;
  rate: number; // tx/s
  seconds: number;
}

export interface LatencyResult {
  rate: number;
  sent: number;
  accepted: number;
  measured: number;
  achievedRate: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  ackP50Ms: number; // submit -> SubmitBatch answer (durable), per batch
  ackP99Ms: number;
}

const SERVICE = '/svc.sequencer.v1.SequencerService';
const identity = (b: Buffer) => b;
const STEP_MS = 5;

async function run(job: LatencyJob): Promise<LatencyResult> {
  const client = new grpc.Client(job.address, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': -1,
    'grpc.max_send_message_length': -1,
  });
  await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())));
  const perStep = Math.max(1, Math.round((job.rate * STEP_MS) / 1000));
  const steps = Math.ceil((job.seconds * 1000) / STEP_MS);
  const requests = batchRequests(steps + 10, perStep, `lat${job.rate}`);
  const sentAt = new Map<string, number>(); // tx_hash -> send time (collisions: first wins)
  const latencies: number[] = [];
  const acks: number[] = [];
  let accepted = 0;
  const stream = client.makeServerStreamRequest(`${SERVICE}/StreamTicks`, identity, identity, Buffer.alloc(0));
  stream.on('data', (buf: Buffer) => {
    const now = performance.now();
    for (const h of parseTickHashes(buf).hashes) {
      const t = sentAt.get(h);
      if (t !== undefined) {
        latencies.push(now - t);
        sentAt.delete(h);
      }
    }
  });
  stream.on('error', () => {});
  await new Promise((r) => setTimeout(r, 300)); // stream established
  const start = performance.now();
  let sent = 0;
  let inFlight = 0;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < steps; i++) {
    const due = start + i * STEP_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (inFlight > 200) continue; // the node is not keeping up: do not queue without bound
    const t = performance.now();
    inFlight++;
    sent += perStep;
    pending.push(
      new Promise<void>((resolve) => {
        client.makeUnaryRequest(`${SERVICE}/SubmitBatch`, identity, identity, requests[i]!, (err, res) => {
          inFlight--;
          acks.push(performance.now() - t);
          if (!err && res) {
            for (const h of parseBatchHashes(res)) {
              if (h === '') continue;
              accepted++;
              if (!sentAt.has(h)) sentAt.set(h, t);
            }
          }
          resolve();
        });
      }),
    );
  }
  const elapsed = (performance.now() - start) / 1000;
  await Promise.all(pending);
  // let the last ticks arrive (transactions not ticked by then are reported as unmeasured)
  const until = performance.now() + 10_000;
  while (sentAt.size > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
  stream.cancel();
  client.close();
  latencies.sort((a, b) => a - b);
  acks.sort((a, b) => a - b);
  return {
    ackP50Ms: percentile(acks, 50),
    ackP99Ms: percentile(acks, 99),
    rate: job.rate,
    sent,
    accepted,
    measured: latencies.length,
    achievedRate: Math.round(sent / elapsed),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies[latencies.length - 1] ?? NaN,
  };
}

process.on('message', (job: LatencyJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
  );
});
