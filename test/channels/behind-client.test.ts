/**
 * A book subscriber that is behind, in a child process on a real socket: it stops reading
 * after its snapshot while ticks change hundreds of levels each, far more than the send
 * queue's bound (set to 256 KiB here; 4 MiB by default). It is not closed: its deltas are
 * folded while it is behind, and when it reads again it gets deltas that chain without a
 * break (first_seq = previous seq + 1), some of them folded, ending in exactly the book the
 * node holds. Before folding, the same client was closed with 4000 (with coalesceBytes
 * above queueBytes this test fails so).
 */
import { expect } from 'chai';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { marketIdOf } from '../../src/core/market-id.js';
import { sha256 } from '../../src/crypto/sha256.js';
import { BASE, QUOTE, marketTx, orderTx, seeded } from '../dex/support/orders.js';
import type { SlowReaderResult } from './clients/book-slow-reader.js';
import { ChannelsHarness } from './support/harness.js';

const MARKET = marketIdOf(BASE, QUOTE, sha256);
const LEVELS = 300;
/** Deltas folded before the client reads again: 40 x ~10 KB, past the queue bound of 256 KiB set here. */
const FOLDED = 40;
/** Give up publishing after this much (the kernel's buffers take a few MB before the node queues any). */
const MAX_BYTES = 24 * 1024 * 1024;

function nextMessage<T>(c: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    c.once('message', (m) => resolve(m as T));
    c.once('exit', (code) => reject(new Error(`child exited (${code})`)));
  });
}

describe('channels: a book subscriber that is behind gets folded deltas (child process)', function () {
  this.timeout(120_000);
  let h: ChannelsHarness;
  const children: ChildProcess[] = [];
  before(async () => {
    h = await ChannelsHarness.start({ queueBytes: 256 * 1024, coalesceBytes: 32 * 1024 });
    await h.apply([marketTx()]);
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await h?.close();
  });

  it("is not closed, and its folded deltas chain to exactly the node's book", async () => {
    const slow = fork(fileURLToPath(new URL('./clients/book-slow-reader.js', import.meta.url)), [], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(slow);
    slow.send({ url: h.url, marketId: MARKET });
    await nextMessage(slow);

    const owner = seeded(9).publicKey;
    let orderId = 0;
    let published = 0;
    let ticks = 0;
    while (h.hub.foldedDeltas < FOLDED && published < MAX_BYTES && h.hub.slowClosed === 0) {
      // Every tick adds an order on each of LEVELS bid levels: a delta of LEVELS rows with big totals.
      const txs = Array.from({ length: LEVELS }, (_, i) =>
        orderTx(owner, ++orderId, 'Buy', 1_000_000_000_000 + i, 1_000_000_000 + (orderId % 1000)),
      );
      // The book channel alone (the harness's apply also stores every owner event: not what is tested here).
      const applied = h.ticks.apply(txs);
      const deltas = h.book.derive(applied);
      h.book.publish(deltas);
      ticks++;
      published += deltas.reduce((sum, d) => sum + d.item.frame.length, 0);
      if (applied.txs.some((t) => !t.outcome.ok)) throw new Error('an order was refused');
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(h.hub.slowClosed, 'closed for being slow').to.equal(0);
    expect(h.hub.foldedDeltas, 'deltas folded while it was behind').to.be.greaterThan(0);

    const lastSeq = ticks; // one delta per tick on this market
    slow.send({ resume: true, until: lastSeq });
    const { result } = await nextMessage<{ result: SlowReaderResult }>(slow);
    expect(result.closeCode, 'closed').to.equal(null);
    expect(result.breaks, 'deltas that did not chain').to.equal(0);
    expect(result.lastSeq).to.equal(lastSeq);
    expect(result.folded).to.be.greaterThan(0);
    expect(result.deltas).to.be.below(ticks);
    const rows = h.book.rows(MARKET)!;
    expect(result.bids).to.deep.equal(rows.bids.map((r) => r.map(Number)));
    expect(result.asks).to.deep.equal(rows.asks.map((r) => r.map(Number)));
  });
});
