/**
 * Child process (runChild, processes.ts): new connections to the order book port, one
 * request each, at a steady pace, the way a client that connects per request sees the node.
 * Used by test/dex/api/gateway/accept.test.ts while the node's ordering thread is saturated.
 *
 * Every `everyMs` it opens, for each kind, a fresh TCP connection (no keep-alive) and sends:
 * - `gateway`: POST /orders whose body is not JSON, answered 400 by the gateway process
 *   alone (what no request can avoid: being accepted, parsed, answered);
 * - `health`: GET /health, which the gateway forwards to the node process;
 * - `order`: a signed order for the given market (accepted 200, or refused 503 QUEUE_FULL).
 * It reports, per kind, the milliseconds from connect() to the whole answer, the statuses,
 * and the requests with no answer within `giveUpMs` (or a connection error).
 *
 * With `burst` set it instead opens that many connections at once, each with the `gateway`
 * request (a crowd of clients reconnecting together), and reports them under `gateway`.
 *
 * It does not measure the time to the TCP handshake alone: the kernel completes that for a
 * listening socket whoever accepts, so only an answer shows that a process took the connection.
 */
import { request } from 'node:http';
import { buildOrderBody, fromBase58Key, keyPairFromSeed } from '../../src/sdk/index.js';

export type ProbeKind = 'gateway' | 'health' | 'order';

export interface AcceptProbeJob {
  dex: string; // host:port of the order book port
  seconds: number;
  everyMs: number;
  kinds: ProbeKind[];
  giveUpMs: number;
  /** For `order`: the market's mints (Base58) and a seed for the owner key. */
  baseMint?: string;
  quoteMint?: string;
  seed?: number;
  burst?: number;
}

export interface KindReport {
  ms: number[]; // answered requests: connect() to the end of the answer
  statuses: Record<string, number>;
  failed: number; // no answer within giveUpMs, or a connection error
  errors: string[]; // a few distinct messages
}

export type AcceptProbeReport = Record<ProbeKind, KindReport>;

async function run(job: AcceptProbeJob): Promise<AcceptProbeReport> {
  const report = {} as AcceptProbeReport;
  for (const k of job.kinds) report[k] = { ms: [], statuses: {}, failed: 0, errors: [] };
  const key = keyPairFromSeed(new Uint8Array(32).fill(job.seed ?? 7));
  if (job.burst !== undefined) {
    const body = bodyOf('gateway', job, key, 0n);
    const one = () => record(report.gateway, once(job.dex, 'POST', '/orders', body, job.giveUpMs));
    await Promise.all(Array.from({ length: job.burst }, one));
    return report;
  }
  let orderId = 1n;
  const pending: Array<Promise<void>> = [];
  const end = Date.now() + job.seconds * 1000;
  while (Date.now() < end) {
    for (const kind of job.kinds) {
      const [method, path] = kind === 'health' ? ['GET', '/health'] : ['POST', '/orders'];
      pending.push(record(report[kind], once(job.dex, method, path, bodyOf(kind, job, key, orderId++), job.giveUpMs)));
    }
    await new Promise((resolve) => setTimeout(resolve, job.everyMs));
  }
  await Promise.all(pending);
  return report;
}

/** Adds one request's outcome to its kind's report. */
function record(r: KindReport, answer: Promise<{ status: number; ms: number }>): Promise<void> {
  return answer.then(
    (a) => {
      r.ms.push(a.ms);
      r.statuses[a.status] = (r.statuses[a.status] ?? 0) + 1;
    },
    (err: Error) => {
      r.failed++;
      if (r.errors.length < 5 && !r.errors.includes(err.message)) r.errors.push(err.message);
    },
  );
}

type Keys = ReturnType<typeof keyPairFromSeed>;

function bodyOf(kind: ProbeKind, job: AcceptProbeJob, key: Keys, orderId: bigint): string | undefined {
  if (kind === 'health') return undefined;
  if (kind === 'gateway') return '{not json';
  const intent = {
    orderId,
    owner: key.publicKey,
    side: 'Buy' as const,
    price: 100n,
    quantity: 1n,
    expiry: 0n,
    baseMint: fromBase58Key(job.baseMint!),
    quoteMint: fromBase58Key(job.quoteMint!),
  };
  return JSON.stringify(buildOrderBody(intent, key.secretKey));
}

/** One request on a connection of its own; resolves with its status and duration. */
function once(
  address: string,
  method: string,
  path: string,
  body: string | undefined,
  giveUpMs: number,
): Promise<{ status: number; ms: number }> {
  const i = address.lastIndexOf(':');
  const [host, port] = [address.slice(0, i), Number(address.slice(i + 1))];
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: 'close' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = request({ host, port, method, path, agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.setTimeout(giveUpMs, () => req.destroy(new Error(`no answer in ${giveUpMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

process.once('message', (job: AcceptProbeJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: unknown) => process.send!({ error: err instanceof Error ? err.message : String(err) }, () => process.exit(1)),
  );
});
