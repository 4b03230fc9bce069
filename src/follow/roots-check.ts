/**
 * The follower side of svc.follow.v1.FollowService: compares, block by block, the state
 * root and the detail digest of each block this node produced from verified ticks with
 * the leader's. The first block that differs stops the follower (FollowError naming the
 * block): from then on this node would show a chain the leader does not have.
 *
 * Started with the chain (a ChainConsumerSpec of the rpc face) when --follow is set. The
 * leader stream reconnects with backoff; it is paused while the leader is far ahead of
 * this node's own blocks (catch-up), so memory stays bounded. After a restart it compares
 * again from a few blocks before the latest stored one.
 */
import * as grpc from '@grpc/grpc-js';
import type { ChainConsumerSpec, ChainReader, Follower as ChainFollower } from '../chain/interface.js';
import { grpcTarget } from '../cli/grpc.js';
import { blockRootOf, loadFollowPackage, type WireBlockRoot } from './block-roots.js';
import { FollowError } from './interface.js';

const RECHECK_BLOCKS = 16;
const PAUSE_AT = 4096;

export interface RootsCheckOptions {
  leader: string;
  chain: ChainReader;
  onFatal(err: FollowError): void;
  onInfo?(fields: Record<string, unknown>, message: string): void;
  retryMaxMs?: number;
}

export class RootsCheck {
  private readonly client: grpc.Client & { StreamBlockRoots(req: object): grpc.ClientReadableStream<WireBlockRoot> };
  private readonly leaderRoots = new Map<number, WireBlockRoot>();
  private readonly ownRoots = new Map<number, WireBlockRoot>();
  private next: number; // next height to compare
  private leaderNext: number; // next height due from the leader
  private stream: grpc.ClientReadableStream<WireBlockRoot> | undefined;
  private own: ChainFollower | undefined;
  private paused = false;
  private stopped = false;
  private retryMs = 100;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RootsCheckOptions) {
    const pkg = grpc.loadPackageDefinition(loadFollowPackage()) as unknown as { svc: { follow: { v1: { FollowService: grpc.ServiceClientConstructor } } } };
    this.client = new pkg.svc.follow.v1.FollowService(grpcTarget(options.leader), grpc.credentials.createInsecure()) as unknown as RootsCheck['client'];
    this.next = Math.max(1, options.chain.latestHeight() - RECHECK_BLOCKS);
    this.leaderNext = this.next;
  }

  /** Blocks compared and equal so far (the last height). */
  get matchedHeight(): number {
    return this.next - 1;
  }

  start(): void {
    this.own = this.options.chain.followBlocks(this.next, (d) => {
      this.ownRoots.set(d.block.height, blockRootOf(d));
      this.compare();
    });
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.own?.stop();
    this.stream?.cancel();
    this.client.close();
  }

  private connect(): void {
    if (this.stopped) return;
    const s = this.client.StreamBlockRoots({ from_height: String(this.leaderNext) });
    this.stream = s;
    this.paused = false;
    s.on('data', (r: WireBlockRoot) => {
      const h = Number(r.height);
      if (h !== this.leaderNext) return; // a resend after reconnecting
      this.retryMs = 100;
      this.leaderNext = h + 1;
      this.leaderRoots.set(h, r);
      if (this.leaderRoots.size >= PAUSE_AT && !this.paused) {
        this.paused = true;
        s.pause();
      }
      this.compare();
    });
    const retry = (err?: Error): void => {
      if (s !== this.stream || this.stopped) return;
      this.stream = undefined;
      const wait = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, this.options.retryMaxMs ?? 5000);
      this.options.onInfo?.({ leader: this.options.leader, next: this.leaderNext, retryMs: wait, err: err?.message }, 'follower: the leader block roots stream ended; reconnecting');
      this.timer = setTimeout(() => this.connect(), wait);
    };
    s.on('error', retry);
    s.on('end', () => retry());
  }

  private compare(): void {
    while (!this.stopped) {
      const mine = this.ownRoots.get(this.next);
      const theirs = this.leaderRoots.get(this.next);
      if (!mine || !theirs) break;
      const h = this.next;
      if (mine.state_root !== theirs.state_root) {
        return this.fail(new FollowError(`block ${h}: its state_root ${mine.state_root} differs from the leader's ${theirs.state_root}; the follower stopped (block ${h - 1} and before match the leader)`, undefined, 'STATE_ROOT_MISMATCH'), h);
      }
      if (mine.detail_sha256 !== theirs.detail_sha256) {
        return this.fail(new FollowError(`block ${h}: its detail (record, ids, events) differs from the leader's; the follower stopped (block ${h - 1} and before match the leader)`, undefined, 'BLOCK_MISMATCH'), h);
      }
      this.ownRoots.delete(h);
      this.leaderRoots.delete(h);
      this.next++;
    }
    if (this.paused && this.leaderRoots.size < PAUSE_AT / 4 && this.stream) {
      this.paused = false;
      this.stream.resume();
    }
  }

  private fail(err: FollowError, height: number): void {
    Object.assign(err, { blockHeight: height });
    this.stop();
    this.options.onFatal(err);
  }
}

/** Started with the rpc face's chain consumers; nothing unless --follow is set. */
export const rootsCheckConsumer: ChainConsumerSpec = {
  name: 'follow-roots',
  async start(ctx) {
    const leader = ctx.config.follow;
    if (leader === undefined) return undefined;
    const check = new RootsCheck({
      leader,
      chain: ctx.chain,
      onFatal: (err) => {
        ctx.logger.error({ err, code: err.code }, 'follower stopped');
        ctx.fail?.(err);
      },
      onInfo: (fields, message) => ctx.logger.info(fields, message),
    });
    check.start();
    return {
      close: async () => check.stop(),
    };
  },
};
