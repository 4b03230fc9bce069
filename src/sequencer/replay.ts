/**
 * Replay protection over a bounded window of the most recent accepted transactions
 * (docs/sequencer.md "Replay protection"):
 *
 *   - the same transaction again (same full hash) is idempotent: the caller gets the
 *     original sequence number, expected tick and tx_hash, not a second copy;
 *   - a different transaction reusing a tx_id, or a (public_key, nonce) pair with a
 *     non-empty public_key, is refused with ALREADY_EXISTS.
 *
 * Only the last `windowSize` accepted transactions are remembered, so memory stays bounded
 * whatever the traffic. The window is a ring of `windowSize` slots in typed arrays, all
 * allocated up front: per slot the full hash, the answer (sequence number, expected tick,
 * the write-ahead promise), both keys' fingerprints and where its key bytes sit in a byte
 * ring (tx_id, then the pair). Two hash tables of slot numbers (replay-table.ts), keyed by
 * fingerprint, find a tx_id and a pair; a fingerprint match counts only once the key's
 * bytes are equal, so a collision never refuses anything. Checking and adding a
 * transaction makes no string, no Map entry and no object, except the answer of a
 * duplicate and the message of a conflict.
 *
 * The byte ring starts at BYTES_PER_SLOT per slot and doubles when longer keys need it, up
 * to the largest keys the limits allow (limits.ts); it never shrinks.
 */
import { shortHash } from '../core/index.js';
import { MAX_PUBLIC_KEY_BYTES, MAX_TX_ID_BYTES } from './limits.js';
import type { ReplayKeys } from './replay-keys.js';
import { SlotTable } from './replay-table.js';

export type { ReplayKeys };
export { replayKeysOf } from './replay-keys.js';

/** What a duplicate is answered with. */
export interface ReplayRecord {
  sequenceNumber: number;
  expectedTick: number;
  txHash: string;
  durable: Promise<void>;
}

export type ReplayVerdict =
  | { kind: 'new' }
  | { kind: 'duplicate'; record: ReplayRecord }
  | { kind: 'conflict'; message: string };

const NEW: ReplayVerdict = { kind: 'new' };

/** Key bytes a slot starts with in the byte ring: a 46-byte tx_id and a 32-byte key's pair fit. */
const BYTES_PER_SLOT = 96;
/** The longest keys of one transaction: tx_id and (u32 | public_key | u64). */
const MAX_KEY_BYTES = MAX_TX_ID_BYTES + 4 + MAX_PUBLIC_KEY_BYTES + 8;

const decoder = new TextDecoder();

export class ReplayGuard {
  private readonly hashes: Uint8Array; // 32 bytes per slot
  private readonly sequences: Float64Array;
  private readonly ticks: Float64Array;
  private readonly durables: Array<Promise<void> | undefined>;
  private readonly prints: Int32Array; // per slot: tx_id lo, hi, pair lo, hi
  private readonly keyAt: Uint32Array; // where the slot's key bytes start in `keys`
  private readonly idLength: Uint8Array;
  private readonly pairLength: Uint16Array; // 0: no pair
  private keys: Uint8Array;
  private keysEnd = 0; // where the next slot's key bytes go
  private readonly byId: SlotTable;
  private readonly byPair: SlotTable;
  private head = 0; // the oldest slot
  private count = 0;

  /** `seed` fixes the tables' positions (tests); by default each table draws its own. */
  constructor(
    readonly windowSize: number,
    seed?: number,
  ) {
    if (!Number.isInteger(windowSize) || windowSize < 1) throw new RangeError('replay window must be >= 1');
    this.hashes = new Uint8Array(windowSize * 32);
    this.sequences = new Float64Array(windowSize);
    this.ticks = new Float64Array(windowSize);
    this.durables = new Array<Promise<void> | undefined>(windowSize).fill(undefined);
    this.prints = new Int32Array(windowSize * 4);
    this.keyAt = new Uint32Array(windowSize);
    this.idLength = new Uint8Array(windowSize);
    this.pairLength = new Uint16Array(windowSize);
    this.keys = new Uint8Array(Math.max(windowSize * BYTES_PER_SLOT, 2 * MAX_KEY_BYTES));
    this.byId = new SlotTable(windowSize, seed);
    this.byPair = new SlotTable(windowSize, seed === undefined ? undefined : seed ^ 0x5bd1e995);
  }

