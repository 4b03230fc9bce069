/**
 * The follower side of svc.follow.v1.FollowService: compares, block by block, the state
 * root and the detail digest of each block this node produced from verified ticks with
 * the leader's. The first block that differs halts following (onHalt, a FollowError naming
 * the block; the node keeps serving what it has): from then on this node would show a chain
 * the leader does not have. The check asks the leader again from that block with backoff
 * (the follower's current leader, which changes after a refused tick when --follow names
 * several); once the block agrees, following resumes (onResume).
 *
 * Started with the chain (a ChainConsumerSpec of the rpc face) when --follow is set. The
 * leader stream reconnects with backoff; it is paused while the leader is far ahead of
 * this node's own blocks (catch-up), and this node's own blocks wait while they are far
 * ahead of the leader's, so memory stays bounded either way.
 *
 * The last compared height is kept in the node's database (`follow-meta` / `matched`), and
 * the check starts after it: every block is compared once, including the blocks this node
 * built before the check started (the faces start one after another while ticks already
 * arrive) or before a kill -9. Losing that write only means comparing some blocks again.
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { ChainReader, RecordFeed } from '../chain/core/index.js';
import type { Database } from '../db/index.js';
import type { Sequencer } from '../sequencer/index.js';
import { grpcTarget } from '../sequencer/api/client/index.js';
import { blockRootOf, loadFollowPackage, type WireBlockRoot } from './block-roots.js';
import { Follower } from './follower.js';
import { FollowError } from './interface.js';

const PAUSE_AT = 4096;

type RootsClient = grpc.Client & { StreamBlockRoots(req: object): grpc.ClientReadableStream<WireBlockRoot> };

/** Where the last compared height is kept (the node's LevelDB in the node; a map in tests). */
export interface MatchedHeightStore {
  load(): Promise<number>; // 0 when none was stored
  save(height: number): Promise<void>;
}

export interface RootsCheckOptions {
  /** The leader to ask (read at each connection: a follower's current leader). */
  leader: string | (() => string);
  chain: ChainReader;
  matched: MatchedHeightStore;
  /** A block differs: following halts (nothing more is stored), the check retries. */
  onHalt(err: FollowError, height: number): void;
  /** The block that differed agrees now. */
  onResume?(): void;
  onInfo?(fields: Record<string, unknown>, message: string): void;
  retryMaxMs?: number;
}

export class RootsCheck {
  private client: RootsClient | undefined;
  private clientLeader = '';
  private halted = 0; // the height that differed, while halted
  private readonly leaderRoots = new Map<number, WireBlockRoot>();
  private readonly ownRoots = new Map<number, WireBlockRoot>();
  private next = 1; // next height to compare
  private leaderNext = 1; // next height due from the leader
  private stream: grpc.ClientReadableStream<WireBlockRoot> | undefined;
  private own: RecordFeed | undefined;
  private paused = false;
  private stopped = false;
  private retryMs = 100;
  private timer: NodeJS.Timeout | undefined;
  private ownWaiting: (() => void) | undefined; // own blocks wait while PAUSE_AT are uncompared
  private saving: Promise<void> | undefined;
  private savedHeight = 0;

  constructor(private readonly options: RootsCheckOptions) {}

  private leader(): string {
    const l = this.options.leader;
    return typeof l === 'string' ? l : l();
  }

  /** A client of the current leader (a new one when the leader changed). */
  private clientOf(): RootsClient {
    const leader = this.leader();
    if (!this.client || leader !== this.clientLeader) {
      this.client?.close();
      const pkg = grpc.loadPackageDefinition(loadFollowPackage()) as unknown as {
        svc: { follow: { v1: { FollowService: grpc.ServiceClientConstructor } } };
      };
      this.client = new pkg.svc.follow.v1.FollowService(
        grpcTarget(leader, '--follow'),
        grpc.credentials.createInsecure(),
      ) as unknown as RootsClient;
      this.clientLeader = leader;
    }
    return this.client;
  }

  /** Blocks compared and equal so far (the last height). */
  get matchedHeight(): number {
    return this.next - 1;
  }

  /** Compare from the block after the last one compared (stored), or from block 1. */
  async start(): Promise<void> {
    this.savedHeight = await this.options.matched.load();
    this.next = this.savedHeight + 1;
    this.leaderNext = this.next;
    if (this.stopped) return;
    this.own = this.options.chain.followBlocks(this.next, (d) => {
      this.ownRoots.set(d.block.height, blockRootOf(d));
      this.compare();
      if (this.ownRoots.size < PAUSE_AT || this.stopped) return undefined;
      return new Promise<void>((resolve) => (this.ownWaiting = resolve));
    });
    this.connect();
  }

