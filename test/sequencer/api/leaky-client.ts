/**
 * Child process for test/sequencer/api/hostile-streams.test.ts: the StreamTicks reproduction with a
 * real grpc-js client on one channel. `pairs` times: open two StreamTicks{start_tick: 0} at
 * once, cancel one immediately and the other on its first message. Reports
 * `{ done, refused, cancelled, stalled }` and then keeps its channel (and whatever streams grpc-js left
 * open) until the parent kills it: a client that goes away without closing anything.
 */
import * as grpc from '@grpc/grpc-js';
import { SequencerClient } from '../../support/grpc-client.js';

process.once('message', async (job: { address: string; pairs: number }) => {
  const client = new SequencerClient(job.address);
  let refused = 0;
  let cancelled = 0;
  let stalled = 0;
  const count = (e: grpc.ServiceError) => {
    if (e.code === grpc.status.RESOURCE_EXHAUSTED) refused++;
    else if (e.code === grpc.status.CANCELLED) cancelled++;
  };
  for (let i = 0; i < job.pairs; i++) {
    const a = client.stream(0);
    const b = client.stream(0);
    a.on('error', count);
    a.cancel();
    await new Promise<void>((resolve) => {
      // A call that neither errs nor gets its first tick within 5 s (one suite run in four
      // saw grpc-js leave one so, once the node had closed the channel's first connection
      // gracefully for its resets) is cancelled and counted, not waited on for ever.
      const timer = setTimeout(() => {
        stalled++;
        b.cancel();
        resolve();
      }, 5_000);
      b.on('error', (e: grpc.ServiceError) => {
        clearTimeout(timer);
        count(e);
        resolve();
      });
      b.once('data', () => {
        clearTimeout(timer);
        b.cancel();
        resolve();
      });
    });
  }
  process.send!({ done: job.pairs, refused, cancelled, stalled });
});
