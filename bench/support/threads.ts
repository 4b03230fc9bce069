/**
 * Per-thread CPU of a running node, black-box from Linux /proc (issue 25 point 1): every
 * thread of the node process by its name (`main`, the `svc-<role>` names the node's worker
 * threads take, `other` for V8's and libuv's own), plus its child processes (gateways) as
 * `gateway`. Take a sample before and after a measured window; `cpuDelta` gives CPU ms per
 * thread over it, which a bench divides by ticks or orders.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ms per thread name (and `gateway` for child processes), at one instant. */
export type ThreadCpu = Map<string, number>;

/** Sample the node process `pid` and its children. */
export function sampleThreads(pid: number): ThreadCpu {
  const out: ThreadCpu = new Map();
  const add = (name: string, ms: number): void => void out.set(name, (out.get(name) ?? 0) + ms);
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const ms = statMs(`/proc/${pid}/task/${tid}/stat`);
    if (ms === undefined) continue;
    add(Number(tid) === pid ? 'main' : nameOf(`/proc/${pid}/task/${tid}/comm`), ms);
  }
  for (const child of childrenOf(pid)) {
    const ms = statMs(`/proc/${child}/stat`);
    if (ms !== undefined) add('gateway', ms);
  }
  return out;
}

/** CPU ms per thread name between two samples (threads that appeared count from 0). */
export function cpuDelta(before: ThreadCpu, after: ThreadCpu): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, ms] of after) out[name] = ms - (before.get(name) ?? 0);
  return out;
}

/** The sum of a delta's threads, optionally without some (e.g. the clock). */
export function totalMs(delta: Record<string, number>, without: string[] = []): number {
  return Object.entries(delta).reduce((sum, [name, ms]) => (without.includes(name) ? sum : sum + ms), 0);
}

/** A thread's `svc-*` name, or `other`. */
function nameOf(commPath: string): string {
  try {
    const comm = readFileSync(commPath, 'utf8').trim();
    return comm.startsWith('svc-') ? comm : 'other';
  } catch {
    return 'other';
  }
}

/** utime + stime in ms (clock ticks of 10 ms); undefined if the thread or process is gone. */
function statMs(path: string): number | undefined {
  try {
    const stat = readFileSync(path, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Direct and indirect child processes of `pid`. */
function childrenOf(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const [child, ppid] of parent) if (ppid === p) out.push(child), walk(child);
  };
  walk(pid);
  return out;
}
