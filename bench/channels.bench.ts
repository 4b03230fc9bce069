/**
 * bench:channels - live book channel delivery (issue 21 point 4): N clients (default 1,000)
 * in child processes subscribed to one market's book channel while orders arrive at R per
 * second (default 1,000), measuring delivery latency from the tick's application by the
 * engine to each client's receipt of the tick's delta (p50, p99, max), the deltas delivered,
 * sequence gaps (must be 0), sockets closed by the node (must be 0), and the CPU of the
 * process that applies and fans out.
 *
 * Target today: the channels harness (test/channels/support/harness.ts: the real engine, hub,
 * ws transport and LevelDB in this process; ticks every --tick-ms with the orders of that
 * interval). Phase 2 points it at the real node (`bin/svc.js node`, orders over gRPC
 * SubmitTx) once the channels are wired into the rpc port.
 *
 *   node dist/bench/channels.bench.js [--clients 1000] [--rate 1000] [--seconds 10]
 *                                     [--procs 4] [--tick-ms 10]
 */
import { processCpuMs } from './support/cpu.js';
import { startChild } from './support/processes.js';
import { percentile, round } from './support/stats.js';
import type { BookClientsJob, BookClientsResult } from './support/book-clients.js';
import { sha256 } from '../src/crypto/sha256.js';
import { marketIdOf } from '../src/sdk/market-id.js';
import { BASE, QUOTE, marketTx, orderTx, seeded } from '../test/dex/support/orders.js';
import { ChannelsHarness } from '../test/channels/support/harness.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const clients = arg('clients', 1000);
const rate = arg('rate', 1000);
const seconds = arg('seconds', 10);
const procs = arg('procs', 4);
const tickMs = arg('tick-ms', 10);

const h = await ChannelsHarness.start({ sockets: clients + 100, socketsPerAddress: 64 });
await h.apply([marketTx()]);
const marketId = marketIdOf(BASE, QUOTE, sha256);
const owners = Array.from({ length: 20 }, (_, i) => seeded(i + 1).publicKey);

const children = Array.from({ length: procs }, (_, p) => {
  const share = Math.floor(clients / procs) + (p < clients % procs ? 1 : 0);
  const job: BookClientsJob = { url: h.url, marketId, clients: share, firstAddress: p * Math.ceil(clients / procs) };
  return startChild<BookClientsJob, BookClientsResult>('book-clients.js', job);
});
await Promise.all(children.map((c) => c.ready));
console.log(`bench:channels: ${clients} clients in ${procs} processes on one book channel; ${rate} orders/s in ticks of ${tickMs} ms for ${seconds} s (harness)`);

let seed = 7;
const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
let orderId = 0;
h.recordAppliedTimes = true;
const cpu0 = processCpuMs();
const t0 = performance.now();
let sent = 0;
while (performance.now() - t0 < seconds * 1000) {
  const due = Math.floor(((performance.now() - t0) / 1000) * rate);
  const txs = [];
  for (; sent < due; sent++) txs.push(orderTx(owners[rnd(owners.length)]!, ++orderId, rnd(2) === 0 ? 'Buy' : 'Sell', 90 + rnd(21), 1 + rnd(5)));
  if (txs.length > 0) await h.apply(txs);
  await new Promise((resolve) => setTimeout(resolve, tickMs));
}
const wallMs = performance.now() - t0;
const cpuMs = processCpuMs() - cpu0;
await new Promise((resolve) => setTimeout(resolve, 500)); // let the last deltas arrive

const results = await Promise.all(
  children.map((c) => {
    c.stop();
    return c.result;
  }),
);
const latencies: number[] = [];
let deltas = 0;
let gaps = 0;
let closed = 0;
for (const r of results) {
  deltas += r.deltas;
  gaps += r.gaps;
  closed += r.closed;
  for (const [tick, recvUs] of r.samples) {
    const applied = h.appliedUs.get(tick);
    if (applied !== undefined) latencies.push((recvUs - applied) / 1000);
  }
}
latencies.sort((a, b) => a - b);
const report = {
  clients,
  orders_per_s: round(sent / (wallMs / 1000)),
  ticks: h.appliedUs.size,
  deltas_delivered: deltas,
  deltas_per_client_per_s: round(deltas / clients / (wallMs / 1000)),
  latency_ms: { p50: round(percentile(latencies, 50), 2), p99: round(percentile(latencies, 99), 2), max: round(latencies[latencies.length - 1] ?? NaN, 2) },
  gaps,
  closed_by_node: closed + h.hub.slowClosed,
  node_cpu_cores: round(cpuMs / wallMs, 2),
};
console.log(JSON.stringify(report, null, 2));
await h.close();
process.exit(0);
