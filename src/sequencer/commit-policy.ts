/**
 * When the pump writes what the clock closed (docs/sequencer.md "Commit"). A tick with
 * transactions is written at once: someone waits for its order. An empty tick waits for
 * no one, so it is held until it can share a write: with the tick that follows it when
 * that one carries transactions (a cut heartbeat and the transaction's own tick, one
 * write on the transaction's path instead of two), or with its own proof (a heartbeat:
 * one write instead of the tick's and then its proof's), or for at most HOLD_EMPTY_MS.
 * A held tick is not durable yet; nothing was shown of it, so a crash that loses it
 * loses nothing anyone saw (the chain resumes from the last stored tick). Pure.
 */

/** Longest an empty tick waits for a write to share (a heartbeat's pool proof takes ~15-25 ms). */
export const HOLD_EMPTY_MS = 50;

export interface HeldTicks {
  count: number; // closed ticks not written yet
  carryTransactions: boolean; // one of them carries transactions
  waitingForProof: number; // how many of them still wait for a pool proof
  heldForMs: number; // since the oldest of them was taken
  stopping: boolean; // the sequencer is stopping or failed: write everything now
}

/** Write the held ticks now? */
export function writeHeldNow(h: HeldTicks): boolean {
  if (h.count === 0) return false;
  return h.carryTransactions || h.waitingForProof === 0 || h.heldForMs >= HOLD_EMPTY_MS || h.stopping;
}
