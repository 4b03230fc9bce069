/**
 * An in-memory stored chain for the producer's tests: transactions are stored into the
 * open block as ticks arrive, cutBlock() stores the block. Ids, continuum sequences and
 * state roots follow docs/chain.md's shapes; bodies are small JSON objects.
 */
import { createHash } from 'node:crypto';
import type { MqBlock, MqSource, MqTx } from '../../../src/chain/mq/index.js';
import type { ExpectedBlock } from '../../support/jetstream.js';

const enc = new TextEncoder();

export const MARKETS = ['6f1c0e2a-1b2c-4d3e-8f40-5a6b7c8d9e01', '0a9b8c7d-6e5f-4a3b-9c2d-1e0f2a3b4c5d'];

export class FakeChain implements MqSource {
  readonly txs: MqTx[] = []; // every stored transaction, in continuum_sequence order
  readonly blocks: { height: number; stateRoot: string; txs: MqTx[] }[] = [];
  private open: MqTx[] = [];
  private tick = 0;
  private openTicks = 0;
  private listeners = new Set<() => void>();
  /** Seed of the state roots: two chains with different seeds diverge. */
  constructor(private readonly rootSeed = 'chain') {}

  latestHeight(): number {
    return this.blocks.length;
  }

  /** One tick of n transactions in the open block. */
  addTick(n: number): void {
    this.tick += 1;
    const height = this.blocks.length + 1;
    const batch = this.openTicks++;
    for (let i = 0; i < n; i++) {
      const cs = (BigInt(this.tick) << 32n) | BigInt(i);
      const id = `${height.toString(16).padStart(16, '0')}-${batch.toString(16).padStart(4, '0')}-${i.toString(16).padStart(4, '0')}`;
      const marketId = MARKETS[(this.tick + i) % MARKETS.length]!;
      const body = enc.encode(
        `{"id":"${id}","block_height":${height},"market_id":"${marketId}","continuum_sequence":${cs},"pad":"${'x'.repeat(200)}"}`,
      );
      const tx: MqTx = { id, height, marketId, continuumSequence: cs, body };
      this.open.push(tx);
      this.txs.push(tx);
    }
    this.emit();
  }

  cutBlock(): void {
    if (this.open.length === 0) return;
    const height = this.blocks.length + 1;
    const stateRoot = createHash('sha256').update(`${this.rootSeed}:${height}`).digest('hex');
    this.blocks.push({ height, stateRoot, txs: this.open });
    this.open = [];
    this.openTicks = 0;
    this.emit();
  }

  /** `blocks` blocks of `ticks` ticks of `perTick` transactions. */
  grow(blocks: number, ticks = 2, perTick = 3): void {
    for (let b = 0; b < blocks; b++) {
      for (let t = 0; t < ticks; t++) this.addTick(perTick);
      this.cutBlock();
    }
  }

  async transactionsAfter(after: bigint, limit: number): Promise<MqTx[]> {
    let lo = 0;
    let hi = this.txs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.txs[mid]!.continuumSequence <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.txs.slice(lo, lo + limit);
  }

  async block(height: number): Promise<MqBlock | undefined> {
    const b = this.blocks[height - 1];
    if (!b) return undefined;
    const root = [...Buffer.from(b.stateRoot, 'hex')];
    const full = JSON.stringify({
      block: { height, state_root: root, transaction_ids: b.txs.map((t) => t.id) },
      events: [],
    });
    const small = JSON.stringify({ block: { height, state_root: root }, truncated: true });
    return {
      height,
      stateRoot: b.stateRoot,
      lastContinuumSequence: b.txs.at(-1)?.continuumSequence ?? 0n,
      body: (max) => enc.encode(full.length <= max ? full : small),
    };
  }

  onStored(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  listenerCount(): number {
    return this.listeners.size;
  }

  expected(): ExpectedBlock[] {
    return this.blocks.map((b) => ({
      height: b.height,
      txIds: b.txs.map((t) => t.id),
      marketIds: b.txs.map((t) => t.marketId),
    }));
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}
