/**
 * Replay protection over a bounded window of the most recent accepted transactions
 * (docs/sequencer.md "Replay protection"):
 *
 *   - the same transaction again (same full hash) is idempotent: the caller gets the
 *     original sequence number, expected tick and tx_hash, not a second copy;
 *   - a different transaction reusing a tx_id, or a (public_key, nonce) pair with a
 *     non-empty public_key, is refused with ALREADY_EXISTS.
 *
 * Only the last `windowSize` accepted transactions are remembered (a FIFO of keys), so
 * memory stays bounded whatever the traffic; older ones can be replayed, which
 * clients that need stronger guarantees prevent with their own nonces/signatures.
 */
export interface ReplayRecord {
  hashKey: string; // hashKey() of the transaction's full hash
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

/**
 * Key of a (public_key, nonce) pair, or undefined when the key is empty: one character
 * per byte of u32 LE length | public_key | u64 LE nonce, i.e. the pair exactly as it sits
 * in the transaction's Borsh bytes (intake slices it from there: prepare.ts).
 */
export function pkNonceKey(publicKey: Uint8Array, nonce: bigint): string | undefined {
  if (publicKey.length === 0) return undefined;
  const b = Buffer.allocUnsafe(4 + publicKey.length + 8);
  b.writeUInt32LE(publicKey.length, 0);
  b.set(publicKey, 4);
  b.writeBigUInt64LE(nonce, 4 + publicKey.length);
  return (b as unknown as Latin1).latin1Slice(0, b.length);
}

/** Buffer's own latin1 slicer (Node API, absent from the typings): one call, no view object. */
type Latin1 = { latin1Slice(start: number, end: number): string };

/** Key of a full hash (32 one-byte characters). */
export function hashKey(fullHash: Uint8Array): string {
  // sha256() gives a Buffer: slice it directly.
  if (Buffer.isBuffer(fullHash)) return (fullHash as unknown as Latin1).latin1Slice(0, fullHash.length);
  return Buffer.from(fullHash.buffer, fullHash.byteOffset, fullHash.length).toString('latin1');
}

export class ReplayGuard {
  // An identical transaction has the same tx_id (the hash covers it), so one map keyed
  // by tx_id answers both "duplicate" (same hash) and "tx_id reused" (other hash).
  private readonly byId = new Map<string, ReplayRecord>();
  private readonly byPkNonce = new Map<string, string>(); // -> hash key
  // The FIFO of remembered keys as parallel rings (no object per transaction).
  private readonly hashes: Array<string | undefined>;
  private readonly ids: Array<string | undefined>;
  private readonly pkNonces: Array<string | undefined>;
  private head = 0;
  private count = 0;

  constructor(readonly windowSize: number) {
    if (!Number.isInteger(windowSize) || windowSize < 1) throw new RangeError('replay window must be >= 1');
    this.hashes = new Array<string | undefined>(windowSize);
    this.ids = new Array<string | undefined>(windowSize);
    this.pkNonces = new Array<string | undefined>(windowSize);
  }

  /** Transactions currently remembered. */
  size(): number {
    return this.count;
  }

  check(hash: string, txId: string, pkNonce: string | undefined): ReplayVerdict {
    const seen = this.byId.get(txId);
    if (seen) {
      if (seen.hashKey === hash) return { kind: 'duplicate', record: seen };
      return { kind: 'conflict', message: `tx_id '${txId}' is already used by another transaction` };
    }
    if (pkNonce !== undefined && this.byPkNonce.has(pkNonce)) {
      return { kind: 'conflict', message: 'nonce is already used with this public_key by another transaction' };
    }
    return NEW;
  }

  /** Remember a transaction that check() called new (`record.hashKey` is its hash key). */
  add(txId: string, pkNonce: string | undefined, record: ReplayRecord): void {
    if (this.count === this.windowSize) this.evictOldest();
    let at = this.head + this.count;
    if (at >= this.windowSize) at -= this.windowSize;
    this.hashes[at] = record.hashKey;
    this.ids[at] = txId;
    this.pkNonces[at] = pkNonce;
    this.count++;
    this.byId.set(txId, record);
    if (pkNonce !== undefined) this.byPkNonce.set(pkNonce, record.hashKey);
  }

  private evictOldest(): void {
    const at = this.head;
    const hash = this.hashes[at]!;
    const id = this.ids[at]!;
    const pk = this.pkNonces[at];
    this.hashes[at] = this.ids[at] = this.pkNonces[at] = undefined;
    this.head = at + 1 === this.windowSize ? 0 : at + 1;
    this.count--;
    if (this.byId.get(id)?.hashKey === hash) this.byId.delete(id);
    if (pk !== undefined && this.byPkNonce.get(pk) === hash) this.byPkNonce.delete(pk);
  }
}
