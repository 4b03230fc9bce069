/**
 * Child process for test/sequencer/api/hostile-streams.test.ts (issue 19 point 1): StreamTicks churn on ONE
 * grpc-js channel, the way a careless client does it. `calls` times, one after the other: open
 * StreamTicks{start_tick: 0} and cancel it at once (same event-loop turn, every other call) or
 * on its first message. grpc-js (<= 1.14.7) never resets the HTTP/2 stream of a call cancelled
 * in the turn it was created, so those streams stay open on the node and read forever.
 *
 * Then, on the same channel: `fresh` streams open at once, each of which must get a tick (not
 * be refused), cancelled on their first message. Reports `{ codes, fresh }` (how each churn call ended, by
 * status name; how the fresh ones did) and keeps its channel until the parent sends 'close'.
 */
import * as grpc from '@grpc/grpc-js';

export interface ChurnJob {
  address: string;
  calls: number;
  fresh: number;
}

export interface ChurnReport {
  codes: Record<string, number>;
  fresh: Record<string, number>;
}

const STREAM_TICKS = '/svc.sequencer.v1.SequencerService/StreamTicks';
const identity = (b: Buffer) => b;

/** One call; resolves with the name of how it ended ('CANCELLED', 'RESOURCE_EXHAUSTED', ...). */
function once(client: grpc.Client, cancelAtOnce: boolean): Promise<string> {
  const call = client.makeServerStreamRequest(STREAM_TICKS, identity, identity, Buffer.alloc(0));
  return new Promise((resolve) => {
    call.on('error', () => undefined); // the status says it
    call.on('status', (s: grpc.StatusObject) => resolve(grpc.status[s.code] ?? String(s.code)));
    if (cancelAtOnce) call.cancel();
    else call.once('data', () => call.cancel());
  });
}

process.once('message', async (job: ChurnJob) => {
  const client = new grpc.Client(job.address, grpc.credentials.createInsecure());
  const count = (into: Record<string, number>, code: string) => void (into[code] = (into[code] ?? 0) + 1);
  const codes: Record<string, number> = {};
  for (let i = 0; i < job.calls; i++) count(codes, await once(client, i % 2 === 1));
  const fresh: Record<string, number> = {};
  const held = await Promise.all(Array.from({ length: job.fresh }, () => once(client, false)));
  for (const code of held) count(fresh, code);
  process.send!({ codes, fresh } satisfies ChurnReport);
  process.once('message', () => {
    client.close();
    process.exit(0);
  });
});
