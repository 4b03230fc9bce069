/**
 * Receipts of the HTTP face (spec/2, docs/signing.md): the receipt data of an applied
 * order or cancel, signed by the node's key. Signing requests of one turn of the event
 * loop (typically the waiters of one tick) go together: on this thread when there are at
 * most `inlineMax` (node:crypto, tens of µs each), else as one task of the signature pool.
 */
import { sha256 } from '../crypto/index.js';
import { toBase58Key, bytesToHex } from '../crypto/index.js';
import { receiptMessage, type ReceiptData } from '../core/index.js';
import type { Receipt } from '../core/index.js';
import type { Tick } from '../core/index.js';
import type { AppliedTx } from './engine/index.js';
import type { NodeKey } from './node-key.js';
import type { BookOrder } from './engine/index.js';
import { signBatch } from '../crypto/index.js';

export interface BatchSigner {
  signMany(seed: Uint8Array, messages: Uint8Array[]): Promise<Uint8Array[]>;
}

/**
 * The signed fields of the receipt of an applied order or cancel (`applied.marketRoot`
 * set); a mass cancel passes its request id as the order id.
 */
export function receiptDataOf(
  applied: AppliedTx,
  order: Pick<BookOrder, 'orderId' | 'owner'>,
  tick: Tick,
  sequencerId: string,
): ReceiptData {
  if (applied.marketRoot === undefined) throw new Error('receipt without a market root');
  return {
    orderId: order.orderId,
    owner: order.owner,
    timestampMs: BigInt(Math.floor(tick.timestamp / 1000)),
    sequencerId,
    merkleRoot: applied.marketRoot,
    tickNumber: BigInt(tick.tickNumber),
    continuumSequence: applied.continuumSequence,
    txHash: applied.otx.txHash,
  };
}

export function receiptJson(r: ReceiptData, signature: Uint8Array): Receipt {
  return {
    order_id: r.orderId.toString(),
    owner: toBase58Key(r.owner),
    timestamp_ms: Number(r.timestampMs),
    sequencer_id: r.sequencerId,
    merkle_root: bytesToHex(r.merkleRoot),
    sequencer_signature: bytesToHex(signature),
    tick_number: Number(r.tickNumber),
    continuum_sequence: r.continuumSequence.toString(),
    tx_hash: bytesToHex(r.txHash),
  };
}

interface Pending {
  message: Uint8Array;
  resolve(sig: Uint8Array): void;
  reject(err: Error): void;
}

export class ReceiptSigner {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly key: NodeKey,
    private readonly pool: BatchSigner,
    private readonly inlineMax: number,
  ) {}

  /** Sign a receipt; requests of the same turn are signed together. */
  sign(data: ReceiptData): Promise<Receipt> {
    const message = receiptMessage(data, sha256);
    return new Promise<Uint8Array>((resolve, reject) => {
      this.pending.push({ message, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    }).then((sig) => receiptJson(data, sig));
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    if (batch.length <= this.inlineMax) {
      for (const p of batch) {
        try {
          p.resolve(signBatch({ seed: this.key.secretKey, messages: [p.message] })[0]!);
        } catch (err) {
          p.reject(err as Error);
        }
      }
      return;
    }
    this.pool
      .signMany(
        this.key.secretKey,
        batch.map((p) => p.message),
      )
      .then(
        (sigs) => batch.forEach((p, i) => p.resolve(sigs[i]!)),
        (err: unknown) => batch.forEach((p) => p.reject(err as Error)),
      );
  }
}
