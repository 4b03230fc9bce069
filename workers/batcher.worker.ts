/**
 * The batcher worker (issue 8 point 1): one long-lived thread between the main thread and
 * the clock. It reads the transaction ring (sequence number + full hash per transaction),
 * hashes each batch into its Merkle root and leaves one ready batch in the batch ring for
 * the clock (src/clock/batch-former.ts), so neither the clock nor the main thread does
 * per-transaction hashing. It blocks on the rings (Atomics.wait) and spins nothing; it
 * exits once the control block's stop flag is set and the transaction ring is empty.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BatchFormer } from '../src/clock/batch-former.js';
import { ClockControl } from '../src/clock/protocol.js';
import { RingQueue } from '../src/clock/ring.js';
import { takeThreadRole } from '../src/pool/thread-role.js';

takeThreadRole('batcher');

export interface BatcherWorkerData {
  txRing: SharedArrayBuffer;
  batchRing: SharedArrayBuffer;
  control: SharedArrayBuffer;
  maxTxPerTick: number;
}

const data = workerData as BatcherWorkerData;
try {
  const former = new BatchFormer(RingQueue.attach(data.txRing), RingQueue.attach(data.batchRing), data.maxTxPerTick);
  parentPort?.postMessage({ type: 'ready' });
  former.run(new ClockControl(data.control));
  parentPort?.postMessage({ type: 'done' });
} catch (err) {
  parentPort?.postMessage({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