  /** Stop, after the last compared height is saved. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.ownWaiting?.();
    clearTimeout(this.timer);
    this.own?.stop();
    this.stream?.cancel();
    this.client?.close();
    await this.saving;
  }

  private connect(): void {
    if (this.stopped) return;
    const s = this.clientOf().StreamBlockRoots({ from_height: String(this.leaderNext) });
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
      this.options.onInfo?.(
        { leader: this.leader(), next: this.leaderNext, retryMs: wait, err: err?.message },
        'follower: the leader block roots stream ended; reconnecting',
      );
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
        return this.halt(
          new FollowError(
            `block ${h}: its state_root ${mine.state_root} differs from the leader's ${theirs.state_root}; following halted (block ${h - 1} and before match the leader); retrying`,
            undefined,
            'STATE_ROOT_MISMATCH',
          ),
          h,
        );
      }
      if (mine.detail_sha256 !== theirs.detail_sha256) {
        return this.halt(
          new FollowError(
            `block ${h}: its detail (record, ids, events) differs from the leader's; following halted (block ${h - 1} and before match the leader); retrying`,
            undefined,
            'BLOCK_MISMATCH',
          ),
          h,
        );
      }
      if (this.halted === h) {
        this.halted = 0;
        this.options.onResume?.();
      }
      this.ownRoots.delete(h);
      this.leaderRoots.delete(h);
      this.next++;
    }
    if (this.paused && this.leaderRoots.size < PAUSE_AT / 4 && this.stream) {
      this.paused = false;
      this.stream.resume();
    }
    if (this.ownWaiting && this.ownRoots.size < PAUSE_AT / 4) {
      const resume = this.ownWaiting;
      this.ownWaiting = undefined;
      resume();
    }
    this.save();
  }

  /** Keep the last compared height; one write at a time, the newest height wins. */
  private save(): void {
    if (this.saving || this.matchedHeight <= this.savedHeight) return;
    const height = this.matchedHeight;
    this.saving = this.options.matched
      .save(height)
      .then(
        () => void (this.savedHeight = height),
        (err: unknown) =>
          this.options.onInfo?.(
            { err: err instanceof Error ? err.message : String(err) },
            'follower: could not keep the last compared block height',
          ),
      )
      .finally(() => {
        this.saving = undefined;
        if (!this.stopped) this.save();
      });
  }

  /** Report the block that differs, forget the leader's roots from it, ask again after the backoff. */
  private halt(err: FollowError, height: number): void {
    Object.assign(err, { blockHeight: height });
    this.halted = height;
    this.options.onHalt(err, height);
    const s = this.stream;
    this.stream = undefined;
    s?.cancel();
    for (const h of [...this.leaderRoots.keys()]) if (h >= height) this.leaderRoots.delete(h);
    this.leaderNext = height;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.options.retryMaxMs ?? 5000);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), wait);
  }
}

/** What the roots check of a full node runs on (src/node starts it with the chain's consumers when --follow is set). */
export interface RootsCheckContext {
  leaders: string[]; // the --follow addresses, in order
  chain: ChainReader;
  db: Database; // the node's LevelDB: the check keeps its matched height in its own sublevel
  logger: Logger;
  sequencer?: Sequencer; // the node's Follower: the check halts and resumes it
}

/** Starts the roots check: each block's root compared with the leader's; a mismatch halts following. */
export async function startRootsCheck(ctx: RootsCheckContext): Promise<{ close(): Promise<void> }> {
  const first = ctx.leaders[0]!;
  const follower = ctx.sequencer instanceof Follower ? ctx.sequencer : undefined;
  const meta = ctx.db.sublevel<string, string>('follow-meta', { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  const check = new RootsCheck({
    leader: () => follower?.leader ?? first,
    chain: ctx.chain,
    matched: {
      load: async () => Number((await meta.get('matched')) ?? 0),
      save: (height) => meta.put('matched', String(height)),
    },
    onHalt: (err, height) => {
      ctx.logger.error(
        { err, code: err.code, block: height },
        'follower halted: a block differs from the leader; retrying',
      );
      follower?.halt(err, 'roots', height);
    },
    onResume: () => follower?.resume('roots'),
    onInfo: (fields, message) => ctx.logger.info(fields, message),
  });
  await check.start();
  return { close: () => check.stop() };
}
