/**
 * Proof staging: closed ticks wait here, in order, until their proofs are ready. A tick
 * with a trivial proof is ready at once; a long segment (heartbeat, cut heartbeat) gets
 * its Wesolowski proof from the pool, started as soon as the tick is staged, so proofs run
 * in parallel while ticks are still committed strictly in tick order (the ready prefix).
 */
import type { ClockTick } from '../clock/protocol.js';

/** Most ticks staged at once (the tick ring holds the rest). */
export const MAX_STAGED = 16_384;

interface StagedTick {
  tick: ClockTick;
  ready: boolean;
  proof?: Promise<void>;
  error?: Error;
}

export class ProofStaging {
  private readonly staged: StagedTick[] = [];

  /** `prove` computes the proof of a tick flagged proofPending. */
  constructor(private readonly prove: (tick: ClockTick) => Promise<Uint8Array>) {}

  get size(): number {
    return this.staged.length;
  }

  /** How many more ticks may be staged. */
  room(): number {
    return MAX_STAGED - this.staged.length;
  }

  /** Stage a closed tick; its pool proof starts now if it needs one. */
  add(tick: ClockTick): void {
    const item: StagedTick = { tick, ready: !tick.proofPending };
    if (tick.proofPending) {
      item.proof = this.prove(tick).then(
        (proof) => {
          tick.proof = proof;
          item.ready = true;
        },
        (err: unknown) => {
          item.error = err instanceof Error ? err : new Error(String(err));
          item.ready = true;
        },
      );
    }
    this.staged.push(item);
  }

  /** Up to `max` ticks from the front whose proofs are ready; throws if one of them failed. */
  takeReady(max: number): ClockTick[] {
    let ready = 0;
    while (ready < this.staged.length && ready < max && this.staged[ready]!.ready) {
      const failed = this.staged[ready]!.error;
      if (failed) throw new Error(`heartbeat proof of tick ${this.staged[ready]!.tick.tickNumber} failed: ${failed.message}`);
      ready++;
    }
    return this.staged.splice(0, ready).map((s) => s.tick);
  }

  /** Does a tick with transactions sit in the ready prefix? */
  readyCarriesTransactions(): boolean {
    for (const s of this.staged) {
      if (!s.ready) return false;
      if (s.tick.txCount > 0) return true;
    }
    return false;
  }

  /** Resolves once the first staged tick's proof has settled. */
  async firstSettled(): Promise<void> {
    await this.staged[0]?.proof;
  }
}
