/**
 * Readers after ordering (issue 25 point 6, docs/api.md "Readers and the main thread"): the
 * real node ingesting SubmitBatch load while 50 StreamTicks readers take everything as fast as
 * it comes (grpc-js calls with no data listener, each on its own connection, half live, half
 * replaying from tick 1, in a child process). The node's main thread must not pay for them:
 * its CPU per accepted transaction stays near what it is without readers, and ingestion keeps
 * most of its rate. Before the readers' pace, the same run cost the main thread ~8x per
 * transaction and ingestion fell to ~10%.
 *
 * Machine-independent first (CPU per transaction on the main thread, measured from /proc),
 * with margins for a loaded 2-core CI box; measurements alternate none / readers / none.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, type StartedChild } from '../../bench/support/processes.js';
import type { StreamClientsJob, StreamClientsResult } from '../../bench/support/stream-clients.js';
import { cpuDelta, sampleThreads } from '../../bench/support/threads.js';
import { SequencerClient, wireTx, type WireTransaction } from '../support/grpc-client.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';

const SECONDS = 3;
const BATCH = 250;

describe('readers do not take ordering\'s main thread (real node, readers in a child process)', function () {
  this.timeout(180_000);
  let dir: string;
  let node: NodeProcess;
  let client: SequencerClient;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-readers-load-'));
    node = await spawnNode(dir, ['--queue-capacity', '1000000', '--stream-stall-ms', '3600000'], ['grpc', 'rest'], { timeoutMs: 60_000 });
    client = new SequencerClient(node.addresses.grpc!);
    for (let i = 0; i < 8; i++) await client.submitBatch(batch()); // a history to replay
  });
  after(async () => {
    client?.close();
    node?.child.kill('SIGTERM');
    await node?.exited;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('50 fast StreamTicks readers (25 live, 25 replaying) leave the main thread\'s CPU per transaction near none', async () => {
    const pid = node.child.pid!;
    const measure = async (): Promise<{ rate: number; mainUs: number }> => {
      const t0 = sampleThreads(pid);
      const accepted = await ingest(client, SECONDS);
      const main = cpuDelta(t0, sampleThreads(pid)).main ?? 0;
      return { rate: accepted / SECONDS, mainUs: (main * 1000) / Math.max(1, accepted) };
    };
    await measure(); // warm-up
    const before = await measure();
    const readers: Array<StartedChild<StreamClientsResult>> = [0, 1].map((startTick) =>
      startChild<StreamClientsJob, StreamClientsResult>('stream-clients.js', { address: node.addresses.grpc!, count: 25, startTick, mode: 'fast' }),
    );
    await Promise.all(readers.map((r) => r.ready));
    const withReaders = await measure();
    for (const r of readers) r.stop();
    const ended = await Promise.all(readers.map((r) => r.result));
    const after = await measure();
    const none = { rate: (before.rate + after.rate) / 2, mainUs: (before.mainUs + after.mainUs) / 2 };
    const detail =
      `none ${Math.round(before.rate)} / ${Math.round(after.rate)} tx/s, main ${before.mainUs.toFixed(1)} / ${after.mainUs.toFixed(1)} us/tx; ` +
      `with readers ${Math.round(withReaders.rate)} tx/s, main ${withReaders.mainUs.toFixed(1)} us/tx; readers opened ${ended.map((e) => e.opened).join('+')}`;
    expect(ended.reduce((a, e) => a + e.opened, 0), detail).to.equal(50);
    expect(withReaders.mainUs, detail).to.be.below(2 * none.mainUs);
    expect(withReaders.rate, detail).to.be.above(0.5 * none.rate);
  });
});

/** SubmitBatch closed loop, two calls in flight, for `seconds`: accepted transactions. */
async function ingest(client: SequencerClient, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let accepted = 0;
  const lane = async (): Promise<void> => {
    while (performance.now() < end) {
      const r = await client.submitBatch(batch());
      accepted += r.responses.filter((x) => x.sequence_number !== undefined && x.sequence_number !== '0').length;
    }
  };
  await Promise.all([lane(), lane()]);
  return accepted;
}

function batch(): WireTransaction[] {
  return Array.from({ length: BATCH }, () => wireTx(100, 'rd'));
}
