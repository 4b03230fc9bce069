/**
 * Write-ahead log of accepted transactions (sublevel `wal`), so an acknowledged
 * submission survives `kill -9` before its tick is stored.
 *
 * Group commit: submissions append to the open group; the group is written as ONE
 * LevelDB record (key: its first sequence number, 16 digits) as soon as no other group
 * write is in flight, so one write serves every submission that arrived meanwhile.
 * `append` returns the promise of the group write; a submission is acknowledged when
 * it resolves (the bytes reached the OS; no fsync, as design.md allows).
 *
 * A group is deleted (in the same batch as the tick that completes it) once every
 * transaction in it is in a durable tick and its own write has finished. On start,
 * `recover` returns the logged transactions that are not in a durable tick yet, in
 * sequence order, and drops groups that are entirely ticked.
 *
 * Record value: u32 count, then per transaction: f64 sequence | f64 ingestion time |
 * the transaction body of src/core/tx-record.ts (nonce, client timestamp, full hash,
 * lengths, the bytes). Little-endian.
 */
import type { Database } from '../db/index.js';
import type { Transaction } from '../core/index.js';
import { readTxBody } from '../core/index.js';
import type { StoredTxParts } from './tick-log.js';
import { binarySublevel, pad16, type ExtraOp, type Sublevel } from './disk-store.js';

/** An accepted transaction: its place, its fields and its stored forms (StoredTxParts). */
export interface WalEntry extends StoredTxParts {
  sequence: number;
  ingestionTimestamp: number;
  tx: Transaction;
  fullHash: Uint8Array;
}

interface Group {
  key: string;
  lastSequence: number;
  entries: WalEntry[];
  written: boolean;
  done: Promise<void>;
  resolve: () => void;
  reject: (e: Error) => void;
}

export function encodeGroup(entries: WalEntry[]): Uint8Array {
  let size = 4;
  for (const e of entries) size += 16 + e.body.length;
  const buf = new Uint8Array(size);
  const v = new DataView(buf.buffer);
  v.setUint32(0, entries.length, true);
  let o = 4;
  for (const e of entries) {
    v.setFloat64(o, e.sequence, true);
    v.setFloat64(o + 8, e.ingestionTimestamp, true);
    buf.set(e.body, o + 16);
    o += 16 + e.body.length;
  }
  return buf;
}

export function decodeGroup(buf: Uint8Array): WalEntry[] {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const count = v.getUint32(0, true);
  const out: WalEntry[] = [];
  let o = 4;
  for (let i = 0; i < count; i++) {
    if (o + 16 > buf.length) throw new Error('truncated write-ahead record');
    const sequence = v.getFloat64(o, true);
    const ingestionTimestamp = v.getFloat64(o + 8, true);
    let body;
    try {
      body = readTxBody(buf, v, o + 16);
    } catch {
      throw new Error('truncated write-ahead record');
    }
    out.push({
      sequence,
      ingestionTimestamp,
      fullHash: body.fullHash,
      tx: body.tx,
      body: buf.subarray(o + 16, body.end),
    });
    o = body.end;
  }
  return out;
}

export class WriteAheadLog {
  readonly sublevel: Sublevel;
  private open: Group | undefined;
  private writing = false;
  private readonly groups: Group[] = []; // not yet deleted, in sequence order
  private idle: Promise<void> = Promise.resolve();
  private idleResolve: (() => void) | undefined;

  constructor(db: Database) {
    this.sublevel = binarySublevel(db, 'wal');
  }

  /** Log one accepted transaction; resolves when its group is written. */
  append(entry: WalEntry): Promise<void> {
    let g = this.open;
    if (!g) {
      let resolve: () => void = () => {};
      let reject: (e: Error) => void = () => {};
      const done = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // Callers attach handlers themselves; keep an unobserved failure from crashing.
      done.catch(() => {});
      g = {
        key: pad16(entry.sequence),
        lastSequence: entry.sequence,
        entries: [],
        written: false,
        done,
        resolve,
        reject,
      };
      this.open = g;
      if (!this.writing) queueMicrotask(() => this.flush());
    }
    g.entries.push(entry);
    g.lastSequence = entry.sequence;
    if (!this.idleResolve) this.idle = new Promise<void>((r) => (this.idleResolve = r));
    return g.done;
  }

  private flush(): void {
    const g = this.open;
    if (this.writing || !g) return;
    this.open = undefined;
    this.writing = true;
    this.groups.push(g);
    const value = encodeGroup(g.entries);
    g.entries = []; // the bodies live in the sequencer's queue; only keep the key
    this.sublevel.put(g.key, value).then(
      () => {
        g.written = true;
        this.writing = false;
        g.resolve();
        this.afterWrite();
      },
      (err: unknown) => {
        this.writing = false;
        g.reject(err instanceof Error ? err : new Error(String(err)));
        this.afterWrite();
      },
    );
  }

  private afterWrite(): void {
    if (this.open) this.flush();
    else if (this.idleResolve) {
      const r = this.idleResolve;
      this.idleResolve = undefined;
      r();
    }
  }

  /** Resolves once every appended entry has been written (or failed). */
  flushed(): Promise<void> {
    return this.idleResolve ? this.idle : Promise.resolve();
  }

  /**
   * Deletions for the groups whose transactions are all in durable ticks up to
   * `lastSequence` and whose write has finished; forgets them.
   */
  takeDeletable(lastSequence: number): ExtraOp[] {
    const ops: ExtraOp[] = [];
    while (this.groups.length > 0) {
      const g = this.groups[0]!;
      if (!g.written || g.lastSequence > lastSequence) break;
      ops.push({ type: 'del', sublevel: this.sublevel, key: g.key });
      this.groups.shift();
    }
    return ops;
  }

  /**
   * Delete, now, the groups `takeDeletable` would hand out (on stop: a group whose write
   * finished after the tick that holds its transactions was committed has no later tick
   * commit to ride with).
   */
  async dropTicked(lastSequence: number): Promise<void> {
    const keys = this.takeDeletable(lastSequence).map((op) => op.key);
    if (keys.length > 0) await this.sublevel.batch(keys.map((key) => ({ type: 'del' as const, key })));
  }

  /**
   * On start: logged transactions with a sequence number above `lastSequence` (not in a
   * durable tick), in order; deletes groups that are wholly ticked. Also returns the
   * highest sequence number ever logged.
   */
  async recover(lastSequence: number): Promise<{ entries: WalEntry[]; maxSequence: number }> {
    const entries: WalEntry[] = [];
    const stale: string[] = [];
    let maxSequence = 0;
    for await (const [key, value] of this.sublevel.iterator()) {
      const group = decodeGroup(value);
      let last = 0;
      for (const e of group) {
        last = Math.max(last, e.sequence);
        if (e.sequence > lastSequence) entries.push(e);
      }
      maxSequence = Math.max(maxSequence, last);
      if (last <= lastSequence) stale.push(key);
      else {
        const noop = (): void => {};
        this.groups.push({
          key,
          lastSequence: last,
          entries: [],
          written: true,
          done: Promise.resolve(),
          resolve: noop,
          reject: noop,
        });
      }
    }
    if (stale.length > 0) await this.sublevel.batch(stale.map((key) => ({ type: 'del' as const, key })));
    entries.sort((a, b) => a.sequence - b.sequence);
    return { entries, maxSequence };
  }
}
