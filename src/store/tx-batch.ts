/**
 * The per-transaction operations of a tick commit (docs/storage.md "Tick sequencer"),
 * built into one buffer per commit (issue 25 point 3):
 *
 *   txs      <sequence, 16 digits>                 -> the txs value (./stored-tick.ts)
 *   txindex  <8-hex tx_hash>:<sequence, 16 digits> -> the tick number (decimal text)
 *
 * Each key is written as the bytes its sublevel would make of it (the sublevel's prefix,
 * e.g. `!txs!`, then the key, all ASCII), and the operation goes to the root database as
 * bytes. So a transaction costs two puts of views into one buffer instead of two sublevel
 * operations, each with its key strings, prefixing and encodings and a value buffer of its
 * own: the same bytes under the same keys, with less work and garbage on the ordering
 * thread. test/store/tx-batch.test.ts compares every stored byte with what the sublevel
 * operations write.
 *
 * It writes nothing else of a commit (tick records, proofs, head: ./disk-store.ts).
 */
import type { Tick } from '../core/index.js';
import { encodeStoredTx, storedTxLength, writeStoredTx } from './stored-tick.js';

/** A put on the root database with byte key and value (abstract-level's per-operation encodings). */
export interface RootPut {
  type: 'put';
  key: Uint8Array;
  value: Uint8Array;
  keyEncoding: 'view';
  valueEncoding: 'view';
}

const SEQ_DIGITS = 16;
const HASH_HEX = 8;
const COLON = 0x3a;
const ZERO = 0x30;
const HEX = new TextEncoder().encode('0123456789abcdef');
const encoder = new TextEncoder();

export class TxOpsBuilder {
  private readonly txsPrefix: Uint8Array;
  private readonly indexPrefix: Uint8Array;

  /** `txsPrefix` and `indexPrefix`: the sublevels' prefixes (`!txs!`, `!txindex!`). */
  constructor(txsPrefix: string, indexPrefix: string) {
    this.txsPrefix = encoder.encode(txsPrefix);
    this.indexPrefix = encoder.encode(indexPrefix);
  }

  /**
   * The txs and txindex puts of `ticks`, per transaction in that order (as the sublevel
   * operations were), appended to `ops`. `bodies` (per tick, per transaction) are the
   * bodies intake wrote; a transaction without one (a follower's, a test's) gets its value
   * encoded on its own.
   */
  push(
    ops: unknown[],
    ticks: readonly Tick[],
    bodies: ReadonlyArray<readonly Uint8Array[] | undefined> | undefined,
  ): void {
    const txsKey = this.txsPrefix.length + SEQ_DIGITS;
    const indexKey = this.indexPrefix.length + HASH_HEX + 1 + SEQ_DIGITS;
    let size = 0;
    for (let i = 0; i < ticks.length; i++) {
      const n = ticks[i]!.transactions.length;
      if (n === 0) continue;
      size += String(ticks[i]!.tickNumber).length + n * (txsKey + indexKey);
      const mine = bodies?.[i];
      if (mine) for (let j = 0; j < n; j++) size += storedTxLength(mine[j]!);
    }
    if (size === 0) return;
    // A plain Uint8Array: its subarray() is cheaper than a Buffer's, and LevelDB copies the bytes.
    const buf = new Uint8Array(size);
    const view = new DataView(buf.buffer);
    let at = 0;
    for (let i = 0; i < ticks.length; i++) {
      const t = ticks[i]!;
      if (t.transactions.length === 0) continue;
      const tickAt = at;
      at = writeAscii(buf, at, String(t.tickNumber));
      const tickText = buf.subarray(tickAt, at);
      const mine = bodies?.[i];
      for (let j = 0; j < t.transactions.length; j++) {
        const o = t.transactions[j]!;
        const keyAt = at;
        buf.set(this.txsPrefix, at);
        at = writeSequence(buf, at + this.txsPrefix.length, o.sequenceNumber);
        const key = buf.subarray(keyAt, at);
        const body = mine?.[j];
        if (body) {
          const valueAt = at;
          at = writeStoredTx(buf, view, at, t.tickNumber, o, body);
          ops.push(put(key, buf.subarray(valueAt, at)));
        } else ops.push(put(key, encodeStoredTx(t.tickNumber, o)));
        const indexAt = at;
        buf.set(this.indexPrefix, at);
        at = writeHash8(buf, at + this.indexPrefix.length, o.txHash);
        buf[at++] = COLON;
        at = writeSequence(buf, at, o.sequenceNumber);
        ops.push(put(buf.subarray(indexAt, at), tickText));
      }
    }
  }
}

function put(key: Uint8Array, value: Uint8Array): RootPut {
  return { type: 'put', key, value, keyEncoding: 'view', valueEncoding: 'view' };
}

function writeAscii(buf: Uint8Array, at: number, text: string): number {
  for (let k = 0; k < text.length; k++) buf[at + k] = text.charCodeAt(k);
  return at + text.length;
}

/**
 * 16 zero-padded decimal digits of a safe integer (disk-store.ts pad16), as ASCII. In two
 * halves of 8 digits, so every division is exact int32 arithmetic.
 */
function writeSequence(buf: Uint8Array, at: number, n: number): number {
  let hi = Math.floor(n / 1e8);
  let lo = n - hi * 1e8;
  if (lo < 0) {
    hi -= 1;
    lo += 1e8;
  } else if (lo >= 1e8) {
    hi += 1;
    lo -= 1e8;
  }
  writeDigits8(buf, at, hi);
  writeDigits8(buf, at + 8, lo);
  return at + SEQ_DIGITS;
}

function writeDigits8(buf: Uint8Array, at: number, v: number): void {
  let x = v | 0;
  for (let k = at + 7; k >= at; k--) {
    const q = (x / 10) | 0;
    buf[k] = ZERO + (x - q * 10);
    x = q;
  }
}

/** The first 4 bytes of the full hash as 8 lowercase hex digits (core shortHash). */
function writeHash8(buf: Uint8Array, at: number, hash: Uint8Array): number {
  for (let k = 0; k < 4; k++) {
    const b = hash[k]!;
    buf[at + 2 * k] = HEX[b >> 4]!;
    buf[at + 2 * k + 1] = HEX[b & 15]!;
  }
  return at + HASH_HEX;
}
