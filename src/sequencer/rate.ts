/**
 * Measured transaction rate for status(): the count of transactions in durable ticks is
 * sampled at most every 100 ms into a short ring; the rate is the increase over the
 * last ~5 s divided by the time it took, measured up to now (so it decays to 0 when
 * traffic stops instead of freezing at the last value).
 */
const SAMPLE_MS = 100;
const WINDOW_MS = 5000;

export class RateMeter {
  private readonly times: number[] = [];
  private readonly totals: number[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Record the running total (call whenever it changes). */
  record(total: number): void {
    const t = this.now();
    const n = this.times.length;
    if (n > 1 && t - this.times[n - 1]! < SAMPLE_MS) {
      this.totals[n - 1] = total;
      return;
    }
    this.times.push(t);
    this.totals.push(total);
    while (this.times.length > 2 && t - this.times[1]! > WINDOW_MS) {
      this.times.shift();
      this.totals.shift();
    }
  }

  /** Transactions per second over the recent window. */
  rate(currentTotal: number): number {
    const t = this.now();
    // Oldest sample still inside the window (or the oldest we have).
    let i = 0;
    while (i < this.times.length - 1 && t - this.times[i]! > WINDOW_MS) i++;
    if (this.times.length === 0) return 0;
    const dt = t - this.times[i]!;
    if (dt <= 0) return 0;
    return ((currentTotal - this.totals[i]!) * 1000) / dt;
  }
}
