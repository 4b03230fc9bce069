/**
 * Where a thread's CPU went over a window (issue 25 point 1): reads a V8 `.cpuprofile`
 * (what `node --cpu-prof` writes at exit) and keeps only the samples taken between two
 * instants of the monotonic clock (`process.hrtime`, the clock V8 stamps its samples
 * with), so a profile of a whole run gives the steady state of a load window without the
 * start-up. Self time is summed per function and per module (an npm package, a Node
 * internal area, a folder of the node's own code, V8's own `(garbage collector)` and
 * `(program)`), and inclusive time per function (each function once per sample, however
 * deep its recursion). `(idle)` is reported apart and is in no other total.
 *
 * It does not say what a native frame did (those show as `(program)` or in the JS caller's
 * self time), and sampling resolution is the profile's interval (1 ms with `--cpu-prof`
 * unless `--cpu-prof-interval` says otherwise).
 *
 *   node dist/bench/support/cpu-profile.js FILE.cpuprofile [FROM_US TO_US] [--orders N]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A V8 CPU profile as Node writes it. */
interface Profile {
  nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface ProfileSummary {
  /** Sampled time in the window, (idle) excluded, ms. */
  busy_ms: number;
  idle_ms: number;
  samples: number;
  modules: Array<[string, number]>;
  self: Array<[string, number]>;
  inclusive: Array<[string, number]>;
}

/** Summarise `file` over [fromUs, toUs] (monotonic µs; the whole profile when omitted), top `top` rows each. */
export function summarizeProfile(file: string, fromUs = -Infinity, toUs = Infinity, top = 40): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const modules = new Map<string, number>();
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  let samples = 0;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    // A sample's weight is the time until the next one (the last one's: the previous gap).
    const weight = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]!) / 1000;
    if (t < fromUs || t > toUs) continue;
    const node = byId.get(profile.samples[i]!)!;
    samples++;
    if (node.callFrame.functionName === '(idle)') {
      idle += weight;
      continue;
    }
    busy += weight;
    add(self, frameName(node.callFrame), weight);
    add(modules, moduleOf(node.callFrame), weight);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const name = frameName(byId.get(id)!.callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      add(inclusive, name, weight);
    }
  }
  inclusive.delete('(root)');
  return {
    busy_ms: rnd(busy),
    idle_ms: rnd(idle),
    samples,
    modules: topOf(modules, top),
    self: topOf(self, top),
    inclusive: topOf(inclusive, top),
  };
}

// Run as a script: print the summary as JSON, with µs per order when --orders is given.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, from, to] = process.argv.slice(2).filter((a, i, all) => a !== '--orders' && all[i - 1] !== '--orders');
  const orders = process.argv.includes('--orders') ? Number(process.argv[process.argv.indexOf('--orders') + 1]) : 0;
  const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
  const summary = summarizeProfile(file!, num(from), num(to));
  console.log(JSON.stringify(orders > 0 ? perOrder(summary, orders) : summary, null, 1));
}

/** The same summary with every figure as µs per order. */
export function perOrder(summary: ProfileSummary, orders: number): ProfileSummary & { orders: number } {
  const us = (rows: Array<[string, number]>): Array<[string, number]> =>
    rows.map(([k, ms]) => [k, rnd((ms * 1000) / orders)]);
  return { ...summary, orders, modules: us(summary.modules), self: us(summary.self), inclusive: us(summary.inclusive) };
}

// ---------------------------------------------------------------- helpers

function add(map: Map<string, number>, key: string, ms: number): void {
  map.set(key, (map.get(key) ?? 0) + ms);
}

function topOf(map: Map<string, number>, top: number): Array<[string, number]> {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => [k, rnd(v)]);
}

function rnd(n: number): number {
  return Math.round(n * 100) / 100;
}

/** `name file:line`, the file shortened to its package or the repository's own path. */
function frameName(f: CallFrame): string {
  if (f.url === '') return f.functionName || '(anonymous)';
  return `${f.functionName || '(anonymous)'} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length);
  const dist = url.lastIndexOf('/dist/');
  if (dist >= 0) return url.slice(dist + '/dist/'.length);
  return url;
}

/** An npm package, `node:<area>` for Node's internals, the folder of the node's own code, or V8's own entry. */
function moduleOf(f: CallFrame): string {
  if (f.url === '') return f.functionName;
  const nm = f.url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = f.url.slice(nm + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (f.url.startsWith('node:')) return f.url.split('/').slice(0, 3).join('/').replace(/\.js$/, '');
  const path = shortUrl(f.url).split('/');
  return path.slice(0, -1).join('/') || path[0]!;
}
