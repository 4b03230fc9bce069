/**
 * `npm run bench:retention`: what the in-memory tick window (--retain-ticks, --retain-bytes;
 * docs/operations.md "Memory") costs at the rates a user runs. The real node (`svc node`, temp
 * LevelDB, default flags) takes ~200-byte transactions at fixed rates (bench/support/latency-gen:
 * a small SubmitBatch every 5 ms; it also follows StreamTicks) for BENCH_SECONDS each, and idles
 * as long. GetStatus before and after gives ticks per second and transactions per tick. The bytes
 * one retained tick of that shape takes are measured by packing such ticks into the node's own
 * memory store (src/store/memory-store.ts: record bytes + 4-byte offset), from which: MB retained
 * per second, how long until the 1,000,000-tick default is reached and how much that is, and how
 * long until the 1 GiB --retain-bytes default binds instead.
 *
 * Then the node's RSS under BENCH_RSS_SECONDS of the same fixed-rate load (BENCH_RSS_RATE tx/s),
 * sampled every 10 s from /metrics, for a node with the default bounds and one with
 * --retain-bytes 64MiB: what the byte bound does to the process as a whole. The last line is
 * one JSON object. Env: BENCH_SECONDS (default 5), BENCH_RATES (default "1000,10000"),
 * BENCH_RSS_SECONDS (default 60; 0 skips), BENCH_RSS_RATE (default 5000).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tick } from '../src/core/types.js';
import { transactionHash } from '../src/core/tx-hash.js';
import { MemoryTickStore } from '../src/store/memory-store.js';
import { SequencerClient } from '../test/support/grpc-client.js';
import type { LatencyJob, LatencyResult } from './support/latency-gen.js';
import { runChild, spawnNode } from './support/processes.js';
import { benchTransaction } from './support/requests.js';
import { round } from './support/stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RATES = (process.env.BENCH_RATES ?? '1000,10000').split(',').map(Number);
const RSS_SECONDS = Number(process.env.BENCH_RSS_SECONDS ?? 60);
const RSS_RATE = Number(process.env.BENCH_RSS_RATE ?? 5000);
const DEFAULT_TICKS = 1_000_000;
const DEFAULT_BYTES = 1024 ** 3;

function element(seed: string): Uint8Array {
  const out = new Uint8Array(256);
  for (let k = 0; k < 4; k++) out.set(createHash('sha512').update(`${seed}:${k}`).digest(), k * 64);
  out[0] = 0x11;
  return out;
}

/** Packed bytes per tick (record + offset) for ticks carrying `txPerTick` ~200-byte transactions on average. */
function bytesPerTick(txPerTick: number, heartbeat: boolean): number {
  const count = 20_000;
  const store = new MemoryTickStore(count);
  const one = new Uint8Array(256);
  one[255] = 1;
  const out = element('output');
  let seq = 1;
  let bytes = 0;
  for (let n = 1; n <= count; n++) {
    const k = Math.floor(n * txPerTick) - Math.floor((n - 1) * txPerTick);
    const transactions = Array.from({ length: k }, () => {
      const tx = benchTransaction('ret');
      return {
        transaction: tx,
        sequenceNumber: seq++,
        txHash: transactionHash(tx),
        ingestionTimestamp: 1_700_000_000_000_000 + n,
      };
    });
    const tick: Tick = {
      tickNumber: n,
      vdfProof: {
        input: element(`in${n % 7}`),
        output: out,
        proof: heartbeat ? element('proof') : one,
        iterations: heartbeat ? 2_000_000 : 20,
      },
      transactions,
      batchHash: out.subarray(0, 32),
      timestamp: 1_700_000_000_000_000 + n,
      previousOutput: out,
    };
    store.append({ tick });
    bytes += store.recordBytes(n)! + 4;
  }
  return bytes / count;
}

interface Row {
  tx_per_s: number;
  ticks_per_s: number;
  tx_per_tick: number;
  bytes_per_tick: number;
  retained_mb_per_s: number;
  default_ticks_full_after_s: number;
  default_ticks_hold_mb: number;
  default_bytes_bind_after_s: number;
}

