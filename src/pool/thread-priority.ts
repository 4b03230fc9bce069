/**
 * Lower the calling thread's scheduling priority (Linux: nice values are per thread, and
 * /proc/thread-self names the thread). The pool's VDF work (a heartbeat's proof takes
 * 15-25 ms, a cut heartbeat's a few ms) must not take a core from the threads that answer
 * users while they compete for one: measured with `npm run bench:latency` on 2 cores, one
 * request at a time, a lone SubmitTx p99 went from 46 to 17 ms and POST /orders p99 from
 * 46 to 14 ms with the pool at nice 15 (docs/benchmarks.md). On an idle core a lower
 * priority changes nothing. Best effort: where /proc/thread-self or setpriority is not
 * available it does nothing and returns undefined.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Nice value of the pool's VDF threads. */
export const VDF_THREAD_NICE = 15;

/** Returns the thread id whose priority was lowered, or undefined where that is not possible. */
export function lowerThreadPriority(nice: number): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(tid) || tid <= 0) return undefined;
    setPriority(tid, nice);
    return tid;
  } catch {
    return undefined;
  }
}
