/**
 * Child process for test/sequencer/api/hostile-streams.test.ts (issue 19 point 2): `count` StreamTicks calls
 * that never read, each on its own connection: half live (start_tick 0), half replaying from
 * tick 1. Paused the way a grpc-js consumer is (a 'data' listener and pause(): grpc-js stops
 * reading from HTTP/2 once it holds a message, and flow control stops the node's writes).
 * Reports `{ opened }` once every stream is open, then holds them until killed.
 */
import * as grpc from '@grpc/grpc-js';

export interface PausedJob {
  address: string;
  count: number;
}

const STREAM_TICKS = '/svc.sequencer.v1.SequencerService/StreamTicks';
const identity = (b: Buffer) => b;

process.once('message', async (job: PausedJob) => {
  const held: grpc.ClientReadableStream<Buffer>[] = [];
  for (let i = 0; i < job.count; i++) {
    const client = new grpc.Client(job.address, grpc.credentials.createInsecure(), {
      'grpc.use_local_subchannel_pool': 1,
      'grpc.max_receive_message_length': -1,
    });
    await new Promise<void>((resolve, reject) =>
      client.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())),
    );
    const body = i % 2 === 0 ? Buffer.alloc(0) : Buffer.from([0x08, 0x01]); // start_tick 0 | 1
    const call = client.makeServerStreamRequest(STREAM_TICKS, identity, identity, body);
    call.on('error', () => undefined);
    call.on('data', () => undefined);
    call.pause();
    held.push(call);
  }
  process.send!({ opened: held.length });
});
