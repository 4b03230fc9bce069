/**
 * Main-thread handle on the clock's two threads: creates the three rings and the control
 * block, starts workers/batcher.worker.js (transaction ring -> one ready batch) and
 * workers/clock.worker.js (batch ring -> VDF -> tick ring), and exposes the transaction
 * and tick rings to the sequencer:
 *
 *   main --tx ring--> batcher --batch ring (1 slot)--> clock --tick ring--> main
 *
 * One instance per sequencer run; `stop()` asks both to tick out what is queued and
 * resolves once both have finished (the caller drains the tick ring meanwhile).
 */
import { Worker } from 'node:worker_threads';
import { workerFile } from '../pool/index.js';
import type { ClockParams } from './clock-loop.js';
import {
  BATCH_SLOT_BYTES,
  CLOCK_DONE,
  CLOCK_FAILED,
  ClockControl,
  TICK_SLOT_BYTES,
  TX_SLOT_BYTES,
  readTickSlot,
  writeTxSlot,
  type ClockTick,
} from './protocol.js';
import { RingQueue } from './ring.js';

export interface ClockThreadOptions {
  params: ClockParams;
  engine: 'auto' | 'wasm' | 'reference';
  txSlots: number;
  tickSlots: number;
}

type WorkerMessage =
  | { type: 'ready'; engine: string }
  | { type: 'done' }
  | { type: 'error'; message: string }
  | { type: 'checkpoints'; tickNumber: number; checkpoints: Uint8Array };

export class ClockThread {
  readonly txRing: RingQueue;
  /** One slot: at most one ready batch waits for the clock. */
  readonly batchRing: RingQueue;
  readonly tickRing: RingQueue;
  readonly control = new ClockControl();
  /** 'wasm' or 'reference', once started. */
  engineName = '';
  /** Set when the worker failed; the sequencer refuses work from then on. */
  failure: Error | undefined;
  private worker: Worker | undefined;
  private batcher: Worker | undefined;
  /** Checkpoints posted by the clock, by tick number, until the sequencer takes them. */
  private readonly checkpoints = new Map<number, Uint8Array>();
  private readonly checkpointWaiters = new Map<number, (checkpoints: Uint8Array) => void>();
  private finished: Promise<void> | undefined;

  constructor(private readonly options: ClockThreadOptions) {
    this.txRing = RingQueue.create(options.txSlots, TX_SLOT_BYTES);
    this.batchRing = RingQueue.create(1, BATCH_SLOT_BYTES);
    this.tickRing = RingQueue.create(options.tickSlots, TICK_SLOT_BYTES);
  }

  /**
   * The checkpoints the clock posted for a tick flagged hasCheckpoints (posted before the
   * tick was published, so they are here or on their way).
   */
  takeCheckpoints(tickNumber: number): Promise<Uint8Array> {
    const ready = this.checkpoints.get(tickNumber);
    if (ready) {
      this.checkpoints.delete(tickNumber);
      return Promise.resolve(ready);
    }
    return new Promise((resolve) => this.checkpointWaiters.set(tickNumber, resolve));
  }

