/**
 * Batches ed25519 checks into Piscina tasks (workers/ed25519.worker.ts): callers ask for
 * one verification and get a promise; requests that arrive in the same turn of the event
 * loop travel to the pool together (up to MAX_BATCH per task), which amortises the
 * round trip. A turn's checks are made on this thread instead when there are at most
 * `inlineMax` of them (node:crypto, ~0.1 ms each): a lone order then skips the pool's
 * round trip (a post, a pool thread's turn, the result's turn here), which under load
 * costs it milliseconds. Only a thread that does not order may spend its time that way,
 * so the default is 0 (always the pool). Signing of receipts goes the same way.
 */
import type { Piscina } from 'piscina';
import { signBatch, verifyOne, type VerifyItem } from '../crypto/index.js';
import { ed25519EncodingViolation } from '../crypto/index.js';
import { workerFile } from '../pool/index.js';

const MAX_BATCH = 64;

export class BatchVerifier {
  private pending: VerifyItem[] = [];
  private waiters: Array<(ok: boolean) => void> = [];
  private scheduled = false;
  private readonly filename = workerFile('ed25519');

  constructor(
    private readonly pool: Piscina,
    private readonly inlineMax = 0,
  ) {}

  /** svc's rules (src/crypto/ed25519-rules.ts): byte checks here, the equation in the pool or (a small turn) inline. */
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
    if (ed25519EncodingViolation(publicKey, signature) !== undefined) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      this.pending.push({ publicKey, message, signature });
      this.waiters.push(resolve);
      if (this.pending.length >= MAX_BATCH) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Verify many at once (replays), in chunks of MAX_BATCH run in parallel. */
  async verifyMany(items: VerifyItem[]): Promise<boolean[]> {
    const chunks: Promise<Uint8Array>[] = [];
    for (let i = 0; i < items.length; i += MAX_BATCH) {
      chunks.push(
        this.pool.run(
          { items: items.slice(i, i + MAX_BATCH) },
          { filename: this.filename, name: 'verifyBatch' },
        ) as Promise<Uint8Array>,
      );
    }
    const out: boolean[] = [];
    for (const r of await Promise.all(chunks)) for (const v of r) out.push(v === 1);
    return out;
  }

  private flush(): void {
    this.scheduled = false;
    if (this.pending.length <= this.inlineMax) {
      const items = this.pending;
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      items.forEach((item, i) => waiters[i]!(verifyOne(item)));
      return;
    }
    while (this.pending.length > 0) {
      const items = this.pending.splice(0, MAX_BATCH);
      const waiters = this.waiters.splice(0, MAX_BATCH);
      (this.pool.run({ items }, { filename: this.filename, name: 'verifyBatch' }) as Promise<Uint8Array>).then(
        (res) => waiters.forEach((w, i) => w(res[i] === 1)),
        () => waiters.forEach((w) => w(false)),
      );
    }
  }

  signMany(seed: Uint8Array, messages: Uint8Array[]): Promise<Uint8Array[]> {
    return this.pool.run({ seed, messages }, { filename: this.filename, name: 'signBatch' }) as Promise<Uint8Array[]>;
  }
}

/** Sign one message on this thread with the same code the pool runs (key objects cached). */
export function signInline(seed: Uint8Array, message: Uint8Array): Uint8Array {
  return signBatch({ seed, messages: [message] })[0]!;
}
