/**
 * Proofs in flight: the Wesolowski proofs of long segments (heartbeats, cut heartbeats,
 * ticks lengthened by a full tick ring) computed on the pool while the ticks they belong
 * to are already durable and ordered (docs/sequencer.md "Order first, proof after").
 *
 * A proof starts `startDelayMs` after its tick leaves the clock (the work that answers the
 * transactions behind a cut heartbeat goes first: PROOF_START_DELAY_MS in options.ts);
 * proofs run in parallel and settle in any order. The pump takes the settled ones (`takeSettled`) and writes them beside the
 * next ticks; the tick log shows ticks with their proofs strictly in order. This file does
 * no I/O and knows nothing of the order: it only tracks promises.
 */
import type { ClockTick } from '../clock/index.js';

export interface SettledProof {
  tickNumber: number;
  proof: Uint8Array;
}

export class ProofsInFlight {
  private running = 0;
  private settled: SettledProof[] = [];
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  /** `prove` computes the proof of a tick flagged proofPending. */
  constructor(
    private readonly prove: (tick: ClockTick) => Promise<Uint8Array>,
    private readonly startDelayMs = 0,
  ) {}

  /** Proofs started and not yet taken. */
  get size(): number {
    return this.running + this.settled.length;
  }

  /** Start the pool proof of a tick whose proof is pending. */
  start(tick: ClockTick): void {
    this.running++;
    const started =
      this.startDelayMs > 0
        ? new Promise<void>((resolve) => setTimeout(resolve, this.startDelayMs)).then(() => this.prove(tick))
        : this.prove(tick);
    started.then(
      (proof) => {
        this.running--;
        this.settled.push({ tickNumber: tick.tickNumber, proof });
        this.notify();
      },
      (err: unknown) => {
        this.running--;
        const why = err instanceof Error ? err.message : String(err);
        this.failure ??= new Error(`the VDF proof of tick ${tick.tickNumber} failed: ${why}`);
        this.notify();
      },
    );
  }

  /** Every proof settled since the last call; throws once a proof has failed. */
  takeSettled(): SettledProof[] {
    if (this.failure) throw this.failure;
    const out = this.settled;
    this.settled = [];
    return out;
  }

  /** Resolves when a proof settles (at once if one settled and was not taken). */
  nextSettled(): Promise<void> {
    if (this.settled.length > 0 || this.failure) return Promise.resolve();
    return new Promise((resolve) => {
      const previous = this.wake;
      this.wake = () => {
        previous?.();
        resolve();
      };
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