  /** Start both workers; resolves once the batcher runs and the clock's engine is loaded and the chain runs. */
  start(onFailure: (err: Error) => void): Promise<void> {
    const batcher = new Worker(workerFile('batcher'), {
      workerData: {
        txRing: this.txRing.buffer,
        batchRing: this.batchRing.buffer,
        control: this.control.buffer,
        maxTxPerTick: this.options.params.maxTxPerTick,
      },
      name: 'svc-batcher',
    });
    this.batcher = batcher;
    const worker = new Worker(workerFile('clock'), {
      workerData: {
        batchRing: this.batchRing.buffer,
        txRing: this.txRing.buffer,
        tickRing: this.tickRing.buffer,
        control: this.control.buffer,
        params: this.options.params,
        engine: this.options.engine,
      },
      name: 'svc-clock',
    });
    this.worker = worker;
    let readyResolve: () => void = () => {};
    let readyReject: (e: Error) => void = () => {};
    const clockReady = new Promise<void>((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    // Both threads must be up before the sequencer takes transactions: a transaction
    // handed to a batcher still loading would wait behind the clock's heartbeats.
    let batcherResolve: () => void = () => {};
    const batcherReady = new Promise<void>((resolve, reject) => {
      batcherResolve = resolve;
      clockReady.catch(reject);
    });
    const ready = Promise.all([clockReady, batcherReady]).then(() => undefined);
    const fail = (err: Error): void => {
      if (this.failure) return;
      this.failure = err;
      this.control.setState(CLOCK_FAILED);
      readyReject(err);
      onFailure(err);
    };
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'ready') {
        this.engineName = m.engine;
        readyResolve();
      } else if (m.type === 'checkpoints') {
        const waiter = this.checkpointWaiters.get(m.tickNumber);
        if (waiter) {
          this.checkpointWaiters.delete(m.tickNumber);
          waiter(m.checkpoints);
        } else this.checkpoints.set(m.tickNumber, m.checkpoints);
      } else if (m.type === 'error') {
        fail(new Error(`clock worker failed: ${m.message}`));
      }
    });
    worker.on('error', (err) => fail(err));
    batcher.on('message', (m: { type: string; message?: string }) => {
      if (m.type === 'ready') batcherResolve();
      else if (m.type === 'error') fail(new Error(`batcher worker failed: ${m.message}`));
    });
    batcher.on('error', (err) => fail(err));
    const exited = (w: Worker, name: string) =>
      new Promise<void>((resolve) => {
        w.once('exit', (code) => {
          if (code !== 0 && !this.failure) fail(new Error(`${name} worker exited with code ${code}`));
          resolve();
        });
      });
    this.finished = Promise.all([exited(worker, 'clock'), exited(batcher, 'batcher')]).then(() => undefined);
    return ready;
  }

  /** The tick being squared now. */
  currentTick(): number {
    return this.control.currentTick();
  }

  // The ring contract (protocol.ts) stays in src/clock: the sequencer hands over
  // transactions and takes closed ticks through these, never through slot layouts.

  /** Transactions handed over and not yet in a tick the clock started (ring + ready batch). */
  queued(): { transactions: number; batches: number } {
    return { transactions: this.txRing.size(), batches: this.batchRing.size() };
  }

  /**
   * Hand transactions to the batcher while the ring has room; returns how many were taken
   * (from the front of `count` items that `at(i)` describes).
   */
  offer(
    count: number,
    at: (i: number) => { sequence: number; ingestionTimestamp: number; fullHash: Uint8Array },
  ): number {
    const ring = this.txRing;
    const k = Math.min(count, ring.free());
    for (let i = 0; i < k; i++) {
      const e = at(i);
      writeTxSlot(ring, i, e.sequence, e.ingestionTimestamp, e.fullHash);
    }
    ring.publish(k);
    return k;
  }

  /** Resolves once the transaction ring has room (true) or after `timeoutMs` (false). */
  waitForRoom(timeoutMs: number): Promise<boolean> {
    return this.txRing.waitForSpaceAsync(timeoutMs);
  }

  /** Up to `max` closed ticks, oldest first, copied out of the tick ring. */
  takeClosed(max: number): ClockTick[] {
    const ring = this.tickRing;
    const n = Math.min(ring.size(), max);
    const out = new Array<ClockTick>(n);
    for (let k = 0; k < n; k++) out[k] = readTickSlot(ring, k);
    ring.release(n);
    return out;
  }

  /** True once the clock has finished and every tick it closed was taken. */
  drained(): boolean {
    // State first, then the ring: the clock publishes its last tick before it reports
    // DONE, so an empty ring seen after DONE is really empty.
    return this.control.state() >= CLOCK_DONE && this.tickRing.size() === 0;
  }

  /** Resolves once a closed tick waits (true) or after `timeoutMs` (false). */
  waitForClosed(timeoutMs: number): Promise<boolean> {
    return this.tickRing.waitForDataAsync(timeoutMs);
  }

  /** Ask both threads to tick out what is queued and exit; resolves when both are gone. */
  async stop(): Promise<void> {
    this.control.requestStop();
    await this.finished;
  }

  /** Kill the thread immediately (failure paths only). */
  async terminate(): Promise<void> {
    await Promise.all([this.worker?.terminate(), this.batcher?.terminate()]);
  }
}