  /** Transactions currently remembered. */
  size(): number {
    return this.count;
  }

  /** Bytes the window holds now (its typed arrays; the promises it keeps are the write-ahead log's). */
  bytes(): number {
    const tables = (this.byId.capacity + this.byPair.capacity) * 8;
    return this.windowSize * (32 + 8 + 8 + 8 + 16 + 4 + 1 + 2) + this.keys.length + tables;
  }

  check(k: ReplayKeys): ReplayVerdict {
    const slot = this.findId(k);
    if (slot >= 0) {
      if (this.sameHash(slot, k.fullHash)) return { kind: 'duplicate', record: this.recordOf(slot) };
      const txId = decoder.decode(k.keyBytes.subarray(k.idAt, k.idEnd));
      return { kind: 'conflict', message: `tx_id '${txId}' is already used by another transaction` };
    }
    if (k.pkNonceEnd > k.pkNonceAt && this.findPair(k) >= 0) {
      return { kind: 'conflict', message: 'nonce is already used with this public_key by another transaction' };
    }
    return NEW;
  }

  /**
   * Remember a transaction that check() called new (or one already sequenced, on
   * restart). A key already in the window then points at this, the newer, transaction.
   */
  add(k: ReplayKeys, record: ReplayRecord): void {
    if (this.count === this.windowSize) this.evictOldest();
    let slot = this.head + this.count;
    if (slot >= this.windowSize) slot -= this.windowSize;
    const idLength = k.idEnd - k.idAt;
    const pairLength = k.pkNonceEnd - k.pkNonceAt;
    if (idLength > MAX_TX_ID_BYTES || idLength + pairLength > MAX_KEY_BYTES) {
      throw new RangeError(`replay keys of ${idLength} + ${pairLength} bytes exceed the transaction limits`);
    }
    const at = this.reserve(span(idLength, pairLength));
    copy(k.keyBytes, k.idAt, idLength, this.keys, at);
    copy(k.keyBytes, k.pkNonceAt, pairLength, this.keys, at + idLength);
    copy(k.fullHash, 0, 32, this.hashes, slot * 32);
    this.keyAt[slot] = at;
    this.idLength[slot] = idLength;
    this.pairLength[slot] = pairLength;
    this.sequences[slot] = record.sequenceNumber;
    this.ticks[slot] = record.expectedTick;
    this.durables[slot] = record.durable;
    const p = slot * 4;
    this.prints[p] = k.idPrintLo;
    this.prints[p + 1] = k.idPrintHi;
    this.prints[p + 2] = k.pkNoncePrintLo;
    this.prints[p + 3] = k.pkNoncePrintHi;
    this.count++;
    this.insert(this.byId, slot, 0);
    if (pairLength > 0) this.insert(this.byPair, slot, 2);
  }

  /** The slot remembering k's tx_id, or -1. */
  private findId(k: ReplayKeys): number {
    const t = this.byId;
    for (let pos = t.home(k.idPrintLo); ; pos = t.next(pos)) {
      const slot = t.slotAt(pos);
      if (slot < 0) return -1;
      if (
        t.loAt(pos) === k.idPrintLo &&
        this.prints[slot * 4 + 1] === k.idPrintHi &&
        this.idLength[slot] === k.idEnd - k.idAt &&
        equal(this.keys, this.keyAt[slot]!, k.keyBytes, k.idAt, k.idEnd - k.idAt)
      ) {
        return slot;
      }
    }
  }

  /** The slot remembering k's (public_key, nonce) pair, or -1. */
  private findPair(k: ReplayKeys): number {
    const t = this.byPair;
    const length = k.pkNonceEnd - k.pkNonceAt;
    for (let pos = t.home(k.pkNoncePrintLo); ; pos = t.next(pos)) {
      const slot = t.slotAt(pos);
      if (slot < 0) return -1;
      if (
        t.loAt(pos) === k.pkNoncePrintLo &&
        this.prints[slot * 4 + 3] === k.pkNoncePrintHi &&
        this.pairLength[slot] === length &&
        equal(this.keys, this.keyAt[slot]! + this.idLength[slot]!, k.keyBytes, k.pkNonceAt, length)
      ) {
        return slot;
      }
    }
  }

