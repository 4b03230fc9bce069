/**
 * A client that never reads, in a child process, beside readers in another: the node closes
 * it with 4000 once its send queue would pass 4 MiB (within a bound), never queues more for
 * it, and the readers receive every block, in order, on time throughout.
 */
import { expect } from 'chai';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CHANNELS_PATH } from '../../src/channels/index.js';
import { ChannelsHarness } from './support/harness.js';

const child = (name: string): ChildProcess =>
  fork(fileURLToPath(new URL(`./clients/${name}.js`, import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });

function nextMessage<T>(c: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    c.once('message', (m) => resolve(m as T));
    c.once('exit', (code) => reject(new Error(`child exited (${code})`)));
  });
}

/** Bound for the 4000 close: 4 MiB of queue plus what the kernel buffers, at about 6 MB/s. */
const CLOSE_BOUND_MS = 20_000;
/** Bound on a reader's delay for any block (a loaded 2-core box); typical is a few ms. */
const DELAY_BOUND_MS = 1_000;

describe('channels: a client that never reads (child processes)', function () {
  this.timeout(90_000);
  let h: ChannelsHarness;
  const children: ChildProcess[] = [];
  before(async () => {
    h = await ChannelsHarness.start();
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await h?.close();
  });

  it('is closed with 4000 within the bound while the readers keep receiving on time', async () => {
    const port = Number(new URL(h.url).port);
    const stuck = child('never-reads');
    const readers = child('block-reader');
    children.push(stuck, readers);
    stuck.send({ host: '127.0.0.1', port, path: CHANNELS_PATH });
    readers.send({ url: h.url, clients: 5 });
    await Promise.all([nextMessage(stuck), nextMessage(readers)]);
    while (h.hub.subscribers('blocks', '') < 6) await new Promise((resolve) => setTimeout(resolve, 20));

    const started = performance.now();
    let closedAfter = -1;
    let produced = 0;
    // 64 KiB blocks every 10 ms until the stuck client is closed, then 2 s more.
    while (closedAfter < 0 || performance.now() - started < closedAfter + 2_000) {
      h.blocks.produce(0, 64 * 1024);
      produced++;
      if (closedAfter < 0 && h.hub.slowClosed > 0) closedAfter = performance.now() - started;
      if (performance.now() - started > CLOSE_BOUND_MS) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(closedAfter, `the client that never reads was closed (${produced} blocks)`).to.be.greaterThan(0);
    expect(closedAfter).to.be.below(CLOSE_BOUND_MS);
    expect(h.hub.slowClosed).to.equal(1);
    expect(h.hub.subscribers('blocks', '')).to.equal(5);

    const done = nextMessage<{ heights: number[][]; delays: number[] }>(readers);
    readers.send({ stop: true });
    const { heights, delays } = await done;
    for (const hs of heights) expect(hs).to.deep.equal(Array.from({ length: produced }, (_, i) => i + 1));
    delays.sort((a, b) => a - b);
    const p99 = delays[Math.floor(delays.length * 0.99)]!;
    expect(delays[delays.length - 1]!, `p99 ${p99.toFixed(1)} ms`).to.be.below(DELAY_BOUND_MS);
  });
});
