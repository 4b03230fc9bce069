/**
 * Child process: HTTP GET load on a list of paths with keep-alive connections and a
 * fixed number of requests in flight; reports requests/s and latency percentiles.
 */
import { Agent, request } from 'node:http';
import { percentile } from './stats.js';

export interface HttpJob {
  base: string; // http://host:port
  paths: string[]; // requested round-robin
  seconds: number;
  inFlight: number;
}

export interface HttpResult {
  requests: number;
  errors: number; // non-200 answers or failures
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

async function run(job: HttpJob): Promise<HttpResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.inFlight });
  const url = new URL(job.base);
  const latencies: number[] = [];
  let errors = 0;
  let i = 0;
  const get = (path: string) =>
    new Promise<number>((resolve) => {
      const req = request({ host: url.hostname, port: url.port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
  for (const p of job.paths.slice(0, 10)) await get(p); // warm-up
  const start = performance.now();
  const deadline = start + job.seconds * 1000;
  await Promise.all(
    Array.from({ length: job.inFlight }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        const status = await get(job.paths[i++ % job.paths.length]!);
        latencies.push(performance.now() - t);
        if (status !== 200) errors++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    perSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

process.on('message', (job: HttpJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
  );
});
