/**
 * Transactions this node checked the owner signature of before it submitted them (the
 * order entry writes, the applier reads): the applier does not check such a transaction
 * again when its tick comes. An entry holds the payload it was checked with, so a
 * different transaction under the same id is still checked; it is used once.
 */
import { bytesEqual } from '../crypto/index.js';
import type { OrderedTransaction } from '../core/index.js';

export class CheckedSubmissions {
  /** tx_id -> payload of transactions checked before their submission. */
  private readonly checked = new Map<string, Uint8Array>();

  /** The owner signature of `txId` with this payload was checked here. */
  add(txId: string, payload: Uint8Array): void {
    this.checked.set(txId, payload);
  }

  /** Forget an entry (the submission was refused, or timed out). */
  forget(txId: string): void {
    this.checked.delete(txId);
  }

  /** Was this ordered transaction checked before its submission? Consumes the entry. */
  readonly take = (otx: OrderedTransaction): boolean => {
    const p = this.checked.get(otx.transaction.txId);
    if (p === undefined || !bytesEqual(p, otx.transaction.payload)) return false;
    this.checked.delete(otx.transaction.txId);
    return true;
  };
}
