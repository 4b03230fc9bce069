/**
 * bench:ordering's account: the main-thread CPU per transaction of each ordering step
 * alone, on the real code with real LevelDB, 1,000-transaction requests prepared
 * beforehand and a full replay window (100,000, the default), so each step pays its
 * steady-state cost (evictions included). The steps, in the order a transaction meets
 * them: preparing it (intake: validation, Borsh, SHA-256, stored body, replay keys and
 * their fingerprints; an intake thread's CPU, or the main thread's where there is none)
 * and its two fingerprints alone, reading the prepared request (views, replay keys), the
 * replay window's check and add, the whole admission (arrival line, replay, sequence number, queue, write-ahead group
 * written), joining queue entries into ticks, the commit's LevelDB batch, the memory
 * window. CPU is the thread's own counter (schedstat, ns). What it leaves out (the clock
 * ring, the pump, listeners, gRPC) is the difference to the closed loop's figure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClockTick } from '../../src/clock/protocol.js';
import { shortHash } from '../../src/core/index.js';
import { openDatabase } from '../../src/db/index.js';
import { Fifo } from '../../src/intake/index.js';
import { Admission } from '../../src/sequencer/admission.js';
import { joinTicks } from '../../src/sequencer/join.js';
import {
  PreparedReader,
  prepareTransactions,
  type PreparedBatch,
  type PreparedTx,
} from '../../src/sequencer/prepare.js';
import { fingerprint } from '../../src/sequencer/fingerprint.js';
import { ReplayGuard, type ReplayRecord } from '../../src/sequencer/replay.js';
import { DiskTickStore, WriteAheadLog, type WalEntry } from '../../src/store/index.js';
import { MemoryTickStore } from '../../src/store/memory-store.js';
import { benchTransaction } from './requests.js';
import { round } from './stats.js';

const BATCH = 1000;
const WINDOW = 100_000;

export type StepCosts = Record<
  | 'prepare'
  | 'fingerprints'
  | 'read_prepared'
  | 'replay_check_add'
  | 'admission'
  | 'join'
  | 'commit_batch'
  | 'memory_window',
  number
>;

/** CPU µs per transaction of each step, `requests` requests of 1,000 after the window is full. */
export async function measureSteps(requests: number, cpuNs: () => number): Promise<StepCosts> {
  const fill = WINDOW / BATCH;
  const make = (tag: string): PreparedBatch[] =>
    Array.from({ length: fill + requests }, () =>
      prepareTransactions(Array.from({ length: BATCH }, () => benchTransaction(tag))),
    );
  const per = (ns: number, n: number): number => round(ns / 1000 / n, 2);
  const measured = requests * BATCH;
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-steps-'));
  const db = await openDatabase(dir);
  try {
    const first = make('steps-a');
    const items: PreparedTx[][] = first.map((b) => {
      const reader = new PreparedReader(b);
      return Array.from({ length: BATCH }, (_, i) => reader.item(i));
    });
    // Intake's part (an intake thread's, or the main thread's where there is none): the whole
    // preparation, then the replay keys' two fingerprints alone.
    const unprepared = Array.from({ length: requests }, () =>
      Array.from({ length: BATCH }, () => benchTransaction('steps-p')),
    );
    let c0 = cpuNs();
    for (const txs of unprepared) prepareTransactions(txs);
    const prepare = per(cpuNs() - c0, measured);
    const prints = new Int32Array(2);
    c0 = cpuNs();
    for (let k = fill; k < fill + requests; k++) {
      for (const p of items[k]!) {
        fingerprint(p.keyBytes, p.idAt, p.idEnd, prints, 0);
        fingerprint(p.keyBytes, p.pkNonceAt, p.pkNonceEnd, prints, 0);
      }
    }
    const fingerprints = per(cpuNs() - c0, measured);

    c0 = cpuNs();
    for (let k = fill; k < fill + requests; k++) {
      const reader = new PreparedReader(first[k]!);
      for (let i = 0; i < BATCH; i++) reader.item(i);
    }
    const readPrepared = per(cpuNs() - c0, measured);

    const guard = new ReplayGuard(WINDOW);
    const record: ReplayRecord = { sequenceNumber: 1, expectedTick: 1, txHash: '', durable: Promise.resolve() };
    const remember = (p: PreparedTx): void => {
      guard.check(p);
      guard.add(p, record);
    };
    for (let k = 0; k < fill; k++) items[k]!.forEach(remember);
    c0 = cpuNs();
    for (let k = fill; k < fill + requests; k++) items[k]!.forEach(remember);
    const replay = per(cpuNs() - c0, measured);

    const queue = new Fifo<WalEntry>();
    const admission = new Admission({
      queue,
      wal: new WriteAheadLog(db),
      queueCapacity: Number.MAX_SAFE_INTEGER,
      replayWindow: WINDOW,
      checkRunning: () => {},
      expectedTick: () => 1,
      admitted: () => {},
    });
    const second = make('steps-b');
    for (let k = 0; k < fill; k++) await admission.submit(second[k]!);
    queue.drop(queue.length);
    c0 = cpuNs();
    for (let k = fill; k < fill + requests; k++) await admission.submit(second[k]!);
    const admit = per(cpuNs() - c0, measured);

    // The admitted entries as the clock would close them: one tick per request.
    const element = new Uint8Array(256).fill(0x11);
    const raw: ClockTick[] = Array.from({ length: requests }, (_, t) => ({
      tickNumber: t + 1,
      iterations: 20,
      timestamp: 1_700_000_000_000_000 + t,
      firstSequence: queue.at(t * BATCH).sequence,
      txCount: BATCH,
      proofPending: false,
      batchHash: new Uint8Array(32),
      ingestionDigest: new Uint8Array(32),
      input: element,
      output: element,
      proof: element,
    }));
    c0 = cpuNs();
    const joined = joinTicks(raw, {
      previousOutput: element,
      head: { tick: 0, lastSequence: raw[0]!.firstSequence - 1 },
      sent: queue.length,
      queued: (i) => queue.at(i),
    });
    const joinUs = per(cpuNs() - c0, measured);

    const disk = new DiskTickStore(db);
    c0 = cpuNs();
    for (let i = 0; i < joined.ticks.length; i++) {
      const t = joined.ticks[i]!;
      const head = { tick: t.tickNumber, lastSequence: t.transactions[BATCH - 1]!.sequenceNumber };
      await disk.writeTicks([t], [joined.entries[i]!.map((e) => e.body)], head);
    }
    const commit = per(cpuNs() - c0, measured);

    const memory = new MemoryTickStore(WINDOW);
    c0 = cpuNs();
    for (let i = 0; i < joined.ticks.length; i++)
      memory.append({ tick: joined.ticks[i]!, bodies: joined.entries[i]!.map((e) => e.body) });
    const window = per(cpuNs() - c0, measured);

    return {
      prepare,
      fingerprints,
      read_prepared: readPrepared,
      replay_check_add: replay,
      admission: admit,
      join: joinUs,
      commit_batch: commit,
      memory_window: window,
    };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Heap bytes a full replay window (100,000) keeps per remembered transaction, filled the
 * way admission fills it (an answer with its 8-hex tx_hash per transaction, one
 * write-ahead promise per request): what goes when the window is dropped. Needs
 * `node --expose-gc`; NaN without it.
 */
export function replayWindowBytes(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return Number.NaN;
  const used = (): number => {
    gc();
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const batches = Array.from({ length: WINDOW / BATCH }, () =>
    prepareTransactions(Array.from({ length: BATCH }, () => benchTransaction('bytes'))),
  );
  const holder: { guard?: ReplayGuard } = { guard: fillWindow(batches) };
  const full = used();
  holder.guard = undefined;
  return Math.round((full - used()) / WINDOW);
}

/** A replay window filled from `batches` as admission fills it. */
function fillWindow(batches: PreparedBatch[]): ReplayGuard {
  const guard = new ReplayGuard(WINDOW);
  let sequence = 0;
  for (const batch of batches) {
    const durable = Promise.resolve();
    const reader = new PreparedReader(batch);
    for (let i = 0; i < batch.count; i++) {
      const p = reader.item(i);
      guard.check(p);
      guard.add(p, { sequenceNumber: ++sequence, expectedTick: 1, txHash: shortHash(p.fullHash), durable });
    }
  }
  return guard;
}
