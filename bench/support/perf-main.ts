/**
 * bench:loaded's `--perf DIR`: an on-CPU profile of the leader's main thread over the load
 * window, by Linux `perf` (sampling only while the thread runs), summed per area of the code.
 *
 * Why not V8's `--cpu-prof` (`--profile`) alone: V8 samples on a timer and charges the time
 * between two samples to the second one's stack, so while the thread waits for a core (on a
 * loaded 2-core machine, most of the window) the time lands on whatever it was doing when it
 * was preempted: a futex wake (a ring's `Atomics.notify`, piscina's post) showed as hundreds of
 * ms of "self" time. perf counts only samples taken while the thread is on a CPU.
 *
 * The node must run with `--perf-basic-prof` (V8 writes /tmp/perf-<pid>.map, so JS frames get
 * names). Each sample goes to the innermost frame of svc's own code on its stack (dist/src/<area>),
 * so a library or builtin is charged to the svc code that called it (LevelDB under the chain's
 * write is the chain's); a sample with no svc frame goes to its innermost JavaScript module
 * (Node's HTTP/2, streams, timers; a package) or, with none, to native (GC, libuv, kernel).
 * What it does not do: attribute time between processes or threads (that is /proc's job).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The id of the thread of process `pid` named `name` (/proc/<pid>/task/<tid>/comm), if any. */
export function threadNamed(pid: number, name: string): number | undefined {
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === name) return Number(tid);
    } catch {
      // the thread ended meanwhile
    }
  }
  return undefined;
}

export interface PerfRecording {
  /** Stop sampling; resolves once perf has written its file. */
  stop(): Promise<void>;
  file: string;
}

/** Whether `perf` can run here (the bench then records; else it reports why not). */
export function perfAvailable(): string | undefined {
  const r = spawnSync('perf', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : 'perf is not installed (Debian: linux-perf)';
}

/** Sample thread `tid` (a process's main thread: its pid) at `hz` until stop(), into `<label>-<tid>.perf.data`. */
export function recordThread(tid: number, dir: string, hz = 999, label = 'main'): PerfRecording {
  const file = join(dir, `${label}-${tid}.perf.data`);
  const child: ChildProcess = spawn('perf', ['record', '-q', '-F', String(hz), '-g', '-t', String(tid), '-o', file], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    file,
    stop: async () => {
      child.kill('SIGINT');
      await exited;
    },
  };
}

export interface PerfSummary {
  samples: number;
  /** [area, share of the thread's on-CPU samples in %], largest first. */
  areas: Array<[string, number]>;
}

/** Read a recording's stacks and sum them per area (see the file's docblock). */
export function summarizePerf(file: string, top = 25): PerfSummary | { error: string } {
  const r = spawnSync('perf', ['script', '-i', file, '-F', 'ip,sym'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) return { error: `perf script failed: ${r.stderr.slice(0, 300)}` };
  const counts = new Map<string, number>();
  let samples = 0;
  for (const stack of r.stdout.split('\n\n')) {
    const frames = stack
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.length > 0)
      .map((l) => l.slice(l.indexOf(' ') + 1));
    if (frames.length === 0) continue;
    samples++;
    const area = areaOf(frames);
    counts.set(area, (counts.get(area) ?? 0) + 1);
  }
  const areas = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([a, n]): [string, number] => [a, Math.round((1000 * n) / Math.max(1, samples)) / 10]);
  return { samples, areas };
}

// ---------------------------------------------------------------- helpers

/** Frames leaf first. */
function areaOf(frames: string[]): string {
  for (const f of frames) {
    const own = /\/dist\/src\/([^ ]+)\/[^/ ]+\.js:/.exec(f);
    if (own) return `src/${own[1]}`;
  }
  for (const f of frames) {
    if (!f.startsWith('JS:')) continue;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f);
    if (pkg) return pkg[1]!;
    const internal = /(node:[a-z_]+(?:\/[a-z_0-9]+)?)/.exec(f);
    if (internal) return internal[1]!;
  }
  const leaf = frames[0]!;
  if (/Scaveng|MarkCompact|Heap::|GC|Sweep|Mark/.test(leaf)) return '(garbage collector)';
  return '(native: libuv, kernel, V8 runtime)';
}
