/**
 * Admission and stall sweep for a family of server streams, shared by services that have
 * no tick-specific needs (FollowService; StreamTicks keeps its own registry,
 * tick-streams.ts, with the same rules): a node-wide limit, a limit per client connection
 * (grpc-js getPeer(): address and port) and per client address (the port dropped:
 * peer.ts), so one client cannot take every slot; and a sweep, once a
 * second while streams are open, that resets streams whose pending writes made no progress
 * for `stallMs` (their client stopped reading). A refusal is a sentence naming the limit,
 * for RESOURCE_EXHAUSTED.
 */
import { peerAddress } from './peer.js';

export interface StreamSlotLimits {
  maxStreams: number; // open streams per node
  maxPerConnection: number; // per client connection (address and port)
  maxPerAddress: number; // per client address (all its connections)
  stallMs: number; // reset a stream whose pending writes make no progress this long
}

/** What the sweep needs of an open stream. */
export interface SlotHolder {
  /** Milliseconds its pending writes have made no progress (0 when nothing is pending). */
  stalledFor(now: number): number;
  /** Reset it now (RST_STREAM); it releases its slot. */
  reset(reason: string): void;
}

const SWEEP_MS = 1000;

export class StreamSlots<T extends SlotHolder> {
  private readonly holders = new Map<T, { connection: string; address: string }>();
  private readonly perConnection = new Map<string, number>();
  private readonly perAddress = new Map<string, number>();
  private sweeper: NodeJS.Timeout | undefined;
  /** Streams reset for making no progress. */
  stalledResets = 0;

  /** `what` names the streams in refusals ("FollowService streams"). */
  constructor(
    private readonly what: string,
    readonly limits: StreamSlotLimits,
  ) {}

  get size(): number {
    return this.holders.size;
  }

  /** Why a new stream from `peer` is refused, or undefined when it may open. */
  refusal(peer: string): string | undefined {
    const { maxStreams, maxPerConnection, maxPerAddress } = this.limits;
    if (this.holders.size >= maxStreams)
      return `too many ${this.what} open on this node (at most ${maxStreams}); retry later`;
    if ((this.perConnection.get(peer) ?? 0) >= maxPerConnection)
      return `too many ${this.what} open on this connection (at most ${maxPerConnection}); close some or retry later`;
    if ((this.perAddress.get(peerAddress(peer)) ?? 0) >= maxPerAddress)
      return `too many ${this.what} open from this address (at most ${maxPerAddress}); close some or retry later`;
    return undefined;
  }

  /** Count `holder` as open for `peer` (after refusal(peer) said yes). */
  add(peer: string, holder: T): void {
    if (this.holders.has(holder)) return;
    const address = peerAddress(peer);
    this.holders.set(holder, { connection: peer, address });
    this.perConnection.set(peer, (this.perConnection.get(peer) ?? 0) + 1);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  /** Stop counting `holder` (idempotent). */
  release(holder: T): void {
    const at = this.holders.get(holder);
    if (!at) return;
    this.holders.delete(holder);
    decrement(this.perConnection, at.connection);
    decrement(this.perAddress, at.address);
    if (this.holders.size === 0) this.stopSweeping();
  }

  /** Every open holder (to end them at shutdown). */
  open(): T[] {
    return [...this.holders.keys()];
  }

  stopSweeping(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private sweep(): void {
    const now = performance.now();
    for (const h of [...this.holders.keys()]) {
      const stalled = h.stalledFor(now);
      if (stalled > this.limits.stallMs) {
        this.stalledResets++;
        h.reset(`no progress for ${Math.round(stalled / 1000)} s: the client stopped reading`);
        this.release(h);
      }
    }
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
