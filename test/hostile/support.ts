/**
 * Shared pieces of the hostile suite (test/hostile/): a real `svc node` child process per
 * file, raw HTTP and gRPC requests that a broken or malicious client could send, and
 * `stillServes`, the check every hostile test ends with: after the bad input, other clients
 * still get answers on every face within a bound.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { request } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNode, type NodeProcess } from '../support/node-process.js';

/** How long another client may wait for an answer after hostile input (loaded 2-core CI box). */
export const ANSWER_BOUND_MS = 2_000;

export interface HostileNode extends NodeProcess {
  dir: string;
  stop(): Promise<void>;
}

export async function startHostileNode(extraArgs: string[] = []): Promise<HostileNode> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-hostile-'));
  const entry = extraArgs.includes('--grpc-entry-addr') ? ['grpc-entry'] : [];
  const node = await spawnNode(dir, ['--idle-tick-ms', '20', ...extraArgs], ['grpc', 'rest', 'dex', ...entry]);
  return {
    ...node,
    dir,
    async stop() {
      node.child.kill('SIGKILL');
      await node.exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

/** One HTTP request with exactly the given body bytes and headers (nothing added but Host). */
export function http(
  address: string,
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const [host, port] = splitAddress(address);
  return new Promise((resolve, reject) => {
    const req = request({ host, port, method, path, headers: { connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, text, json: <T>() => JSON.parse(text) as T });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** POST a JSON body (a string is sent as is, anything else JSON.stringify'd). */
export function postJson(address: string, path: string, body: unknown): Promise<HttpAnswer> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return http(address, 'POST', path, text, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
}

export function splitAddress(address: string): [string, number] {
  const i = address.lastIndexOf(':');
  return [address.slice(0, i).replace(/^\[|\]$/g, ''), Number(address.slice(i + 1))];
}

/** Raw unary call with arbitrary request bytes; resolves with the status code (OK = 0) and details. */
export function rawCall(
  address: string,
  method: string,
  body: Buffer,
  service = 'svc.sequencer.v1.SequencerService',
): Promise<{ code: number; details: string; response?: Buffer }> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      `/${service}/${method}`,
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
      (err, res) => {
        client.close();
        resolve(err ? { code: err.code, details: err.details } : { code: 0, details: 'OK', response: res });
      },
    );
  });
}

/** Raw server-streaming call to a sequencer method: resolves with the status and how many messages arrived first. */
export function rawStream(
  address: string,
  method: string,
  body: Buffer,
  take = 1,
): Promise<{ code: number; details: string; messages: number }> {
  return rawStreamOf(address, `/svc.sequencer.v1.SequencerService/${method}`, body, take);
}

/** Raw server-streaming call to any method path (`/package.Service/Method`); stops after `take` messages. */
export function rawStreamOf(
  address: string,
  path: string,
  body: Buffer,
  take = 1,
): Promise<{ code: number; details: string; messages: number }> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    const call = client.makeServerStreamRequest(
      path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
    );
    let messages = 0;
    const done = (code: number, details: string) => {
      client.close();
      resolve({ code, details, messages });
    };
    call.on('data', () => {
      if (++messages >= take) {
        call.cancel();
        done(0, 'OK');
      }
    });
    call.on('error', (e: grpc.ServiceError) => done(e.code, e.details));
    call.on('end', () => done(0, 'ended'));
  });
}

export async function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every face of the node answers a fresh client within `ms`: gRPC GetStatus, REST and order book health. */
export async function stillServes(node: { addresses: Record<string, string> }, ms = ANSWER_BOUND_MS): Promise<void> {
  const status = await within('gRPC GetStatus', ms, rawCall(node.addresses.grpc!, 'GetStatus', Buffer.alloc(0)));
  expect(status.code, status.details).to.equal(0);
  const rest = await within('REST /api/v1/health', ms, http(node.addresses.rest!, 'GET', '/api/v1/health'));
  expect(rest.status).to.equal(200);
  if (node.addresses.dex) {
    const dex = await within('order book /health', ms, http(node.addresses.dex, 'GET', '/health'));
    expect(dex.status).to.equal(200);
  }
}

/** Milliseconds a GET takes to answer (wall clock). */
export async function timeGet(address: string, path: string): Promise<number> {
  const t0 = performance.now();
  const res = await http(address, 'GET', path);
  expect(res.status).to.equal(200);
  return performance.now() - t0;
}

/**
 * What a process's threads are doing, for a test whose node stopped answering: each
 * thread's name, state, kernel wait channel and CPU over one second (Linux /proc), and the
 * node's own stderr. A frozen event loop shows as a `node` thread at 100 (a busy loop) or
 * asleep with its wait channel (a blocking call).
 */
export async function describeProcess(node: HostileNode): Promise<string> {
  const pid = node.child.pid;
  if (pid === undefined) return 'no pid';
  const sample = async () => {
    const out = new Map<string, { name: string; state: string; cpu: number; wchan: string }>();
    for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
      const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '');
      const m = /^\d+ \((.*)\) (\S) (.*)$/.exec(stat.trim());
      if (!m) continue;
      const rest = m[3]!.split(' ');
      const wchan = await readFile(`/proc/${pid}/task/${tid}/wchan`, 'utf8').catch(() => '?');
      out.set(tid, { name: m[1]!, state: m[2]!, cpu: Number(rest[11]) + Number(rest[12]), wchan });
    }
    return out;
  };
  const a = await sample();
  await new Promise((r) => setTimeout(r, 1000));
  const b = await sample();
  const lines = [...b].map(
    ([tid, t]) => `  ${tid} ${t.name} ${t.state} cpu ${t.cpu - (a.get(tid)?.cpu ?? t.cpu)}/100 wchan ${t.wchan}`,
  );
  return `node pid ${pid}, threads (CPU ticks in 1 s):\n${lines.join('\n')}\nstderr (tail):\n${node.stderr().slice(-4000)}`;
}