  /** Index `slot` in `t` under its key (`word` 0: tx_id, 2: the pair); an older slot with the same key gives way. */
  private insert(t: SlotTable, slot: number, word: number): void {
    const lo = this.prints[slot * 4 + word]!;
    const hi = this.prints[slot * 4 + word + 1]!;
    for (let pos = t.home(lo); ; pos = t.next(pos)) {
      const other = t.slotAt(pos);
      if (
        other < 0 ||
        (t.loAt(pos) === lo && this.prints[other * 4 + word + 1] === hi && this.sameKey(other, slot, word))
      ) {
        t.put(pos, slot, lo);
        return;
      }
    }
  }

  /** Whether slots a and b hold the same tx_id (`word` 0) or the same pair (2). */
  private sameKey(a: number, b: number, word: number): boolean {
    const lengths = word === 0 ? this.idLength : this.pairLength;
    const length = lengths[a]!;
    if (length !== lengths[b]) return false;
    const skipA = word === 0 ? 0 : this.idLength[a]!;
    const skipB = word === 0 ? 0 : this.idLength[b]!;
    return equal(this.keys, this.keyAt[a]! + skipA, this.keys, this.keyAt[b]! + skipB, length);
  }

  private sameHash(slot: number, fullHash: Uint8Array): boolean {
    return equal(this.hashes, slot * 32, fullHash, 0, 32);
  }

  private recordOf(slot: number): ReplayRecord {
    return {
      sequenceNumber: this.sequences[slot]!,
      expectedTick: this.ticks[slot]!,
      txHash: shortHash(this.hashes.subarray(slot * 32, slot * 32 + 32)),
      durable: this.durables[slot]!,
    };
  }

  private evictOldest(): void {
    const slot = this.head;
    const p = slot * 4;
    const atId = this.byId.find(slot, this.prints[p]!);
    if (atId >= 0) this.byId.remove(atId);
    if (this.pairLength[slot]! > 0) {
      const atPair = this.byPair.find(slot, this.prints[p + 2]!);
      if (atPair >= 0) this.byPair.remove(atPair);
    }
    this.durables[slot] = undefined;
    this.head = slot + 1 === this.windowSize ? 0 : slot + 1;
    this.count--;
  }

  /**
   * Where `n` key bytes of the next slot go. The ring's live bytes run from the oldest
   * slot's to keysEnd, wrapping to 0 where a slot's bytes would not fit at the end.
   */
  private reserve(n: number): number {
    if (this.count === 0) this.keysEnd = 0;
    const start = this.count === 0 ? 0 : this.keyAt[this.head]!;
    const end = this.keysEnd;
    let at = -1;
    if (this.count === 0 || end > start) {
      if (this.keys.length - end >= n) at = end;
      else if (start > n) at = 0; // the live bytes stay ahead: strictly, so end never meets start
    } else if (start - end > n) {
      at = end;
    }
    if (at < 0) at = this.grow(n);
    this.keysEnd = at + n;
    return at;
  }

  /** Twice the byte ring (or more), the live slots' bytes moved to its start in order; where `n` more go. */
  private grow(n: number): number {
    let live = 0;
    for (let i = 0, s = this.head; i < this.count; i++, s = s + 1 === this.windowSize ? 0 : s + 1) {
      live += span(this.idLength[s]!, this.pairLength[s]!);
    }
    let size = this.keys.length * 2;
    while (size < live + n + 1) size *= 2;
    const keys = new Uint8Array(size);
    let at = 0;
    for (let i = 0, s = this.head; i < this.count; i++, s = s + 1 === this.windowSize ? 0 : s + 1) {
      copy(this.keys, this.keyAt[s]!, this.idLength[s]! + this.pairLength[s]!, keys, at);
      this.keyAt[s] = at;
      at += span(this.idLength[s]!, this.pairLength[s]!);
    }
    this.keys = keys;
    return at;
  }
}

/** Bytes a slot takes in the byte ring: at least one, so live bytes never look like none. */
function span(idLength: number, pairLength: number): number {
  return Math.max(1, idLength + pairLength);
}

function equal(a: Uint8Array, aAt: number, b: Uint8Array, bAt: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[aAt + i] !== b[bAt + i]) return false;
  return true;
}

function copy(from: Uint8Array, fromAt: number, n: number, to: Uint8Array, toAt: number): void {
  for (let i = 0; i < n; i++) to[toAt + i] = from[fromAt + i]!;
}
