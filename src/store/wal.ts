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
 * u64 nonce | u64 client timestamp | [32] full hash | u16 tx_id bytes | u16 signature
 * bytes | u16 public_key bytes | u32 payload bytes | the bytes. Little-endian.
 */
import type { Database } from '../db/index.js';
import type { Transaction } from '../core/types.js';
import { binarySublevel, pad16, type ExtraOp, type Sublevel } from './disk-store.js';

export interface WalEntry {
  sequence: number;
  ingestionTimestamp: number;
  tx: Transaction;
  txIdBytes: Uint8Array;
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

const ENTRY_HEADER = 8 + 8 + 8 + 8 + 32 + 2 + 2 + 2 + 4;
const decoder = new TextDecoder();

export function encodeGroup(entries: WalEntry[]): Uint8Array {
  let size = 4;
  for (const e of entries) {
    size += ENTRY_HEADER + e.txIdBytes.length + e.tx.payload.length + e.tx.signature.length + e.tx.publicKey.length;
  }
  const buf = new Uint8Array(size);
  const v = new DataView(buf.buffer);
  v.setUint32(0, entries.length, true);
  let o = 4;
  for (const e of entries) {
    const tx = e.tx;
    v.setFloat64(o, e.sequence, true);
    v.setFloat64(o + 8, e.ingestionTimestamp, true);
    v.setBigUint64(o + 16, tx.nonce, true);
    v.setBigUint64(o + 24, tx.timestamp, true);
    buf.set(e.fullHash, o + 32);
    v.setUint16(o + 64, e.txIdBytes.length, true);
    v.setUint16(o + 66, tx.signature.length, true);
    v.setUint16(o + 68, tx.publicKey.length, true);
    v.setUint32(o + 70, tx.payload.length, true);
    o += ENTRY_HEADER;
    buf.set(e.txIdBytes, o);
    o += e.txIdBytes.length;
    buf.set(tx.payload, o);
    o += tx.payload.length;
    buf.set(tx.signature, o);
    o += tx.signature.length;
    buf.set(tx.publicKey, o);
    o += tx.publicKey.length;
  }
  return buf;
}

export function decodeGroup(buf: Uint8Array): WalEntry[] {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const count = v.getUint32(0, true);
  const out: WalEntry[] = [];
  let o = 4;
  for (let i = 0; i < count; i++) {
    const sequence = v.getFloat64(o, true);
    const ingestionTimestamp = v.getFloat64(o + 8, true);
    const nonce = v.getBigUint64(o + 16, true);
    const timestamp = v.getBigUint64(o + 24, true);
    const fullHash = buf.slice(o + 32, o + 64);
    const idLen = v.getUint16(o + 64, true);
    const sigLen = v.getUint16(o + 66, true);
    const pkLen = v.getUint16(o + 68, true);
    const payLen = v.getUint32(o + 70, true);
    o += ENTRY_HEADER;
    const txIdBytes = buf.slice(o, o + idLen);
    o += idLen;
    const payload = buf.slice(o, o + payLen);
    o += payLen;
    const signature = buf.slice(o, o + sigLen);
    o += sigLen;
    const publicKey = buf.slice(o, o + pkLen);
    o += pkLen;
    if (o > buf.length) throw new Error('truncated write-ahead record');
    out.push({
      sequence,
      ingestionTimestamp,
      fullHash,
      txIdBytes,
      tx: { txId: decoder.decode(txIdBytes), payload, signature, publicKey, nonce, timestamp },
    });
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

  constructor(private readonly db: Database) {
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
      g = { key: pad16(entry.sequence), lastSequence: entry.sequence, entries: [], written: false, done, resolve, reject };
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
        this.groups.push({ key, lastSequence: last, entries: [], written: true, done: Promise.resolve(), resolve: noop, reject: noop });
      }
    }
    if (stale.length > 0) await this.sublevel.batch(stale.map((key) => ({ type: 'del' as const, key })));
    entries.sort((a, b) => a.sequence - b.sequence);
    return { entries, maxSequence };
  }
}
