/**
 * Child process: submits transactions at a fixed rate (SubmitBatch, small batches every
 * few ms) while streaming ticks, and measures for each transaction the time from sending
 * its batch until the tick that carries it arrives on StreamTicks (same process clock).
 */
import * as grpc from '@grpc/grpc-js';
import { shortHash, transactionHash } from '../../src/core/tx-hash.js';
import { benchTransaction, encodeBatchRequest } from './requests.js';
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
  closeToArrivalP50Ms: number; // tick timestamp (closed by the clock) -> arrival on the stream, ticks with our transactions
  closeToArrivalP99Ms: number;
  streamError?: string; // the tick stream ended early (e.g. the client fell too far behind)
}

const SERVICE = '/svc.sequencer.v1.SequencerService';
const identity = (b: Buffer) => b;
const STEP_MS = 5;

async function run(job: LatencyJob): Promise<LatencyResult> {
  const client = new grpc.Client(job.address, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': -1,
    'grpc.max_send_message_length': -1,
    // grpc-js's default 64 KiB HTTP/2 receive window allows only a few ticks in flight per
    // round trip; a stream client following ~1,000+ ticks/s needs a larger one (docs/api.md).
    'grpc-node.flow_control_window': 16 * 1024 * 1024,
  });
  await new Promise<void>((resolve, reject) =>
    client.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())),
  );
  const perStep = Math.max(1, Math.round((job.rate * STEP_MS) / 1000));
  const steps = Math.ceil((job.seconds * 1000) / STEP_MS);
  // Hashes are computed here, before sending: a tick can reach the stream before the
  // SubmitBatch answer does, so the send time must be on record before the answer.
  const batches = Array.from({ length: steps + 10 }, () => {
    const txs = Array.from({ length: perStep }, () => benchTransaction(`lat${job.rate}`));
    return { body: encodeBatchRequest(txs), hashes: txs.map((tx) => shortHash(transactionHash(tx))) };
  });
  const sentAt = new Map<string, number>(); // tx_hash -> send time (collisions: first wins)
  const latencies: number[] = [];
  const acks: number[] = [];
  const closeToArrival: number[] = [];
  let streamError: string | undefined;
  let accepted = 0;
  const stream = client.makeServerStreamRequest(`${SERVICE}/StreamTicks`, identity, identity, Buffer.alloc(0));
  stream.on('data', (buf: Buffer) => {
    const now = performance.now();
    const tick = parseTickHashes(buf);
    if (tick.hashes.length > 0) closeToArrival.push((performance.timeOrigin + now) * 1000 - tick.timestamp);
    for (const h of tick.hashes) {
      const t = sentAt.get(h);
      if (t !== undefined) {
        latencies.push(now - t);
        sentAt.delete(h);
      }
    }
  });
  stream.on('error', (e: grpc.ServiceError) => {
    if (e.code !== grpc.status.CANCELLED) streamError = `${grpc.status[e.code]}: ${e.details}`;
  });
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
    const batch = batches[i]!;
    for (const h of batch.hashes) if (!sentAt.has(h)) sentAt.set(h, t);
    inFlight++;
    sent += perStep;
    pending.push(
      new Promise<void>((resolve) => {
        client.makeUnaryRequest(`${SERVICE}/SubmitBatch`, identity, identity, batch.body, (err, res) => {
          inFlight--;
          acks.push(performance.now() - t);
          const answered = !err && res ? parseBatchHashes(res) : batch.hashes.map(() => '');
          answered.forEach((h, k) => {
            if (h !== '') accepted++;
            else if (sentAt.get(batch.hashes[k]!) === t) sentAt.delete(batch.hashes[k]!); // refused: never ticked
          });
          resolve();
        });
      }),
    );
  }
  const elapsed = (performance.now() - start) / 1000;
  await Promise.all(pending);
  // let the last ticks arrive (transactions not ticked by then are reported as unmeasured)
  const until = performance.now() + 10_000;
  while (latencies.length < accepted && !streamError && performance.now() < until)
    await new Promise((r) => setTimeout(r, 20));
  stream.cancel();
  client.close();
  latencies.sort((a, b) => a - b);
  acks.sort((a, b) => a - b);
  closeToArrival.sort((a, b) => a - b);
  return {
    closeToArrivalP50Ms: percentile(closeToArrival, 50) / 1000,
    closeToArrivalP99Ms: percentile(closeToArrival, 99) / 1000,
    ackP50Ms: percentile(acks, 50),
    ackP99Ms: percentile(acks, 99),
    ...(streamError ? { streamError } : {}),
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
