/**
 * CPU per thread from Linux /proc, by thread name (docs/architecture.md "Threads and
 * priorities"): the node's worker threads name themselves `svc-<role>` (src/pool), the main
 * thread is the one whose id is the process id, and every other thread (V8's platform
 * threads, libuv's pool, LevelDB's compaction) counts as `other`. Read at scrape time only;
 * where /proc is not there the map is empty.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux clock ticks per second for utime/stime (USER_HZ, 100 on every Linux Node supports). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) summed per thread name: `main`, `svc-clock`, ..., `other`. */
export function cpuSecondsByThread(): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    const seconds = threadSeconds(tid);
    if (seconds === undefined) continue;
    const name = Number(tid) === process.pid ? 'main' : threadLabel(tid);
    out.set(name, (out.get(name) ?? 0) + seconds);
  }
  return out;
}

/** The thread's `svc-*` name, or `other`. */
function threadLabel(tid: string): string {
  try {
    const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
    return comm.startsWith('svc-') ? comm : 'other';
  } catch {
    return 'other';
  }
}

/** utime + stime of one thread in seconds; undefined if it ended meanwhile. */
function threadSeconds(tid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
