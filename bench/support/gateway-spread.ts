/**
 * How the order book port's connections spread over the gateway processes, from Linux /proc
 * (no counter inside the node): the established TCP connections on a local port that each
 * process holds (its socket file descriptors matched against /proc/net/tcp and tcp6).
 * Used by bench/dex-gateways.ts, as a child process (startChild, processes.ts) so that the
 * sampling costs the bench's own main thread (the node's ordering thread) nothing: job
 * `{ pids, port, everyMs }`, then `{ stop: true }` for the result. Zeros where /proc is not there.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const ESTABLISHED = '01';

/** Established connections on local `port` held by each of `pids`, in that order. */
export function connectionsByPid(pids: number[], port: number): number[] {
  const inodes = establishedInodes(port);
  return pids.map((pid) => {
    let n = 0;
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      return 0; // gone
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1]!)) n++;
      } catch {
        // closed meanwhile
      }
    }
    return n;
  });
}

/**
 * Samples `connectionsByPid` every `everyMs` until stopped; `stop()` gives, per pid, the
 * largest count seen and the mean over the samples where any connection was open.
 */
export function sampleSpread(pids: number[], port: number, everyMs = 250): { stop(): SpreadResult } {
  const max = pids.map(() => 0);
  const sum = pids.map(() => 0);
  let samples = 0;
  const timer = setInterval(() => {
    const now = connectionsByPid(pids, port);
    if (now.every((n) => n === 0)) return;
    samples++;
    now.forEach((n, i) => {
      max[i] = Math.max(max[i]!, n);
      sum[i]! += n;
    });
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { max, mean: sum.map((s) => (samples === 0 ? 0 : Math.round(s / samples))) };
    },
  };
}

export interface SpreadJob {
  pids: number[];
  port: number;
  everyMs: number;
}

/** Per gateway (the job's pid order): most connections seen at once, and the mean while any were open. */
export interface SpreadResult {
  max: number[];
  mean: number[];
}

if (process.send) {
  process.once('message', (job: SpreadJob) => {
    const s = sampleSpread(job.pids, job.port, job.everyMs);
    process.on('message', (m: { stop?: boolean }) => {
      if (m.stop) process.send!({ result: s.stop() }, () => process.exit(0));
    });
    process.send!({ ready: true });
  });
}

/** Socket inodes of the established connections whose local port is `port`. */
function establishedInodes(port: number): Set<string> {
  const out = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      if (f[1]!.endsWith(`:${hexPort}`) && f[3] === ESTABLISHED) out.add(f[9]!);
    }
  }
  return out;
}
