/**
 * The follower's lag in milliseconds (docs/full-node.md "Lag and status"): how long ago this
 * node first learned that the leader had tick `stored + 1`, the first tick it has not
 * verified and stored yet; 0 when it has stored every tick it knows the leader has. "Learned"
 * is the first of: the tick arriving on the stream, the leader's GetStatus naming a later
 * tick. Wall clock of this node, read when the status is asked for.
 *
 * It keeps, in tick order, when each new leader head became known; entries at or below the
 * stored tick are dropped as ticks are stored. Bounded: past MAX_ENTRIES the newest entry is
 * raised instead of a new one added (a later tick then counts from an earlier moment:
 * the lag of the first unstored tick, which is what is reported, is never affected).
 * It does not measure the leader's own delay in making a tick, nor clock differences.
 */

const MAX_ENTRIES = 4096;

export class LagClock {
  private readonly ticks: number[] = [];
  private readonly at: number[] = [];
  private head = 0;

  /** The leader has at least `tick`, known at `nowMs`. */
  known(tick: number, nowMs: number): void {
    const n = this.ticks.length;
    if (n > this.head && this.ticks[n - 1]! >= tick) return;
    if (n - this.head >= MAX_ENTRIES) {
      this.ticks[n - 1] = tick;
      return;
    }
    this.ticks.push(tick);
    this.at.push(nowMs);
  }

  /** Milliseconds since tick `storedTick + 1` became known; 0 if none beyond `storedTick` is known. */
  lagMs(storedTick: number, nowMs: number): number {
    while (this.head < this.ticks.length && this.ticks[this.head]! <= storedTick) this.head++;
    if (this.head > 1024 && this.head * 2 > this.ticks.length) {
      this.ticks.splice(0, this.head);
      this.at.splice(0, this.head);
      this.head = 0;
    }
    if (this.head >= this.ticks.length) return 0;
    return Math.max(0, nowMs - this.at[this.head]!);
  }
}
