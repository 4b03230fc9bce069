/**
 * Test helper run in a real worker thread: pushes `count` sequential u32 values into the
 * ring it is given, spinning (with a short Atomics.wait) while the ring is full, so the
 * ring test can check ordering and completeness across threads.
 */
import { workerData } from 'node:worker_threads';
import { RingQueue } from '../../src/clock/ring.js';

const { buffer, count } = workerData as { buffer: SharedArrayBuffer; count: number };
const ring = RingQueue.attach(buffer);
const sleeper = new Int32Array(new SharedArrayBuffer(4));
let next = 0;
while (next < count) {
  const free = ring.free();
  if (free === 0) {
    Atomics.wait(sleeper, 0, 0, 1);
    continue;
  }
  // Publish in variable-size groups to exercise partial wraparounds.
  const n = Math.min(free, count - next, 1 + (next % 7));
  for (let k = 0; k < n; k++) {
    const off = ring.writeOffset(k);
    ring.view.setUint32(off, next + k, true);
    ring.view.setUint32(off + 4, (next + k) ^ 0xa5a5a5a5, true);
  }
  ring.publish(n);
  next += n;
}
