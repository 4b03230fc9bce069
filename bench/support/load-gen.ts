/**
 * Child process (child_process.fork): the load generator. Receives a job over IPC,
 * runs it against a gRPC address with pre-encoded requests and a fixed number of calls
 * in flight, and reports figures back over IPC.
 *
 *   { kind: 'batch', address, seconds, inFlight, batchSize }  -> accepted tx/s
 *   { kind: 'unary', address, seconds, inFlight }             -> calls/s
 */
import * as grpc from '@grpc/grpc-js';
import { batchRequests, benchTransaction, encodeSubmitRequest } from './requests.js';

export interface IngestJob {
  kind: 'batch' | 'unary';
  address: string;
  seconds: number;
  inFlight: number;
  batchSize: number;
  prepare: number; // requests to pre-encode (distinct transactions)
}

export interface IngestResult {
  kind: IngestJob['kind'];
  seconds: number;
  calls: number;
  accepted: number; // accepted transactions (nonzero sequence numbers)
  rejected: number; // failed items or calls (e.g. RESOURCE_EXHAUSTED)
  perSecond: number; // tx/s for batch, calls/s for unary
}

const identity = (b: Buffer) => b;
const SERVICE = '/svc.sequencer.v1.SequencerService';

/** Count SubmitTransactionResponse entries with a nonzero sequence_number in a SubmitBatchResponse. */
function countAccepted(buf: Buffer): { ok: number; failed: number } {
  let ok = 0;
  let failed = 0;
  let pos = 0;
  while (pos < buf.length) {
    pos++; // tag 0x0a
    let len = 0;
    let mul = 1;
    for (;;) {
      const b = buf[pos++]!;
      len += (b & 0x7f) * mul;
      mul *= 128;
      if (b < 0x80) break;
    }
    if (len > 0 && buf[pos] === 0x08) ok++;
    else failed++;
    pos += len;
  }
  return { ok, failed };
}

async function run(job: IngestJob): Promise<IngestResult> {
  const client = new grpc.Client(job.address, grpc.credentials.createInsecure(), {
    'grpc.max_send_message_length': -1,
  });
  const method = job.kind === 'batch' ? `${SERVICE}/SubmitBatch` : `${SERVICE}/SubmitTransaction`;
  const requests =
    job.kind === 'batch'
      ? batchRequests(job.prepare, job.batchSize, 'bench')
      : Array.from({ length: job.prepare }, () => encodeSubmitRequest(benchTransaction('bench')));
  // warm-up connection
  await new Promise<void>((resolve, reject) =>
    client.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())),
  );
  let next = 0;
  let calls = 0;
  let accepted = 0;
  let rejected = 0;
  const start = performance.now();
  const deadline = start + job.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && next < requests.length) {
      const body = requests[next++]!;
      await new Promise<void>((resolve) => {
        client.makeUnaryRequest(method, identity, identity, body, (err, res) => {
          calls++;
          if (err || !res) rejected += job.kind === 'batch' ? job.batchSize : 1;
          else if (job.kind === 'batch') {
            const c = countAccepted(res);
            accepted += c.ok;
            rejected += c.failed;
          } else accepted++;
          resolve();
        });
      });
    }
  };
  await Promise.all(Array.from({ length: job.inFlight }, worker));
  const seconds = (performance.now() - start) / 1000;
  client.close();
  return {
    kind: job.kind,
    seconds,
    calls,
    accepted,
    rejected,
    perSecond: (job.kind === 'batch' ? accepted : accepted) / seconds,
  };
}

process.on('message', (job: IngestJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
  );
});
