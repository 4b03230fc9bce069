/**
 * Feeds durable ticks to the order book engine, in order, each once, and hands every
 * applied-tick record to its consumers (the HTTP face's submissions and receipts, the
 * chain's block builder). The tick source is anything with the sequencer's read side
 * (`onTick`, `readTicks`, `status`), so a full node that receives verified ticks from a
 * leader can drive the same engine.
 *
 * - Start: subscribe (ticks that arrive meanwhile are buffered), replay the stored ticks
 *   after the engine's last tick (all of them for a fresh engine, only the tail after a
 *   snapshot), then apply the buffered ones and go live.
 * - Signatures: owner signatures of order book transactions are checked in the ed25519
 *   pool; a transaction this node checked before it submitted it (`checked`, written by
 *   the order entry) is not checked twice. Verification of a live tick starts when the tick arrives, so it
 *   overlaps with applying the ticks before it; applying stays in tick order.
 * - Consumers only listen (`onApplied`): called synchronously, in registration order,
 *   with each record; a consumer that throws is logged and the others still run. What
 *   the engine computes beyond applying (roots, the pace of the replay) is fixed by the
 *   options at construction, set by the runtime that builds the applier.
 */
import type { Logger } from 'pino';
import { startProgress } from '../log/index.js';
import type { Sequencer } from '../sequencer/index.js';
import type { OrderedTransaction, Tick } from '../core/index.js';
import type { CheckedSubmissions } from './checked.js';
import {
  prepareTick,
  setVerdicts,
  type AppliedTick,
  type ApplyOptions,
  type OrderBookEngine,
  type PreparedTick,
  type SignatureCheck,
} from './engine/index.js';

/** The read side of the tick sequencer the applier needs. */
export type TickSource = Pick<Sequencer, 'onTick' | 'readTicks' | 'status'>;

/** Checks many ed25519 signatures; the pool-backed BatchVerifier (verifier.ts) in the node. */
export interface SignatureVerifier {
  verifyMany(items: SignatureCheck[]): Promise<boolean[]>;
}

export type AppliedListener = (record: AppliedTick) => void;

export interface TickApplierOptions {
  logger?: Logger;
  /** Awaited between replay chunks, so a slow consumer (a database writer) is not flooded. */
  throttle?: () => Promise<void>;
  /** The market root right after the transactions this selects (the order entry: receipts). */
  rootAfter?: (otx: OrderedTransaction) => boolean;
  /** The state root before the ticks this selects (the chain: a tick that closes a block). */
  rootBefore?: (tick: Tick) => boolean;
  /** Transactions checked before their submission: their signatures are not checked again. */
  checked?: Pick<CheckedSubmissions, 'take'>;
}

const REPLAY_CHUNK = 256;

export class TickApplier {
  private readonly listeners: AppliedListener[] = [];
  private chain: Promise<void> = Promise.resolve();
  private buffered: Tick[] | undefined;
  private unsubscribe: (() => void) | undefined;
  private stopped = false;
  private readonly needRoot: (otx: OrderedTransaction) => boolean;
  private readonly rootBefore: (tick: Tick) => boolean;
  private readonly isVerified: (otx: OrderedTransaction) => boolean;

  constructor(
    private readonly source: TickSource,
    readonly engine: OrderBookEngine,
    private readonly verifier: SignatureVerifier,
    private readonly options: TickApplierOptions = {},
  ) {
    this.needRoot = options.rootAfter ?? (() => false);
    this.rootBefore = options.rootBefore ?? (() => false);
    this.isVerified = options.checked?.take ?? (() => false);
  }

  get lastTick(): number {
    return this.engine.lastTick;
  }

