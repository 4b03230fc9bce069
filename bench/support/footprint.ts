/**
 * Black-box footprint readers for benchmarks that measure a node from outside (Linux
 * /proc, the file system): the bytes under a database directory (like `du --apparent-size`),
 * the CPU time of a process and all its descendants (the node, its gateway processes and
 * their threads: /proc/<pid>/stat utime + stime), the whole machine's busy CPU time
 * (/proc/stat), and the load average rounded for reports. NaN where /proc is not there.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { processCpuMs } from './cpu.js';

/** Sum of the sizes of the files under `dir` (recursively). */
export async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    try {
      total += e.isDirectory() ? await dirBytes(p) : (await stat(p)).size;
    } catch {
      // a LevelDB file removed by a compaction between readdir and stat
    }
  }
  return total;
}

/** The pids of `root` and every live descendant (from the ppid field of /proc/<pid>/stat). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [root];
  }
  for (const d of pids) {
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(d));
      children.set(ppid, list);
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU ms of the process tree under `root`, per pid (a process that exits mid-phase loses its share). */
export function treeCpuMs(root: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of processTree(root)) {
    const ms = processCpuMs(pid);
    if (!Number.isNaN(ms)) out.set(pid, ms);
  }
  return out;
}

/** CPU ms spent between two treeCpuMs readings (pids in `after`; a new pid counts from 0). */
export function treeCpuDeltaMs(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** The whole machine's busy CPU ms (all cores, /proc/stat: everything but idle and iowait). */
export function machineBusyMs(): number {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return (total - f[3]! - f[4]!) * 10;
  } catch {
    return NaN;
  }
}

/** os.loadavg() rounded to 2 digits: [1 min, 5 min, 15 min]. */
export function loadAverage(): number[] {
  return loadavg().map((x) => Math.round(x * 100) / 100);
}
