/**
 * New connections to the order book port while the node's ordering thread is saturated
 * (issue 25 point 4; docs/architecture.md "Gateways"): the gateway processes accept
 * connections themselves, so a connection is accepted and answered by a gateway at once
 * however busy the node process's main thread is; requests that need the node process
 * (GET /health, POST /orders) are still answered (accepted, or refused 503) within a bound.
 *
 * The real `svc node` (2 gateways, --intake-threads 0 so SubmitBatch decoding runs on the
 * main thread) under a SubmitBatch flood from a child process; the probe connects afresh for
 * every request from another child process (bench/support/accept-probe.ts).
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChild } from '../../../../bench/support/processes.js';
import type { AcceptProbeJob, AcceptProbeReport } from '../../../../bench/support/accept-probe.js';
import type { IngestJob, IngestResult } from '../../../../bench/support/load-gen.js';
import { DexClient, toBase58 } from '../../../../src/sdk/index.js';
import { spawnNode, type NodeProcess } from '../../../support/node-process.js';

const BASE = new Uint8Array(32).fill(61);
const QUOTE = new Uint8Array(32).fill(62);
/**
 * A gateway's own answer on a fresh connection (loaded 2-core CI box, the node saturated):
 * the median, and every one. With node:cluster's round-robin (the node process accepting
 * and handing over each connection) the median was 1.3-2.1 s and the slowest 2.8 s on a
 * box at load 13-17; with the gateways accepting, 21-34 ms and 167-247 ms, once 1,095 ms
 * (a handshake packet lost on the loaded box and retried by TCP after 1 s): the bound on
 * every answer leaves room for one such retry, the median is the sharp test.
 */
const GATEWAY_P50_MS = 100;
const GATEWAY_BOUND_MS = 1_500;
/** An answer that needs the node process's main thread, while it is saturated. */
const NODE_BOUND_MS = 5_000;

describe('gateway: connections are accepted by the gateways, not by the ordering thread (real node)', function () {
  this.timeout(60_000);
  let dir: string;
  let node: NodeProcess;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-gw-accept-'));
    const args = ['--idle-tick-ms', '20', '--gateways', '2', '--intake-threads', '0'];
    node = await spawnNode(dir, args, ['grpc', 'rest', 'dex']);
    const market = { base_mint: toBase58(BASE), quote_mint: toBase58(QUOTE), name: 'ACCEPT/TEST' };
    await new DexClient(`http://${node.addresses.dex!}`).createMarket(market);
  });
  after(async () => {
    node.child.kill('SIGKILL');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('with the main thread saturated by a SubmitBatch flood, a gateway answers fresh connections at once', async () => {
    // 4 calls of 2,000 transactions in flight, for 7 s at most (150 distinct calls).
    const floodJob: IngestJob = {
      kind: 'batch',
      address: node.addresses.grpc!,
      seconds: 7,
      inFlight: 4,
      batchSize: 2_000,
      prepare: 150,
    };
    const flood = runChild<IngestJob, IngestResult>('load-gen.js', floodJob);
    const floodEnded = flood.then(
      () => performance.now(),
      () => 0,
    );
    // The flood's client encodes its batches first: probe once the main thread is busy.
    await untilBusy(node.child.pid!);
    const cpu0 = await mainThreadSeconds(node.child.pid!);
    const t0 = performance.now();
    const probe: AcceptProbeJob = {
      dex: node.addresses.dex!,
      seconds: 3,
      everyMs: 60,
      kinds: ['gateway', 'health', 'order'],
      giveUpMs: 15_000,
      baseMint: toBase58(BASE),
      quoteMint: toBase58(QUOTE),
      seed: 9,
    };
    const r = await runChild<AcceptProbeJob, AcceptProbeReport>('accept-probe.js', probe);
    const busy = (await mainThreadSeconds(node.child.pid!)) - cpu0;
    const wall = (performance.now() - t0) / 1000;
    const ingest = await flood;
    const covered = (await floodEnded) >= t0 + probe.seconds * 1000;
    const mainThreadCores = +(busy / wall).toFixed(2);
    const summary = JSON.stringify({ mainThreadCores, ingest: Math.round(ingest.perSecond), ...figures(r) });
    // The flood was being ordered throughout the probe. (How much of a core the main thread
    // got is reported, not asserted: on a loaded box it is starved rather than saturated,
    // which delays its event loop all the same.)
    expect(ingest.accepted, summary).to.be.greaterThan(0);
    expect(covered, summary).to.equal(true);
    // Every fresh connection was accepted and answered; the gateway's own answers at once.
    for (const kind of ['gateway', 'health', 'order'] as const) {
      expect(r[kind].failed, `${kind}: ${summary}`).to.equal(0);
      expect(r[kind].ms.length, `${kind}: ${summary}`).to.be.at.least(25);
    }
    expect(Object.keys(r.gateway.statuses), summary).to.deep.equal(['400']);
    expect(median(r.gateway.ms), summary).to.be.at.most(GATEWAY_P50_MS);
    expect(Math.max(...r.gateway.ms), summary).to.be.at.most(GATEWAY_BOUND_MS);
    // What needs the node process waits for its turn, within a bound, accepted or refused.
    expect(Object.keys(r.health.statuses), summary).to.deep.equal(['200']);
    expect(
      Object.keys(r.order.statuses).every((s) => s === '200' || s === '503'),
      summary,
    ).to.equal(true);
    expect(Math.max(...r.health.ms, ...r.order.ms), summary).to.be.at.most(NODE_BOUND_MS);
  });
});

/** Resolves once the process's main thread used a tenth of a core or more over 500 ms (idle: ~0.05). */
async function untilBusy(pid: number): Promise<void> {
  const end = performance.now() + 20_000;
  while (performance.now() < end) {
    const c0 = await mainThreadSeconds(pid);
    await new Promise((r) => setTimeout(r, 500));
    if ((await mainThreadSeconds(pid)) - c0 >= 0.05) return;
  }
  throw new Error('the SubmitBatch flood did not make the main thread busy in 20 s');
}

/** CPU seconds of a process's main thread (user + system) from /proc/<pid>/task/<pid>/stat. */
async function mainThreadSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Infinity;
}

function figures(r: AcceptProbeReport): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [kind, k] of Object.entries(r)) {
    const s = [...k.ms].sort((a, b) => a - b);
    const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? NaN);
    const max = Math.round(s[s.length - 1] ?? NaN);
    if (k.errors.length > 0) out[`${kind}Errors`] = k.errors;
    out[kind] = { n: s.length, p50: at(0.5), p99: at(0.99), max, statuses: k.statuses, failed: k.failed };
  }
  return out;
}
