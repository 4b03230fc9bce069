/**
 * Hostile FollowService clients against a real node (issue 19 points 3 and 4,
 * docs/full-node.md "FollowService limits"): 300 StreamBlockRoots{from_height: 1} on one
 * HTTP/2 connection whose window is 0, and 5 such connections from one address, in a child
 * process. Past the limits every stream is refused with RESOURCE_EXHAUSTED naming the limit;
 * the admitted ones are reset after the stall timeout; another client's /api/v1/status
 * answers within a bound during and after; the slots and the memory come back. Malformed
 * request bodies answer INVALID_ARGUMENT with a message, on both methods.
 */
import { expect } from 'chai';
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Transaction } from '../../src/core/types.js';
import { marketTx } from '../chain/support/flow.js';
import { SequencerClient } from '../support/grpc-client.js';
import { http, rawStreamOf, startHostileNode, stillServes, type HostileNode } from './support.js';

const ROOTS = '/svc.follow.v1.FollowService/StreamBlockRoots';
const SNAPSHOT = '/svc.follow.v1.FollowService/StreamSnapshot';
const CLIENT = fileURLToPath(new URL('./zero-window-client.js', import.meta.url));
const STATUS_BOUND_MS = 1_000; // another client's /api/v1/status, worst of the samples (2 loaded cores)

/** The node builds no empty blocks: one market creation per block window makes `count` blocks. */
async function makeBlocks(grpcAddress: string, count: number): Promise<void> {
  const client = new SequencerClient(grpcAddress);
  const wire = (tx: Transaction) => ({
    tx_id: tx.txId,
    payload: Buffer.from(tx.payload),
    signature: Buffer.from(tx.signature),
    public_key: Buffer.from(tx.publicKey),
    nonce: tx.nonce.toString(),
    timestamp: tx.timestamp.toString(),
  });
  try {
    for (let i = 0; i < count; i++) {
      await client.submit(wire(marketTx(1000 + 2 * i, 1001 + 2 * i, `M${i}/Q${i}`)));
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    client.raw.close();
  }
}

async function metric(rest: string, name: string): Promise<number> {
  const text = (await http(rest, 'GET', '/metrics')).text;
  return Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
}

async function until(what: string, ms: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function rssMiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? NaN) / 1024;
}

/** Milliseconds of `count` GET /api/v1/status, one after another. */
async function statusTimes(rest: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const r = await http(rest, 'GET', '/api/v1/status');
    expect(r.status).to.equal(200);
    out.push(performance.now() - t0);
  }
  return out;
}

interface Report {
  admitted: number;
  refused: string[];
  details: string[];
}

function ask<T>(child: ChildProcess, msg: unknown): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(msg as object);
  });
}

describe('hostile: FollowService clients (real node)', function () {
  this.timeout(60_000);
  let node: HostileNode;
  let rest: string;
  let child: ChildProcess | undefined;
  before(async () => {
    node = await startHostileNode(['--block-ms', '20', '--stream-stall-ms', '1000']);
    rest = node.addresses.rest!;
    await makeBlocks(node.addresses.grpc!, 120);
    await until(
      '100 blocks',
      10_000,
      async () =>
        ((await http(node.addresses.rpc!, 'GET', '/status')).json<{ block_height: number }>().block_height ?? 0) >= 100,
    );
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    child = undefined;
  });
  after(async () => node?.stop());

  async function attack(connections: number, streams: number): Promise<{ report: Report; during: number[] }> {
    child = fork(CLIENT, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const reported = ask<Report>(child, { address: node.addresses.grpc, connections, streams });
    const during = await statusTimes(rest, 20);
    return { report: await reported, during };
  }

  it('300 zero-window StreamBlockRoots on one connection: 8 admitted, the rest RESOURCE_EXHAUSTED naming the limit; others are served; slots and memory come back', async () => {
    const rssBefore = rssMiB(node.child.pid!);
    const { report, during } = await attack(1, 300);
    expect(report.admitted).to.equal(8);
    expect(report.refused).to.have.length(292);
    expect(new Set(report.refused)).to.deep.equal(new Set(['8'])); // RESOURCE_EXHAUSTED
    expect(report.details).to.deep.equal([
      'too many FollowService streams open on this connection (at most 8); close some or retry later',
    ]);
    expect(
      Math.max(...during),
      `/api/v1/status during the attack: ${during.map((t) => t.toFixed(0)).join(' ')} ms`,
    ).to.be.below(STATUS_BOUND_MS);
    // Another client still gets its roots, from block 1.
    const other = await rawStreamOf(node.addresses.grpc!, ROOTS, Buffer.from([0x08, 0x01]), 50);
    expect(other).to.include({ code: 0, messages: 50 });
    // The admitted streams never take a byte: reset after the stall timeout (1 s here), their slots free.
    await until(
      'the stalled streams reset',
      10_000,
      async () => (await ask<{ resets: number }>(child!, 'count')).resets >= 8,
    );
    await until('svc_stream_clients back to 0', 5_000, async () => (await metric(rest, 'svc_stream_clients')) === 0);
    const after = await statusTimes(rest, 10);
    expect(Math.max(...after)).to.be.below(STATUS_BOUND_MS);
    await stillServes(node);
    expect(rssMiB(node.child.pid!) - rssBefore, 'RSS growth, MiB').to.be.below(64);
  });

  it('connections from one address: at most 32 streams in all (RESOURCE_EXHAUSTED naming the address limit); released when the client dies', async () => {
    const { report } = await attack(5, 8);
    expect(report.admitted).to.equal(32);
    expect(report.refused).to.deep.equal(Array(8).fill('8'));
    expect(report.details).to.deep.equal([
      'too many FollowService streams open from this address (at most 32); close some or retry later',
    ]);
    child!.kill('SIGKILL');
    child = undefined;
    await until('svc_stream_clients back to 0', 5_000, async () => (await metric(rest, 'svc_stream_clients')) === 0);
    await stillServes(node);
  });

  it('malformed request bodies answer INVALID_ARGUMENT with a message (StreamBlockRoots and StreamSnapshot)', async () => {
    const bodies: Array<[string, string, RegExp]> = [
      [ROOTS, 'ffffffff', /malformed StreamBlockRootsRequest: truncated varint/],
      [ROOTS, '08ff', /malformed StreamBlockRootsRequest: truncated varint/],
      [ROOTS, '0a0131', /from_height has wire type 2, expected 0/],
      [ROOTS, '08ffffffffffffffffffff01', /varint longer than 10 bytes/],
      [ROOTS, '0001', /field number 0/],
      [ROOTS, '0f00', /undefined wire type 7/],
      [ROOTS, '08ffffffffffffffff7f', /from_height \d+ is above 2\^53 - 1/],
      [SNAPSHOT, 'ffffffff', /malformed StreamSnapshotRequest: truncated varint/],
      [SNAPSHOT, '0001', /malformed StreamSnapshotRequest: field number 0/],
    ];
    for (const [path, hex, why] of bodies) {
      const r = await rawStreamOf(node.addresses.grpc!, path, Buffer.from(hex, 'hex'));
      expect(r.code, `${path} ${hex}: ${r.details}`).to.equal(3); // INVALID_ARGUMENT
      expect(r.details, `${path} ${hex}`).to.match(why);
    }
    await stillServes(node);
  });
});
