/**
 * Test helper: a real order book HTTP server on 127.0.0.1:0 with a real worker pool and a
 * real LevelDB in a unique temp dir, over a given Sequencer (the FakeSequencer test double,
 * or the real one).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Piscina } from 'piscina';
import { openDatabase, type Database } from '../../../src/db/index.js';
import { createPool } from '../../../src/pool/index.js';
import { startDex } from '../../../src/dex/api/index.js';
import type { Sequencer } from '../../../src/sequencer/interface.js';
import { FakeSequencer } from '../../support/fake-sequencer.js';

export interface TestDex {
  url: string;
  dir: string;
  db: Database;
  pool: Piscina;
  sequencer: Sequencer;
  dex: Awaited<ReturnType<typeof startDex>>;
  close(): Promise<void>;
}

export async function tempDir(tag: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `svc-dex-${tag}-`));
}

export async function startTestDex(
  opts: { sequencer?: Sequencer; dir?: string; pool?: Piscina; bodyLimitBytes?: number } = {},
): Promise<TestDex> {
  const dir = opts.dir ?? (await tempDir('http'));
  const db = await openDatabase(dir);
  const pool = opts.pool ?? createPool({ threads: 1 });
  const sequencer = opts.sequencer ?? new FakeSequencer({ tickMs: 1, queueCapacity: 100_000 });
  const dex = await startDex({
    db,
    pool,
    sequencer,
    dbPath: dir,
    addr: '127.0.0.1:0',
    ...(opts.bodyLimitBytes ? { bodyLimitBytes: opts.bodyLimitBytes } : {}),
  });
  return {
    url: `http://${dex.address}`,
    dir,
    db,
    pool,
    sequencer,
    dex,
    async close() {
      await dex.close();
      await sequencer.stop();
      await db.close();
      if (!opts.pool) await pool.destroy();
      if (!opts.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

export async function get(url: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
