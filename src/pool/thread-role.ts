/**
 * Thread roles: each of the node's threads names itself and takes its scheduling priority
 * (docs/architecture.md "Threads and priorities"). The name is the thread's Linux `comm`
 * (`/proc/<pid>/task/<tid>/comm`, at most 15 bytes), so anyone outside the process (a
 * benchmark, `top -H`, `ps -L`) can tell the threads apart and account CPU per thread;
 * the priority is the thread's nice value, set with setpriority(2) on its thread id, so
 * that under saturation the clock, ordering and the node thread's answers run before the
 * pools' per-item work. (Readers and subscribers, on the node thread, are held back by
 * their byte budget and queue bounds, not by a priority.)
 *
 * The nice value is an offset over the process's (its main thread's, so `nice -n 5 svc node`
 * moves every thread by 5), whichever thread started this one (a pool of the node thread
 * takes the pool's offset, not the node thread's plus the pool's): only lower priorities
 * are taken, which needs no privilege, and the main thread and the clock keep the process's own. Where Linux's /proc is not there (other
 * systems) or a call is refused, the thread keeps its name and priority: this never
 * throws, and nothing depends on it but scheduling.
 *
 * It does not rename the main thread: its thread id is the process id, and renaming it
 * would rename the process as `ps` and `pkill` see it.
 */
import { readlinkSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The node's threads, by what they do. */
export type ThreadRole = 'clock' | 'batcher' | 'intake' | 'pool' | 'node';

/**
 * Nice offset per role: 0 for the clock and what feeds it (the main thread keeps the
 * process's value) and for the node thread (every face: lowered, it lost its requests to
 * whatever else ran on the machine, clients included, while the main thread, which needs
 * little, gets its share anyway), +2 for the pools' per-item work (intake checks,
 * signatures, proofs).
 */
export const THREAD_NICE: Readonly<Record<ThreadRole, number>> = {
  clock: 0,
  batcher: 0,
  intake: 2,
  pool: 2,
  node: 0,
};

/** Thread ids this module already moved, so that a second call does not move one twice. */
const niced = new Set<number>();

/** The `comm` name a thread of this role takes: `svc-<role>`. */
export function threadName(role: ThreadRole): string {
  return `svc-${role}`;
}

/**
 * Name the calling thread after its role and set its nice value. Call it first thing in a
 * worker's entry module; calling it again is harmless. Returns the thread id, or undefined
 * where it could not be found (no /proc).
 */
export function takeThreadRole(role: ThreadRole): number | undefined {
  const tid = ownThreadId();
  if (tid === undefined) return undefined;
  // Priority first, name last: a thread seen under its role's name already has its priority.
  try {
    if (!niced.has(tid))
      setPriority(tid, Math.min(19, Math.max(getPriority(tid), getPriority(process.pid) + THREAD_NICE[role])));
    niced.add(tid);
  } catch {
    // refused: the thread keeps the process's priority (scheduling only)
  }
  try {
    writeFileSync('/proc/thread-self/comm', threadName(role));
  } catch {
    // a read-only /proc: the thread keeps its name
  }
  return tid;
}

/** The calling thread's Linux thread id, from the /proc/thread-self link; undefined elsewhere. */
function ownThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}
