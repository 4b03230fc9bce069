/**
 * `npm run bench:wal`: the write-ahead append path, LevelDB against an append-only file
 * (issue 8 point 2: "decide: LevelDB batches or an append-only file; measure both").
 *
 * The same groups (WAL_BENCH_GROUP transactions of ~200 bytes, default 1,000, encoded by
 * src/store/wal.ts `encodeGroup`) are written, one awaited write per group as the group
 * commit does, by:
 *   - leveldb: one `put` of the group record into a sublevel of a real LevelDB (today's path);
 *   - file: a u32 length prefix and the record appended to one file through a FileHandle
 *     (no fsync: durable = the bytes reached the OS, as design.md allows for both).
 * Rounds alternate the two (WAL_BENCH_ROUNDS, default 5; WAL_BENCH_GROUPS per round,
 * default 200). Per transaction: main-thread CPU (/proc, Linux) and wall time; medians
 * over rounds and the file/leveldb ratio. The encoding is included in both (it is the same
 * work). Deleting ticked groups is not measured: LevelDB deletes them inside the tick's
 * batch; a file would be truncated or rotated (docs/storage.md). Last line: one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/index.js';
import { binarySublevel, pad16 } from '../src/store/disk-store.js';
import { encodeGroup, type WalEntry } from '../src/store/wal.js';
import { prepareOne } from '../src/sequencer/prepare.js';
import { mainThreadCpuMs } from './chain-build.js';
import { median, round } from './support/stats.js';

const GROUP = Number(process.env.WAL_BENCH_GROUP ?? 1000);
const GROUPS = Number(process.env.WAL_BENCH_GROUPS ?? 200);
const ROUNDS = Number(process.env.WAL_BENCH_ROUNDS ?? 5);

function entries(first: number): WalEntry[] {
  return Array.from({ length: GROUP }, (_, i) => {
    const txId = `wal-bench-${first + i}`;
    const p = prepareOne({
      txId,
      payload: new Uint8Array(70).fill(i & 0xff),
      signature: new Uint8Array(64).fill(5),
      publicKey: new Uint8Array(32).fill(6),
      nonce: BigInt(first + i),
      timestamp: 1n,
    });
    return {
      sequence: first + i,
      ingestionTimestamp: 1_767_225_600_000_000 + first + i,
      tx: p.tx,
      fullHash: p.fullHash,
      body: p.body,
    };
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-wal-'));
  const db = await openDatabase(join(dir, 'db'));
  const wal = binarySublevel(db, 'wal');
  const file = await open(join(dir, 'wal.log'), 'a');
  const groups = Array.from({ length: GROUPS }, (_, g) => entries(g * GROUP + 1));
  let seq = 0;
  const runs: Record<'leveldb' | 'file', { cpu: number[]; wall: number[] }> = {
    leveldb: { cpu: [], wall: [] },
    file: { cpu: [], wall: [] },
  };
  const once = async (kind: 'leveldb' | 'file'): Promise<void> => {
    const c0 = mainThreadCpuMs();
    const t0 = performance.now();
    for (const g of groups) {
      const value = encodeGroup(g);
      if (kind === 'leveldb') {
        await wal.put(pad16(seq++), value);
      } else {
        const framed = new Uint8Array(4 + value.length);
        new DataView(framed.buffer).setUint32(0, value.length, true);
        framed.set(value, 4);
        await file.write(framed);
      }
    }
    const tx = GROUPS * GROUP;
    runs[kind].cpu.push(((mainThreadCpuMs() - c0) * 1000) / tx);
    runs[kind].wall.push(((performance.now() - t0) * 1000) / tx);
  };
  try {
    await once('leveldb'); // warm-up, not counted
    await once('file');
    runs.leveldb = { cpu: [], wall: [] };
    runs.file = { cpu: [], wall: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const kind of r % 2 === 0 ? (['leveldb', 'file'] as const) : (['file', 'leveldb'] as const))
        await once(kind);
      console.log(
        `round ${r + 1}: leveldb ${round(runs.leveldb.cpu.at(-1)!, 2)} us CPU/tx, file ${round(runs.file.cpu.at(-1)!, 2)} us CPU/tx (main thread)`,
      );
    }
  } finally {
    await file.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const m = (k: 'leveldb' | 'file') => ({
    main_cpu_us_per_tx: round(median(runs[k].cpu), 3),
    wall_us_per_tx: round(median(runs[k].wall), 3),
  });
  const out = {
    bench: 'wal',
    group: GROUP,
    groups_per_round: GROUPS,
    rounds: ROUNDS,
    load_avg: loadavg().map((x) => round(x, 1)),
    leveldb: m('leveldb'),
    file: m('file'),
  };
  console.log(
    JSON.stringify({
      ...out,
      file_vs_leveldb_cpu: round(out.file.main_cpu_us_per_tx / out.leveldb.main_cpu_us_per_tx, 3),
      file_vs_leveldb_wall: round(out.file.wall_us_per_tx / out.leveldb.wall_us_per_tx, 3),
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