function row(txPerS: number, ticksPerS: number, heartbeat: boolean): Row {
  const txPerTick = ticksPerS > 0 ? txPerS / ticksPerS : 0;
  const b = bytesPerTick(txPerTick, heartbeat);
  const perS = b * ticksPerS;
  return {
    tx_per_s: Math.round(txPerS),
    ticks_per_s: round(ticksPerS, 1),
    tx_per_tick: round(txPerTick, 2),
    bytes_per_tick: Math.round(b),
    retained_mb_per_s: round(perS / 1e6, 2),
    default_ticks_full_after_s: Math.round(DEFAULT_TICKS / ticksPerS),
    default_ticks_hold_mb: Math.round((DEFAULT_TICKS * b) / 1e6),
    default_bytes_bind_after_s: Math.round(DEFAULT_BYTES / perS),
  };
}

/** RSS (MB) of a fresh node every 10 s while it takes RSS_RATE tx/s for RSS_SECONDS. */
async function rssUnderLoad(args: string[]): Promise<{ rss_mb: number[]; tx_per_s: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-rss-'));
  const node = await spawnNode(dir, args);
  const rss = async () => {
    const text = await (await fetch(`http://${node.addresses.rest}/metrics`)).text();
    return Math.round(Number(/^process_resident_memory_bytes (\S+)/m.exec(text)![1]) / 1e6);
  };
  const samples = [await rss()];
  const timer = setInterval(() => void rss().then((m) => samples.push(m)), 10_000);
  try {
    const r = await runChild<LatencyJob, LatencyResult>('latency-gen.js', {
      address: node.addresses.grpc!,
      rate: RSS_RATE,
      seconds: RSS_SECONDS,
    });
    samples.push(await rss());
    return { rss_mb: samples, tx_per_s: r.achievedRate };
  } finally {
    clearInterval(timer);
    node.child.kill('SIGTERM');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-retention-'));
  const node = await spawnNode(dir, []);
  const client = new SequencerClient(node.addresses.grpc!);
  const status = async () => {
    const s = await client.call<{ current_tick: string; total_transactions: string }>('GetStatus', {});
    return { tick: Number(s.current_tick), tx: Number(s.total_transactions), at: performance.now() };
  };
  const out: Record<string, unknown> = { bench: 'retention', seconds: SECONDS };
  try {
    await new Promise((r) => setTimeout(r, 1000));
    let a = await status();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    let b = await status();
    const idle = row(0, ((b.tick - a.tick) * 1000) / (b.at - a.at), true);
    console.log(`idle: ${idle.ticks_per_s} ticks/s, ${idle.bytes_per_tick} B/tick, ${idle.retained_mb_per_s} MB/s`);
    out.idle = idle;
    for (const rate of RATES) {
      a = await status();
      const r = await runChild<LatencyJob, LatencyResult>('latency-gen.js', {
        address: node.addresses.grpc!,
        rate,
        seconds: SECONDS,
      });
      b = await status();
      const secs = (b.at - a.at) / 1000;
      const busy = row((b.tx - a.tx) / secs, (b.tick - a.tick) / secs, false);
      console.log(
        `${rate} tx/s offered (${r.achievedRate} sent): ${busy.ticks_per_s} ticks/s, ${busy.tx_per_tick} tx/tick, ${busy.bytes_per_tick} B/tick, ` +
          `${busy.retained_mb_per_s} MB/s; 1M ticks after ${busy.default_ticks_full_after_s} s = ${busy.default_ticks_hold_mb} MB; 1 GiB after ${busy.default_bytes_bind_after_s} s`,
      );
      out[`r${rate}`] = busy;
    }
  } finally {
    client.close();
    node.child.kill('SIGTERM');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  }
  if (RSS_SECONDS > 0) {
    for (const [name, args] of [
      ['defaults', []],
      ['retain_bytes_64mib', ['--retain-bytes', '64MiB']],
    ] as const) {
      const r = await rssUnderLoad([...args]);
      console.log(`RSS under ${RSS_RATE} tx/s (${r.tx_per_s} sent), ${name}: ${r.rss_mb.join(' -> ')} MB`);
      out[`rss_${name}`] = { rate: RSS_RATE, seconds: RSS_SECONDS, ...r };
    }
  }
  console.log(JSON.stringify(out));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
