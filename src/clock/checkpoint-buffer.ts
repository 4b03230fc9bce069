/**
 * The buffer the clock exports a long segment's checkpoints into, prepared ahead of time.
 *
 * A heartbeat's checkpoints (T/8 slots of 336 bytes: 1.26 MB for T = 30,000) are
 * exported between the segment's close and the next tick's start, so a transaction that
 * cuts a heartbeat waits for the export. Into a fresh buffer the export is dominated by the
 * first write to each page (page faults: 5 ms for 1.3 MB on the 2-core VM, against 0.08 ms
 * for the same copy into memory already written). So the clock keeps one spare buffer and
 * writes its pages a slice at a time while a heartbeat has nothing to do but wait
 * (`prepare`, between squaring chunks), and exports into it when it is ready (`ready`).
 * The spare is sized for the largest export seen, plus a quarter, up to MAX_SPARE_BYTES;
 * the exported view moves to the pool with its whole buffer (docs/sequencer.md "Clock
 * cadence"), and the next spare is prepared afresh.
 *
 * It does not export anything itself or decide when a tick closes (clock-loop.ts).
 */

/** Bytes written per prepare() call: at most ~16 page faults between two looks at the rings. */
export const PREPARE_SLICE_BYTES = 64 * 1024;
/** The largest spare kept (longer segments export into a new array, as without a spare). */
export const MAX_SPARE_BYTES = 8 * 1024 * 1024;

export class CheckpointBuffer {
  private spare: Uint8Array | undefined;
  private written = 0;
  private wanted = 0;

  /** Write the next slice of the spare (allocating it first); nothing once it is ready or no size is known. */
  prepare(): void {
    if (this.wanted === 0) return;
    if (this.spare === undefined) {
      this.spare = new Uint8Array(this.wanted);
      this.written = 0;
    }
    if (this.written >= this.spare.length) return;
    const end = Math.min(this.spare.length, this.written + PREPARE_SLICE_BYTES);
    this.spare.fill(0, this.written, end);
    this.written = end;
  }

  /** The spare, once every page of it is written; undefined before. */
  ready(): Uint8Array | undefined {
    return this.spare !== undefined && this.written >= this.spare.length ? this.spare : undefined;
  }

  /**
   * After an export: remember its size for the next spare, and give up the spare when the
   * export went into it (its buffer leaves this thread).
   */
  exported(checkpoints: Uint8Array): void {
    this.wanted = Math.min(MAX_SPARE_BYTES, Math.max(this.wanted, Math.ceil(checkpoints.byteLength * 1.25)));
    if (this.spare !== undefined && checkpoints.buffer === this.spare.buffer) this.spare = undefined;
    else if (this.spare !== undefined && this.spare.length < this.wanted) this.spare = undefined; // outgrown
  }
}
