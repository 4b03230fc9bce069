/**
 * Shedding for the order entry (docs/dex-api.md "Overload"): how many orders, cancels and
 * market creations may be pending at once (taken, not yet answered), shared fairly between
 * client addresses, and how long one may wait before the sequencer takes it.
 *
 * The share is max-min fair: with `k` addresses holding pending requests, an address may
 * hold at most `floor(maxPending / k)` (at least 1). An address under its share is taken
 * even while the total is at `maxPending` (one flooding address cannot lock another out);
 * an address that already holds its share is refused at once. So the total stays within
 * `maxPending` plus the shares of addresses that arrived since, and no address waits
 * behind another's backlog.
 *
 * This is bookkeeping only: no clock is read here and nothing here touches the order
 * book's state; the caller refuses (503 QUEUE_FULL / RESOURCE_EXHAUSTED) before it
 * submits anything, so a refused request is never sequenced.
 */

export interface ShedLimits {
  /** Requests pending at once, all addresses together (see the rule above). */
  maxPending: number;
  /** Longest a request may wait between being ready (taken, signature checked) and its hand-off to the sequencer, ms. */
  maxWaitMs: number;
}

/** The address of requests that come without one (in-process callers, the gateways' channel). */
export const UNNAMED_ADDRESS = '';

export class FairShare {
  private readonly byAddress = new Map<string, number>();
  private total = 0;

  constructor(readonly maxPending: number) {}

  /** Take a place for `address`; false when it already holds its fair share. */
  enter(address: string): boolean {
    const mine = this.byAddress.get(address) ?? 0;
    const active = this.byAddress.size + (mine === 0 ? 1 : 0);
    if (mine >= shareOf(this.maxPending, active)) return false;
    this.byAddress.set(address, mine + 1);
    this.total++;
    return true;
  }

  /** Take `n` places for `address` without the share check (a batch its caller already judged whole); give each back with leave(). */
  admit(address: string, n: number): void {
    if (n <= 0) return;
    this.byAddress.set(address, (this.byAddress.get(address) ?? 0) + n);
    this.total += n;
  }

  /** Give back a place taken by enter(). */
  leave(address: string): void {
    const mine = this.byAddress.get(address);
    if (mine === undefined) return;
    if (mine <= 1) this.byAddress.delete(address);
    else this.byAddress.set(address, mine - 1);
    this.total--;
  }

  /** Requests pending now, all addresses (metrics, tests). */
  get pending(): number {
    return this.total;
  }

  /** Requests `address` holds now. */
  held(address: string): number {
    return this.byAddress.get(address) ?? 0;
  }

  /** Places `address` may still take now (its share less what it holds): a batch takes all it needs or none. */
  room(address: string): number {
    return Math.max(0, this.shareFor(address) - this.held(address));
  }

  /** The share an address would have now. */
  shareFor(address: string): number {
    return shareOf(this.maxPending, this.byAddress.size + (this.byAddress.has(address) ? 0 : 1));
  }
}

function shareOf(maxPending: number, active: number): number {
  return Math.max(1, Math.floor(maxPending / Math.max(1, active)));
}
