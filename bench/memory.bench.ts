/**
 * `npm run bench:memory`: RSS of the in-memory tick window (src/store/memory-store.ts)
 * holding 1,000,000 retained ticks, empty and with 10 transactions each, and the bytes
 * per retained tick; side by side with the naive form the design rules out (one JS
 * object per tick with hex strings), measured on 100,000 ticks and scaled.
 *
 * Each scenario runs in its own child process (clean heap, RSS before/after, after a
 * forced GC). Ticks are realistic in size: 256-byte VDF elements, trivial proofs (what
 * busy ticks carry), transactions with a 16-byte tx_id, 32-byte payload, 64-byte
 * signature and 32-byte public key (an ed25519-signed order). The last line is one JSON
 * object. Env: BENCH_TICKS (default 1000000).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { MemoryTickStore } from '../src/store/memory-store.js';
import type { Tick } from '../src/core/types.js';

const TICKS = Number(process.env.BENCH_TICKS ?? 1_000_000);
const NAIVE_TICKS = Math.min(100_000, TICKS);

function element(seed: number): Uint8Array {
  const out = new Uint8Array(256);
  for (let k = 0; k < 4; k++) out.set(createHash('sha512').update(`${seed}:${k}`).digest(), k * 64);
  out[0] = 0x11;
  return out;
}

function template(txs: number): Tick {
  const one = new Uint8Array(256);
  one[255] = 1;
  return {
    tickNumber: 1,
    vdfProof: { input: element(1), output: element(2), proof: one, iterations: 20 },
    transactions: Array.from({ length: txs }, (_, i) => ({
      transaction: {
        txId: `order-${String(i).padStart(10, '0')}`,
        payload: element(100 + i).subarray(0, 32),
        signature: element(200 + i).subarray(0, 64),
        publicKey: element(300 + i).subarray(0, 32),
        nonce: BigInt(i),
        timestamp: 1_700_000_000_000_000n + BigInt(i),
      },
      sequenceNumber: 1 + i,
      txHash: element(400 + i).subarray(0, 32),
      ingestionTimestamp: 1_700_000_000_000_000 + i,
    })),
    batchHash: element(3).subarray(0, 32),
    timestamp: 1_700_000_000_000_000,
    previousOutput: element(4),
  };
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Child: fill one scenario and report RSS growth. */
function child(kind: 'packed' | 'naive', txs: number, count: number): void {
  gc();
  const before = process.memoryUsage().rss;
  const tick = template(txs);
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
  let keep: unknown;
  let allocated = 0;
  const t0 = performance.now();
  if (kind === 'packed') {
    const store = new MemoryTickStore(count);
    for (let n = 1; n <= count; n++) {
      tick.tickNumber = n;
      for (let i = 0; i < txs; i++) tick.transactions[i]!.sequenceNumber = (n - 1) * txs + i + 1;
      store.append({ tick });
    }
    if (store.size() !== count) throw new Error(`held ${store.size()} of ${count}`);
    allocated = store.allocatedBytes();
    keep = store;
  } else {
    // What the design rules out: a JS object per tick with hex strings.
    const list: unknown[] = [];
    for (let n = 1; n <= count; n++) {
      list.push({
        tick_number: n,
        vdf_proof: {
          input: hex(tick.vdfProof.input),
          output: hex(tick.vdfProof.output),
          proof: hex(tick.vdfProof.proof),
          iterations: 20,
        },
        transactions: tick.transactions.map((o) => ({
          tx_id: o.transaction.txId,
          tx_hash: hex(o.txHash),
          sequence_number: (n - 1) * txs + o.sequenceNumber,
          payload: hex(o.transaction.payload),
          signature: hex(o.transaction.signature),
          public_key: hex(o.transaction.publicKey),
          nonce: o.transaction.nonce,
          timestamp: o.transaction.timestamp,
          ingestion_timestamp: o.ingestionTimestamp,
        })),
        batch_hash: hex(tick.batchHash),
        timestamp: tick.timestamp + n,
        previous_output: hex(tick.previousOutput),
      });
    }
    keep = list;
  }
  const fillMs = performance.now() - t0;
  gc();
  const after = process.memoryUsage().rss;
  if (!keep) throw new Error('unreachable');
  process.stdout.write(
    `${JSON.stringify({ rss_before: before, rss_after: after, allocated, fill_ms: Math.round(fillMs) })}\n`,
  );
}

interface Scenario {
  rss_mb: number;
  bytes_per_tick: number;
  packed_bytes_per_tick?: number;
  fill_s: number;
}

function run(kind: 'packed' | 'naive', txs: number, count: number): Scenario {
  const res = spawnSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), 'child', kind, String(txs), String(count)],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  if (res.status !== 0) throw new Error(`child failed: ${res.stderr}`);
  const r = JSON.parse(res.stdout.trim().split('\n').pop()!) as {
    rss_before: number;
    rss_after: number;
    allocated: number;
    fill_ms: number;
  };
  const grown = r.rss_after - r.rss_before;
  return {
    rss_mb: Math.round(r.rss_after / 1e6),
    bytes_per_tick: Math.round(grown / count),
    ...(kind === 'packed' ? { packed_bytes_per_tick: Math.round(r.allocated / count) } : {}),
    fill_s: Math.round(r.fill_ms / 100) / 10,
  };
}

if (process.argv[2] === 'child') {
  child(process.argv[3] as 'packed' | 'naive', Number(process.argv[4]), Number(process.argv[5]));
} else {
  const empty = run('packed', 0, TICKS);
  console.log(
    `${TICKS} empty ticks: RSS ${empty.rss_mb} MB, ${empty.bytes_per_tick} B/tick (packed ${empty.packed_bytes_per_tick})`,
  );
  const ten = run('packed', 10, TICKS);
  console.log(
    `${TICKS} ticks x 10 tx: RSS ${ten.rss_mb} MB, ${ten.bytes_per_tick} B/tick (packed ${ten.packed_bytes_per_tick})`,
  );
  const naiveEmpty = run('naive', 0, NAIVE_TICKS);
  const naiveTen = run('naive', 10, NAIVE_TICKS);
  console.log(
    `naive objects (${NAIVE_TICKS} ticks): empty ${naiveEmpty.bytes_per_tick} B/tick, 10 tx ${naiveTen.bytes_per_tick} B/tick`,
  );
  console.log(
    JSON.stringify({
      bench: 'memory',
      ticks: TICKS,
      empty: empty,
      with_10_tx: ten,
      naive_bytes_per_tick: {
        empty: naiveEmpty.bytes_per_tick,
        with_10_tx: naiveTen.bytes_per_tick,
        measured_on: NAIVE_TICKS,
      },
      naive_over_packed: {
        empty: Math.round((naiveEmpty.bytes_per_tick / empty.bytes_per_tick) * 100) / 100,
        with_10_tx: Math.round((naiveTen.bytes_per_tick / ten.bytes_per_tick) * 100) / 100,
      },
    }),
  );
}
