/**
 * The batcher's loop (issue 8 point 1), free of thread plumbing so tests drive it
 * in-process: it takes the transactions the main thread queued in the transaction ring
 * (sequence number, ingestion timestamp, full hash each), hashes them into the batch hash
 * (the Merkle root of crypto/merkle.ts: leaves SHA-256(0x00 || full hash), nodes
 * SHA-256(0x01 || l || r)) and the ingestion digest (src/vdf/binding.ts), and hands the
 * clock ONE ready batch through the one-slot batch ring.
 *
 * Why a thread of its own: the clock must do only sequential VDF work, so that its
 * compute per busy tick does not grow with the transactions a tick carries; the main
 * thread must only order. The batcher hashes tick n+1's batch while the clock squares
 * tick n. It forms a batch only once the clock took the previous one, so under load a
 * batch holds everything that arrived during a tick (up to maxTxPerTick) instead of the
 * clock taking one-transaction ticks.
 *
 * Stop: once the control block's stop flag is set and the transaction ring is empty,
 * `run()` returns (the main thread queues everything before it asks the clock to stop).
 */
import { rootOfLeafHashes } from '../crypto/index.js';
import { sha256 } from '../crypto/index.js';
import { ingestionDigest } from '../vdf/index.js';
import { type ClockControl, readTxHashView, readTxIngestion, readTxSequence, writeBatchSlot } from './protocol.js';
import type { RingQueue } from './ring.js';

/** How long one blocking wait lasts before the stop flag is looked at again. */
const WAIT_MS = 50;

export class BatchFormer {
  private readonly leafScratch = new Uint8Array(33); // 0x00 || transaction hash

  constructor(
    private readonly txRing: RingQueue,
    private readonly batchRing: RingQueue,
    private readonly maxTxPerTick: number,
  ) {}

  /**
   * Form one batch if transactions wait and the clock has room for it; returns how many
   * transactions it carries (0: nothing formed).
   */
  formOnce(): number {
    const { txRing, batchRing } = this;
    if (batchRing.free() === 0) return 0;
    const n = Math.min(txRing.size(), this.maxTxPerTick);
    if (n === 0) return 0;
    const leaves = new Array<Uint8Array>(n);
    const stamps = new Array<number>(n);
    const scratch = this.leafScratch;
    for (let k = 0; k < n; k++) {
      scratch.set(readTxHashView(txRing, k), 1);
      leaves[k] = sha256(scratch);
      stamps[k] = readTxIngestion(txRing, k);
    }
    const firstSequence = readTxSequence(txRing, 0);
    writeBatchSlot(batchRing, 0, {
      firstSequence,
      txCount: n,
      lastIngestion: stamps[n - 1]!,
      batchHash: rootOfLeafHashes(leaves),
      ingestionDigest: ingestionDigest(stamps),
    });
    // Publish before release: a stopping clock that sees both rings empty has really
    // been handed everything.
    batchRing.publish(1);
    txRing.release(n);
    return n;
  }

  /** Run until stopped (blocking waits: worker threads only). */
  run(control: ClockControl): void {
    const { txRing, batchRing } = this;
    for (;;) {
      if (txRing.size() === 0) {
        if (control.stopRequested()) return;
        txRing.waitForData(WAIT_MS);
        continue;
      }
      if (batchRing.free() === 0) {
        batchRing.waitForSpace(WAIT_MS);
        continue;
      }
      this.formOnce();
    }
  }
}
