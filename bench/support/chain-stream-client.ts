/**
 * Child process: one live StreamTx call (a colocated consumer); for every batch received,
 * its tick number, transaction count and the wall-clock receive time in µs
 * (performance.timeOrigin + now, the clock the node stamps ticks with). Stops after
 * `seconds` and reports.
 */
import { ChainClient, type WireTxBatch } from '../../src/chain/api/client/index.js';

export interface StreamJob {
  grpc: string;
  seconds: number;
}

export type StreamSample = [tick: number, count: number, recvUs: number];

const nowUs = () => (performance.timeOrigin + performance.now()) * 1000;

process.on('message', (job: StreamJob) => {
  const client = new ChainClient(job.grpc);
  const samples: StreamSample[] = [];
  const call = client.stream(0);
  call.on('data', (b: WireTxBatch) => samples.push([Number(b.tick_number), b.transactions.length, nowUs()]));
  call.on('error', (err: Error) => {
    if (!/CANCELLED/.test(err.message)) process.stderr.write(`StreamTx consumer: ${err.message}\n`);
  });
  process.send!({ ready: true });
  setTimeout(() => {
    call.cancel();
    client.close();
    process.send!({ result: samples }, () => process.exit(0));
  }, job.seconds * 1000);
});
