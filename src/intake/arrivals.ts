/**
 * Arrival order for submissions whose intake runs elsewhere (issue 8 point 2): a
 * submission takes its place when it arrives, its intake (a worker task, or inline) may
 * finish in any order, and admission runs strictly in arrival order: a reorder buffer. A submission that is ready with nobody ahead of it is admitted
 * at once, synchronously (the inline case: no queueing, no extra turn of the event loop).
 *
 * An intake that fails (a malformed request) leaves the line without being admitted; the
 * ones behind it go on.
 */
import { Fifo } from './fifo.js';

/**
 * Requests waiting in an arrival line (their intake on a worker not done, or one ahead of
 * them not done): beyond this a submission is refused with RESOURCE_EXHAUSTED at once,
 * so a flood of large batches cannot pile up memory before the queue-capacity check.
 */
export const MAX_ARRIVALS_WAITING = 256;

interface Slot<T, R> {
  ready: boolean;
  value?: T;
  error?: unknown;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

export class ArrivalQueue<T, R> {
  private readonly line = new Fifo<Slot<T, R>>();

  /** `admit` runs once per submission, in arrival order; what it returns or throws is the submission's outcome. */
  constructor(private readonly admit: (value: T) => R) {}

  /** Submissions waiting for their intake or for one ahead of them. */
  get waiting(): number {
    return this.line.length;
  }

  /** Take a place now; resolves with admit(value) once every earlier submission was admitted. */
  submit(work: T | Promise<T>): Promise<R> {
    if (!(work instanceof Promise) && this.line.length === 0) {
      try {
        return Promise.resolve(this.admit(work));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return new Promise<R>((resolve, reject) => {
      const slot: Slot<T, R> = { ready: false, resolve, reject };
      this.line.push(slot);
      Promise.resolve(work).then(
        (value) => {
          slot.ready = true;
          slot.value = value;
          this.drain();
        },
        (err: unknown) => {
          slot.ready = true;
          slot.error = err ?? new Error('intake failed');
          this.drain();
        },
      );
    });
  }

  private drain(): void {
    while (this.line.length > 0 && this.line.at(0).ready) {
      const slot = this.line.at(0);
      this.line.drop(1);
      if (slot.error !== undefined) {
        slot.reject(slot.error);
        continue;
      }
      try {
        slot.resolve(this.admit(slot.value as T));
      } catch (err) {
        slot.reject(err);
      }
    }
  }
}
