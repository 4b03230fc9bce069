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
  sequenceNumber: number;
  expectedTick: number;
  txHash: string;
  durable: Promise<void>;
}

export type ReplayVerdict =
  | { kind: 'new' }
  | { kind: 'duplicate'; record: ReplayRecord }
  | { kind: 'conflict'; message: string };

interface Slot {
  hashKey: string;
  idKey: string;
  pkNonceKey: string | undefined;
}

/** Key of a (public_key, nonce) pair, or undefined when the key is empty. */
export function pkNonceKey(publicKey: Uint8Array, nonce: bigint): string | undefined {
  if (publicKey.length === 0) return undefined;
  return `${publicKey.length}:${Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.length).toString('latin1')}${nonce}`;
}

/** Key of a full hash (32 one-byte characters). */
export function hashKey(fullHash: Uint8Array): string {
  return Buffer.from(fullHash.buffer, fullHash.byteOffset, fullHash.length).toString('latin1');
}

export class ReplayGuard {
  private readonly byHash = new Map<string, ReplayRecord>();
  private readonly byId = new Map<string, string>();
  private readonly byPkNonce = new Map<string, string>();
  private readonly fifo: Array<Slot | undefined>;
  private head = 0;
  private count = 0;

  constructor(readonly windowSize: number) {
    if (!Number.isInteger(windowSize) || windowSize < 1) throw new RangeError('replay window must be >= 1');
    this.fifo = new Array<Slot | undefined>(windowSize);
  }

  /** Transactions currently remembered. */
  size(): number {
    return this.count;
  }

  check(hash: string, txId: string, pkNonce: string | undefined): ReplayVerdict {
    const record = this.byHash.get(hash);
    if (record) return { kind: 'duplicate', record };
    if (this.byId.has(txId)) return { kind: 'conflict', message: `tx_id '${txId}' is already used by another transaction` };
    if (pkNonce !== undefined && this.byPkNonce.has(pkNonce)) {
      return { kind: 'conflict', message: 'nonce is already used with this public_key by another transaction' };
    }
    return { kind: 'new' };
  }

  add(hash: string, txId: string, pkNonce: string | undefined, record: ReplayRecord): void {
    if (this.count === this.windowSize) this.evictOldest();
    const slot: Slot = { hashKey: hash, idKey: txId, pkNonceKey: pkNonce };
    this.fifo[(this.head + this.count) % this.windowSize] = slot;
    this.count++;
    this.byHash.set(hash, record);
    this.byId.set(txId, hash);
    if (pkNonce !== undefined) this.byPkNonce.set(pkNonce, hash);
  }

  private evictOldest(): void {
    const slot = this.fifo[this.head]!;
    this.fifo[this.head] = undefined;
    this.head = (this.head + 1) % this.windowSize;
    this.count--;
    this.byHash.delete(slot.hashKey);
    if (this.byId.get(slot.idKey) === slot.hashKey) this.byId.delete(slot.idKey);
    if (slot.pkNonceKey !== undefined && this.byPkNonce.get(slot.pkNonceKey) === slot.hashKey) {
      this.byPkNonce.delete(slot.pkNonceKey);
    }
  }
}