  /** Add a consumer of applied-tick records. */
  onApplied(listener: AppliedListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private options_(tick: Tick, replayed: boolean): ApplyOptions {
    return { needRoot: this.needRoot, rootBefore: this.rootBefore(tick), replayed };
  }

  /** Subscribe, replay the stored ticks after the engine's last one, then go live. */
  async start(): Promise<void> {
    this.buffered = [];
    this.unsubscribe = this.source.onTick((tick) => {
      if (this.buffered) this.buffered.push(tick);
      else this.enqueue(tick);
    });
    const from = this.engine.lastTick + 1;
    const upTo = this.source.status().currentTick;
    const log = this.options.logger;
    if (upTo >= from) log?.info({ from, to: upTo }, 'order book: replaying stored ticks');
    const progress = startProgress({ logger: log, what: 'order book replay', total: Math.max(0, upTo - from + 1) });
    let batch: Tick[] = [];
    for await (const tick of this.source.readTicks(from, upTo)) {
      if (this.stopped) break;
      batch.push(tick);
      if (batch.length >= REPLAY_CHUNK) {
        await this.replayChunk(batch);
        batch = [];
        progress.update(this.engine.lastTick - from + 1);
      }
    }
    await this.replayChunk(batch);
    progress.update(Math.max(0, upTo - from + 1));
    progress.end();
    const early = this.buffered;
    this.buffered = undefined;
    for (const t of early) this.enqueue(t);
    await this.chain;
    log?.info(
      { tick: this.engine.lastTick, markets: this.engine.state.markets.size },
      'order book: state rebuilt from ticks',
    );
  }

  /** Stop following; resolves once the tick being applied is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.chain.catch(() => undefined);
  }

  /** Resolves once every tick received so far is applied. */
  idle(): Promise<void> {
    return this.chain;
  }

  private async replayChunk(ticks: Tick[]): Promise<void> {
    const prepared = ticks
      .filter((t) => t.tickNumber > this.engine.lastTick)
      .map((t) => prepareTick(t, this.isVerified));
    await this.verify(prepared);
    for (const p of prepared) {
      if (p.tick.tickNumber !== this.engine.lastTick + 1 && this.engine.lastTick > 0) {
        this.options.logger?.warn(
          { expected: this.engine.lastTick + 1, got: p.tick.tickNumber },
          'order book: stored ticks have a gap; replaying what exists',
        );
      }
      this.deliver(this.engine.apply(p, this.options_(p.tick, true)));
    }
    await this.options.throttle?.();
  }

  private async verify(list: PreparedTick[]): Promise<void> {
    const all = list.flatMap((p) => p.toVerify);
    if (all.length === 0) return;
    const verdicts = await this.verifier.verifyMany(all);
    let k = 0;
    for (const p of list) {
      setVerdicts(p, verdicts.slice(k, k + p.toVerify.length));
      k += p.toVerify.length;
    }
  }

  private enqueue(tick: Tick): void {
    if (this.stopped) return;
    // Decode and start checking signatures now; apply after the ticks before it.
    const prepared = prepareTick(tick, this.isVerified);
    const verified = prepared.toVerify.length > 0 ? this.verify([prepared]) : undefined;
    verified?.catch(() => undefined);
    this.chain = this.chain
      .then(async () => {
        if (verified) await verified;
        await this.applyLive(prepared);
      })
      .catch((err: unknown) =>
        this.options.logger?.error({ err, tick: tick.tickNumber }, 'order book: applying a tick failed'),
      );
  }

  private async applyLive(p: PreparedTick): Promise<void> {
    const n = p.tick.tickNumber;
    if (n <= this.engine.lastTick) return;
    if (n > this.engine.lastTick + 1) {
      // A gap (a listener that started late): apply the missing ticks from the store first.
      const missing: Tick[] = [];
      for await (const t of this.source.readTicks(this.engine.lastTick + 1, n - 1)) missing.push(t);
      const prepared = missing.map((t) => prepareTick(t, this.isVerified));
      await this.verify(prepared);
      for (const m of prepared)
        if (m.tick.tickNumber > this.engine.lastTick) this.deliver(this.engine.apply(m, this.options_(m.tick, false)));
    }
    this.deliver(this.engine.apply(p, this.options_(p.tick, false)));
  }

  private deliver(record: AppliedTick): void {
    for (const l of this.listeners) {
      try {
        l(record);
      } catch (err) {
        this.options.logger?.error(
          { err, tick: record.tick.tickNumber },
          'order book: a consumer of applied ticks failed',
        );
      }
    }
  }
}
