/**
 * The SharedArrayBuffer ring: empty and full behaviour, wraparound of slots and of the
 * 32-bit counters' arithmetic, and a real producer worker racing the main thread's
 * consumer (every value arrives once, in order, intact).
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { RingQueue } from '../../src/clock/ring.js';

const item = (v: number): Uint8Array => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setUint32(0, v, true);
  b[4] = v & 0xff;
  return b;
};
const valueIn = (b: Uint8Array): number => new DataView(b.buffer, b.byteOffset).getUint32(0, true);

describe('clock/ring', () => {
  it('rounds the slot count up to a power of two and reports empty', () => {
    const ring = RingQueue.create(5, 6);
    expect(ring.slots).to.equal(8);
    expect(ring.slotBytes).to.equal(8);
    expect(ring.size()).to.equal(0);
    expect(ring.free()).to.equal(8);
    expect(ring.tryShift()).to.equal(undefined);
  });

  it('refuses a push when full and accepts again after a shift', () => {
    const ring = RingQueue.create(4, 8);
    for (let i = 0; i < 4; i++) expect(ring.tryPush(item(i))).to.equal(true);
    expect(ring.free()).to.equal(0);
    expect(ring.tryPush(item(99))).to.equal(false);
    expect(valueIn(ring.tryShift()!)).to.equal(0);
    expect(ring.tryPush(item(4))).to.equal(true);
    const out: number[] = [];
    for (let b = ring.tryShift(); b; b = ring.tryShift()) out.push(valueIn(b));
    expect(out).to.deep.equal([1, 2, 3, 4]);
  });

  it('wraps around many times keeping FIFO order', () => {
    const ring = RingQueue.create(8, 8);
    let pushed = 0;
    let popped = 0;
    for (let round = 0; round < 1000; round++) {
      const n = 1 + (round % 8);
      for (let i = 0; i < n && ring.free() > 0; i++) ring.tryPush(item(pushed++));
      const m = 1 + ((round * 3) % 8);
      for (let i = 0; i < m; i++) {
        const b = ring.tryShift();
        if (!b) break;
        expect(valueIn(b)).to.equal(popped++);
      }
    }
    while (ring.size() > 0) expect(valueIn(ring.tryShift()!)).to.equal(popped++);
    expect(popped).to.equal(pushed);
  });

  it('survives the 32-bit head/tail counters wrapping', () => {
    const ring = RingQueue.create(4, 8);
    // Move both counters close to 2^32 by publishing/releasing in bulk.
    const header = new Int32Array(ring.buffer, 0, 16);
    header[0] = -3; // head = 2^32 - 3
    header[1] = -3; // tail = 2^32 - 3
    expect(ring.size()).to.equal(0);
    for (let i = 0; i < 4; i++) expect(ring.tryPush(item(i))).to.equal(true);
    expect(ring.size()).to.equal(4);
    expect(ring.tryPush(item(9))).to.equal(false);
    for (let i = 0; i < 4; i++) expect(valueIn(ring.tryShift()!)).to.equal(i);
    expect(ring.size()).to.equal(0);
  });

  it('rejects oversized items and over-release', () => {
    const ring = RingQueue.create(2, 8);
    expect(() => ring.tryPush(new Uint8Array(9))).to.throw(RangeError);
    expect(() => ring.release(1)).to.throw(RangeError);
    expect(() => ring.publish(3)).to.throw(RangeError);
    expect(() => RingQueue.attach(new SharedArrayBuffer(64))).to.throw();
  });

  it('waitForDataAsync resolves false on timeout and true when data arrives', async () => {
    const ring = RingQueue.create(4, 8);
    expect(await ring.waitForDataAsync(5)).to.equal(false);
    setTimeout(() => ring.tryPush(item(7)), 5);
    expect(await ring.waitForDataAsync(5000)).to.equal(true);
    expect(valueIn(ring.tryShift()!)).to.equal(7);
  });

  it('keeps the process alive while waiting (Atomics.waitAsync alone does not)', () => {
    // Nothing else is pending in this child: without a keep-alive the process would end
    // mid-await with exit code 13 (unsettled top-level await).
    const ringModule = new URL('../../src/clock/ring.js', import.meta.url).href;
    const script = `import { RingQueue } from '${ringModule}';
      const r = RingQueue.create(4, 8);
      console.log('data', await r.waitForDataAsync(30));
      for (let i = 0; i < 4; i++) r.tryPush(new Uint8Array(8));
      console.log('space', await r.waitForSpaceAsync(30));`;
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(res.status, res.stderr).to.equal(0);
    expect(res.stdout.trim().split('\n')).to.deep.equal(['data false', 'space false']);
  });

  it('carries 100,000 items from a real producer worker in order and intact', async () => {
    const ring = RingQueue.create(256, 8);
    const count = 100_000;
    const worker = new Worker(fileURLToPath(new URL('./ring-producer.worker.js', import.meta.url)), {
      workerData: { buffer: ring.buffer, count },
    });
    const exited = new Promise<number>((resolve, reject) => {
      worker.once('exit', resolve);
      worker.once('error', reject);
    });
    let expected = 0;
    while (expected < count) {
      if (ring.size() === 0) {
        await ring.waitForDataAsync(1000);
        continue;
      }
      const n = ring.size();
      for (let k = 0; k < n; k++) {
        const off = ring.readOffset(k);
        const v = ring.view.getUint32(off, true);
        const check = ring.view.getUint32(off + 4, true);
        if (v !== expected || check !== (v ^ 0xa5a5a5a5) >>> 0) {
          throw new Error(`slot ${expected}: got ${v}/${check}`);
        }
        expected++;
      }
      ring.release(n);
    }
    expect(expected).to.equal(count);
    expect(await exited).to.equal(0);
    expect(ring.size()).to.equal(0);
  });
});
