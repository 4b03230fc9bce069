/**
 * Only the end-to-end part of `npm run bench:dex` (signed POST /orders from a separate load
 * process against the real sequencer + order book in this process), for profiling the
 * server side: `node --cpu-prof --cpu-prof-dir=/tmp/prof dist/bench/dex-e2e.js`
 * (the load process is not profiled). Options (env) as bench:dex: DEX_E2E_ORDERS (10000),
 * DEX_E2E_CONCURRENCY (512), DEX_E2E_VDF_ITERATIONS (2000). Prints one JSON line.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/db/index.js';
import { createPool } from '../src/pool/index.js';
import { createSequencer } from '../src/sequencer/index.js';
import { startDex } from '../src/dex/api/index.js';
import { DexClient, toBase58 } from '../src/sdk/index.js';

const log = (msg: string) => process.stderr.write(`${msg}\n`);
const VDF_ITERATIONS = Number(process.env.DEX_E2E_VDF_ITERATIONS ?? 2000);

export async function benchE2e(orders: number, concurrency: number): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-dex-bench-'));
  const db = await openDatabase(dir);
  const pool = createPool();
  const sequencer = createSequencer({
    db,
    pool,
    retainTicks: 100_000,
    vdfIterations: VDF_ITERATIONS,
    idleTickMs: 100,
    queueCapacity: 100_000,
    onError: (e) => log(`sequencer failed: ${e.message}`),
  });
  await sequencer.start();
  // Its one load process holds up to 512 in flight: above the default per-address share (128).
  const dex = await startDex({ db, pool, sequencer, dbPath: dir, addr: '127.0.0.1:0', maxPending: 100_000 });
  try {
    const url = `http://${dex.address}`;
    const base = toBase58(new Uint8Array(32).fill(0xb1));
    const quote = toBase58(new Uint8Array(32).fill(0xb2));
    await new DexClient(url).createMarket({ base_mint: base, quote_mint: quote, name: 'BENCH/USD' });
    const script = fileURLToPath(new URL('./dex-load.js', import.meta.url));
    const child = spawn(process.execPath, [script, url, String(orders), String(concurrency), base, quote], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
    if (code !== 0) throw new Error(`load process exited with ${code}`);
    const lines = out.trim().split('\n');
    return {
      ...(JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>),
      ticks: sequencer.status().currentTick,
    };
  } finally {
    await dex.close();
    await sequencer.stop();
    await pool.destroy();
    await db.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/** CPU ms of each thread of this process (Linux /proc; empty elsewhere), keyed by thread id. */
function threadCpuMs(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, ((Number(f[11]) + Number(f[12])) * 1000) / 100); // utime + stime, 100 Hz ticks
    }
  } catch {
    // not Linux
  }
  return out;
}

/** benchE2e plus the server's CPU per order: main thread, and worker threads without the clock. */
export async function benchE2eWithCpu(orders: number, concurrency: number): Promise<Record<string, unknown>> {
  const before = threadCpuMs();
  const e2e = await benchE2e(orders, concurrency);
  const after = threadCpuMs();
  // Per thread over the run; the busiest is the sequencer's clock (squares without pause).
  const used = [...after].map(([tid, ms]) => ({ tid, ms: ms - (before.get(tid) ?? 0) })).sort((a, b) => b.ms - a.ms);
  const main = used.find((u) => u.tid === String(process.pid))?.ms ?? 0;
  const others = used.filter((u) => u.tid !== String(process.pid));
  const rest = others.slice(1).reduce((a, u) => a + u.ms, 0);
  return {
    ...e2e,
    main_thread_cpu_us_per_order: Math.round((main * 1000) / orders),
    workers_cpu_us_per_order_without_clock: Math.round((rest * 1000) / orders),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const orders = Number(process.env.DEX_E2E_ORDERS ?? 10_000);
  const conc = Number(process.env.DEX_E2E_CONCURRENCY ?? 512);
  console.log(JSON.stringify({ ...(await benchE2eWithCpu(orders, conc)), vdf_iterations: VDF_ITERATIONS }));
}
