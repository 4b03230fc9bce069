/**
 * The gRPC face's intake threads (`--intake-threads`, issue 8 point 2): a SubmitBatch
 * request goes to an intake worker (workers/intake.worker.ts) as the bytes that came off
 * the wire and comes back prepared (src/sequencer/prepare.ts): protobuf decoding,
 * validation, Borsh, SHA-256 and every stored encoding run there, in parallel across
 * threads, while the sequencer admits prepared requests in their arrival order
 * (src/sequencer/arrivals.ts). ChainService SubmitTx requests go the same way: decoded,
 * checked and their ed25519 signature verified on a worker (src/chain/grpc/submit-check.ts),
 * leaving the main thread the state checks and the order. With 0 threads nothing of this
 * exists and the face decodes and prepares on the main thread, as before.
 */
import { Piscina } from 'piscina';
import { workerFile } from '../../pool/index.js';
import type { PreparedBatch } from '../../sequencer/prepare.js';
import { SubmitError } from '../../sequencer/interface.js';
import { isRefusal, type Refusal, type SignedOff } from '../../chain/grpc/submit-check.js';

/** The request as a whole is malformed (INVALID_ARGUMENT); nothing of it was admitted. */
export class MalformedRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedRequest';
  }
}

/** Bytes of SubmitBatch requests being prepared at once, at most. */
export const MAX_INTAKE_BYTES = 64 * 2 ** 20;

/** Most SubmitTx requests one intake task checks. */
export const SUBMIT_TX_PER_TASK = 64;

interface QueuedSubmitTx {
  bytes: Uint8Array;
  resolve(s: SignedOff): void;
  reject(e: unknown): void;
}

export class IntakeThreads {
  private readonly pool: Piscina;
  private txQueue: QueuedSubmitTx[] = [];
  private bytesInIntake = 0;

  constructor(readonly threads: number) {
    this.pool = new Piscina({ filename: workerFile('intake'), minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
  }

  /**
   * Decode and prepare a SubmitBatch request's bytes; rejects with MalformedRequest, or
   * with RESOURCE_EXHAUSTED while MAX_INTAKE_BYTES of requests are already being prepared
   * (so many large requests cannot pile up memory: the arrival line counts requests, this
   * counts their bytes).
   */
  async prepareSubmitBatch(raw: Uint8Array): Promise<PreparedBatch> {
    if (this.bytesInIntake + raw.length > MAX_INTAKE_BYTES) {
      throw new SubmitError('RESOURCE_EXHAUSTED', `${MAX_INTAKE_BYTES / 2 ** 20} MiB of requests are already being prepared; retry later`);
    }
    // A copy of exactly the request, moved to the worker: `raw` may be a view into a
    // larger buffer that a structured clone would copy whole.
    const bytes = new Uint8Array(raw);
    const size = bytes.length;
    this.bytesInIntake += size;
    try {
      const answer = (await this.pool.run(bytes, { name: 'submitBatch', transferList: [bytes.buffer] })) as PreparedBatch | { malformed: string };
      if ('malformed' in answer) throw new MalformedRequest(answer.malformed);
      return answer;
    } finally {
      this.bytesInIntake -= size;
    }
  }

  /**
   * Decode and check a ChainService SubmitTx request's bytes, its ed25519 signature
   * included; rejects with the Refusal (a gRPC status) when the request is refused as is.
   * Requests that arrive in the same turn of the event loop go to a worker together (up
   * to SUBMIT_TX_PER_TASK): one task per order would cost the main thread about as much
   * in dispatch as the checks it moves away.
   */
  prepareSubmitTx(raw: Uint8Array): Promise<SignedOff> {
    return new Promise<SignedOff>((resolve, reject) => {
      this.txQueue.push({ bytes: new Uint8Array(raw), resolve, reject });
      if (this.txQueue.length === 1) setImmediate(() => this.flushSubmitTx());
    });
  }

  private flushSubmitTx(): void {
    while (this.txQueue.length > 0) {
      const batch = this.txQueue.splice(0, SUBMIT_TX_PER_TASK);
      const list = batch.map((b) => b.bytes);
      (this.pool.run(list, { name: 'submitTxs', transferList: list.map((b) => b.buffer as ArrayBuffer) }) as Promise<Array<SignedOff | Refusal>>).then(
        (answers) =>
          answers.forEach((a, i) => {
            if (isRefusal(a)) batch[i]!.reject(a);
            else batch[i]!.resolve(a);
          }),
        (err: unknown) => {
          for (const b of batch) b.reject(err);
        },
      );
    }
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
