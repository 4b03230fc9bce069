/**
 * CPU time from Linux /proc (utime + stime, clock ticks of 10 ms), for benchmarks that
 * report CPU per item: a thread's own counter does not grow while the thread waits for a
 * core, so it stays meaningful on a loaded machine. NaN where /proc is not there.
 */
import { readFileSync } from 'node:fs';

/** CPU ms of the /proc stat file at `path` (a process or one of its threads). */
export function cpuMsOfStat(path: string): number {
  try {
    const stat = readFileSync(path, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

/** CPU ms of one thread (default: the main thread of this process). */
export function threadCpuMs(pid = process.pid, tid = pid): number {
  return cpuMsOfStat(`/proc/${pid}/task/${tid}/stat`);
}

/** CPU ms of a whole process, every thread (default: this one). */
export function processCpuMs(pid?: number): number {
  return cpuMsOfStat(pid === undefined ? '/proc/self/stat' : `/proc/${pid}/stat`);
}

/** CPU ns of this process's main thread so far, from its scheduler counter (Linux /proc schedstat; NaN elsewhere). */
export function threadCpuNs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return NaN;
  }
}
