/**
 * Test harness: a real sequencer on a real LevelDB in a temp directory with a real
 * one-thread pool and the real clock worker. `restart()` stops it and starts a new
 * one on the same database (same as a node restart); `waitFor` polls a condition with
 * a generous bound (a wait, not a timing assertion).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Piscina } from 'piscina';
import { openDatabase, type Database } from '../../src/db/index.js';
import { createPool } from '../../src/pool/index.js';
import { TickSequencer } from '../../src/sequencer/sequencer.js';
import type { SequencerOptions } from '../../src/sequencer/interface.js';
import type { Transaction } from '../../src/core/types.js';

export interface Harness {
  dir: string;
  db: Database;
  pool: Piscina;
  seq: TickSequencer;
  options: Omit<SequencerOptions, 'db' | 'pool'>;
  restart(over?: Partial<SequencerOptions>): Promise<TickSequencer>;
  close(): Promise<void>;
}

export const defaults = { retainTicks: 1000, vdfIterations: 20, idleTickMs: 30, queueCapacity: 100_000 };

export async function startHarness(over: Partial<SequencerOptions> = {}, dir?: string): Promise<Harness> {
  const d = dir ?? mkdtempSync(join(tmpdir(), 'svc-seq-'));
  const db = await openDatabase(d);
  const pool = createPool({ threads: 1 });
  const options = {
    ...defaults,
    onError: (err: Error) => {
      // Any engine failure in a test is a bug: make it loud.
      console.error('sequencer failed:', err);
    },
    ...over,
  };
  const seq = new TickSequencer({ ...options, db, pool });
  await seq.start();
  const h: Harness = {
    dir: d,
    db,
    pool,
    seq,
    options,
    async restart(more = {}) {
      await h.seq.stop();
      h.options = { ...h.options, ...more };
      h.seq = new TickSequencer({ ...h.options, db: h.db, pool: h.pool });
      await h.seq.start();
      return h.seq;
    },
    async close() {
      await h.seq.stop();
      await h.db.close();
      await h.pool.destroy();
      rmSync(d, { recursive: true, force: true });
    },
  };
  return h;
}

export async function waitFor(cond: () => boolean | Promise<boolean>, what: string, limitMs = 20_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let counter = 0;
export function tx(over: Partial<Transaction> = {}): Transaction {
  counter++;
  return {
    txId: `t-${counter}-${Math.random().toString(36).slice(2)}`,
    payload: new Uint8Array(32).fill(counter & 0xff),
    signature: new Uint8Array(64).fill(7),
    publicKey: new Uint8Array(0),
    nonce: BigInt(counter),
    timestamp: 1_700_000_000_000_000n + BigInt(counter),
    ...over,
  };
}
