/**
 * Per-peer rate limits of the chain's gRPC methods: a token bucket per client IP address
 * (the port is dropped: one host, one budget). `rate` tokens per `perMs`, bucket size
 * `burst`. The table is bounded: when it holds more than MAX_PEERS entries, full
 * (idle) buckets are dropped, which changes nothing for their peers.
 */
import { peerAddress } from '../../../wire/index.js';

const MAX_PEERS = 10_000;

interface Bucket {
  tokens: number;
  at: number; // ms, performance.now()
}

export class PeerRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** `rate` 0 = unlimited. */
  constructor(
    readonly rate: number,
    readonly perMs: number,
    readonly burst: number = Math.max(1, rate),
  ) {}

  /** Take `n` tokens for this peer (a SubmitTxBatch: one per item); false, taking none, when its budget has fewer. */
  take(peer: string, now = performance.now(), n = 1): boolean {
    if (this.rate <= 0) return true;
    const ip = peerAddress(peer);
    let b = this.buckets.get(ip);
    if (b === undefined) {
      if (this.buckets.size >= MAX_PEERS) this.sweep(now);
      b = { tokens: this.burst, at: now };
      this.buckets.set(ip, b);
    } else {
      b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) * this.rate) / this.perMs);
      b.at = now;
    }
    if (b.tokens < n) return false;
    b.tokens -= n;
    return true;
  }

  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    for (const [ip, b] of this.buckets) {
      if (b.tokens + ((now - b.at) * this.rate) / this.perMs >= this.burst) this.buckets.delete(ip);
    }
    // Still full (a flood of distinct addresses): start over; the worst case is a fresh burst each.
    if (this.buckets.size >= MAX_PEERS) this.buckets.clear();
  }
}
