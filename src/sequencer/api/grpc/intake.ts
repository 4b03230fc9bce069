/**
 * SubmitBatch on the intake threads (`--intake-threads`, src/intake): a request goes to an
 * intake worker (workers/intake.worker.ts, task `submitBatch`) as the bytes that came off
 * the wire and comes back prepared (src/sequencer/prepare.ts): protobuf decoding,
 * validation, Borsh, SHA-256 and every stored encoding run there, in parallel across
 * threads, while the sequencer admits prepared requests in their arrival order. With 0
 * threads nothing of this exists and the face decodes and prepares on the main thread.
 * The node's one IntakeThreads also serves the other services' tasks (ChainService SubmitTx).
 */
import { IntakePool } from '../../../intake/index.js';
import type { PreparedBatch } from '../../index.js';
import { SubmitError } from '../../index.js';

/** Bytes of SubmitBatch requests being prepared at once, at most. */
export const MAX_INTAKE_BYTES = 64 * 2 ** 20;

/** The intake threads, with the sequencer's SubmitBatch task. */
export class IntakeThreads extends IntakePool {
  private bytesInIntake = 0;

  /**
   * Decode and prepare a SubmitBatch request's bytes; rejects with the sequencer's
   * INVALID_ARGUMENT SubmitError when it is malformed as a whole (nothing of it admitted), or
   * with RESOURCE_EXHAUSTED while MAX_INTAKE_BYTES of requests are already being prepared
   * (so many large requests cannot pile up memory: the arrival line counts requests, this
   * counts their bytes).
   */
  async prepareSubmitBatch(raw: Uint8Array): Promise<PreparedBatch> {
    if (this.bytesInIntake + raw.length > MAX_INTAKE_BYTES) {
      throw new SubmitError(
        'RESOURCE_EXHAUSTED',
        `${MAX_INTAKE_BYTES / 2 ** 20} MiB of requests are already being prepared; retry later`,
      );
    }
    const size = raw.length;
    this.bytesInIntake += size;
    try {
      const answer = await this.run<PreparedBatch | { malformed: string }>('submitBatch', raw);
      if ('malformed' in answer) throw new SubmitError('INVALID_ARGUMENT', answer.malformed);
      return answer;
    } finally {
      this.bytesInIntake -= size;
    }
  }
}
