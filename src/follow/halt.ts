/**
 * Why a full node's following is halted (issue 19 point 5, docs/full-node.md "When the
 * leader serves bad data"): a tick that failed verification ('ticks') or a block whose root
 * differs from the leader's ('roots'). While halted the node stores nothing new and keeps
 * serving what it verified; /api/v1/status, gRPC health and /metrics report the halt.
 * Listeners hear every change (the gRPC face turns the following health NOT_SERVING).
 */
import type { FollowHalt } from '../core/index.js';

export type HaltSource = 'ticks' | 'roots';

/** The grpc.health.v1 name of a full node's following: NOT_SERVING while halted (reads stay SERVING). */
export const FOLLOWING_HEALTH = 'svc.follow.v1.Following';

export class FollowHalts {
  private readonly bySource = new Map<HaltSource, FollowHalt>();
  private readonly listeners = new Set<(halted: FollowHalt | undefined) => void>();

  /** The halt to report: a refused tick first, else a differing block. */
  get current(): FollowHalt | undefined {
    return this.bySource.get('ticks') ?? this.bySource.get('roots');
  }

  source(s: HaltSource): FollowHalt | undefined {
    return this.bySource.get(s);
  }

  /** Record a halt; a repeat of the same one counts as a retry. */
  set(s: HaltSource, halt: Omit<FollowHalt, 'retries'>): void {
    const before = this.bySource.get(s);
    this.bySource.set(s, { ...halt, retries: before ? before.retries + 1 : 0 });
    this.notify();
  }

  /** End a halt; true when there was one. */
  clear(s: HaltSource): boolean {
    if (!this.bySource.delete(s)) return false;
    this.notify();
    return true;
  }

  onChange(listener: (halted: FollowHalt | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    const now = this.current;
    for (const l of this.listeners) l(now);
  }
}
