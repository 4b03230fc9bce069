/**
 * The sequencer across a thread boundary: the ordering thread (the process's main thread)
 * runs the real Sequencer and hosts it on a MessagePort (`hostSequencer`); the node thread
 * (workers/node.worker.ts: order book, chain, channels, faces) sees it as a `SequencerProxy`
 * that implements the same interface over that port. The one message contract:
 *
 *   node -> ordering   { t: 'call', id, op, args }        a Sequencer method, answered once
 *                      { t: 'prepared', id, batch }        the body of an earlier submitPrepared
 *   ordering -> node   { t: 'reply', id, ok, value | error, status, ordered }
 *                      { t: 'ordered', packed, status, ordered }  a tick as soon as it is durable,
 *                                             packed (src/store/packed.ts) and transferred
 *                      { t: 'proven', tickNumber, proof, status, ordered, tick? }
 *
 * Every message carries the sequencer's status (proven and ordered), so the proxy's
 * synchronous `status()` is the ordering thread's as of the last message. A proven tick
 * travels as its proof alone when its ordered form already crossed (the tick is the
 * ordered one with its proof filled in).
 *
 * With `reads`, the proxy serves tick reads (getTick, readTicks, findTransactions,
 * recentTicks) itself: from the node's memory window of the newest proven ticks (warmed
 * from disk at start, then the ticks it is handed) and, older, from the one LevelDB through
 * the node thread's own handle, up to the last tick the ordering thread called proven. The
 * ordered reads (start-up replays) still cross.
 *
 * What it does not do: anything with a tick but carry it. The port is FIFO both ways, so an
 * answer and the ticks around it keep their order.
 */
import type { MessagePort } from 'node:worker_threads';
import { MemoryTickStore, packedSize, readPacked, TickReads, writePacked, type DiskTickStore } from '../store/index.js';
import type {
  SequencerStatus,
  SubmitResult,
  Tick,
  TickSummary,
  Transaction,
  TransactionLocation,
} from '../core/index.js';
import {
  SubmitError,
  type OrderedTicks,
  type PreparedBatch,
  type Sequencer,
  type SubmitErrorCode,
  type TickListener,
} from '../sequencer/index.js';

/** Ticks per readTicks round trip. */
const READ_CHUNK = 256;

type Op =
  | 'submit'
  | 'submitBatch'
  | 'submitPrepared'
  | 'getTick'
  | 'findTransactions'
  | 'findUnprovenTransactions'
  | 'readTicks'
  | 'readOrdered'
  | 'recentTicks';

interface CallMessage {
  t: 'call';
  id: number;
  op: Op;
  args: unknown[];
}
interface PreparedMessage {
  t: 'prepared';
  id: number;
  batch?: PreparedBatch;
  error?: WireError; // the preparation failed (a request malformed as a whole: INVALID_ARGUMENT)
}
type ToOrdering = CallMessage | PreparedMessage;

interface Statuses {
  status: SequencerStatus;
  ordered: SequencerStatus;
}
interface WireError {
  code?: string;
  message: string;
}
type ReplyMessage = Statuses & { t: 'reply'; id: number } & (
    | { ok: true; value: unknown }
    | { ok: false; error: WireError }
  );
type OrderedMessage = Statuses & { t: 'ordered'; packed: Uint8Array };
type ProvenMessage = Statuses & { t: 'proven'; tickNumber: number; proof: Uint8Array; tick?: Tick };
type ToNode = ReplyMessage | OrderedMessage | ProvenMessage;

/**
 * What the node thread starts with: the statuses as of the link's start, and one shared
 * 64-bit cell where it writes the last tick it applied (0 until its start-up replay is done).
 */
export interface LinkSeed extends Statuses {
  applied: SharedArrayBuffer;
}

// ------------------------------------------------------------------ ordering thread side

/**
 * Serve `sequencer` on `port` until the returned stop() is called. `backlog()`: transactions
 * in ticks handed over that the node thread has not applied yet (the sequencer's `backlog`).
 */
export function hostSequencer(
  sequencer: Sequencer,
  port: MessagePort,
): { seed: LinkSeed; backlog: () => number; stop: () => void } {
  const ordered = sequencer.orderedTicks?.();
  const applied = new BigInt64Array(new SharedArrayBuffer(8));
  const handed = new HandedTicks();
  const statuses = (): Statuses => ({ status: sequencer.status(), ordered: (ordered ?? sequencer).status() });
  const prepared = new Map<number, { resolve: (b: PreparedBatch) => void; reject: (e: Error) => void }>();
  const crossed = new Set<number>();
  const post = (m: ToNode, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer ?? []);

  const offOrdered = ordered?.onTick((tick, bodies) => {
    crossed.add(tick.tickNumber);
    handed.add(tick);
    // Packed (a copy of each transaction's stored body) and transferred: no object graph to clone.
    const input = bodies ? { tick, bodies } : { tick };
    const packed = new Uint8Array(packedSize(input, true));
    writePacked(packed, new DataView(packed.buffer), 0, input, true);
    post({ t: 'ordered', packed, ...statuses() }, [packed.buffer]);
  });
  const offProven = sequencer.onTick((tick) => {
    const whole = !crossed.delete(tick.tickNumber);
    post({
      t: 'proven',
      tickNumber: tick.tickNumber,
      proof: tick.vdfProof.proof,
      ...(whole ? { tick } : {}),
      ...statuses(),
    });
  });

  const reply = (id: number, run: () => Promise<unknown>) => {
    run().then(
      (value) => post({ t: 'reply', id, ok: true, value, ...statuses() }),
      (err: unknown) => post({ t: 'reply', id, ok: false, error: wireError(err), ...statuses() }),
    );
  };

  port.on('message', (m: ToOrdering) => {
    if (m.t === 'prepared') {
      const waiter = prepared.get(m.id);
      prepared.delete(m.id);
      if (m.batch) waiter?.resolve(m.batch);
      else waiter?.reject(errorIn(m.error ?? { message: 'the request was not prepared' }));
      return;
    }
    const a = m.args;
    switch (m.op) {
      case 'submit':
        return reply(m.id, () => sequencer.submit(a[0] as Transaction));
      case 'submitBatch':
        return reply(m.id, async () => (await sequencer.submitBatch(a[0] as Transaction[])).map(itemOut));
      case 'submitPrepared': {
        // Its place in the arrival order is taken now; the body follows.
        const body = new Promise<PreparedBatch>((resolve, reject) => prepared.set(m.id, { resolve, reject }));
        const submitPrepared = sequencer.submitPrepared?.bind(sequencer);
        if (!submitPrepared) return reply(m.id, () => Promise.reject(new Error('no submitPrepared')));
        return reply(m.id, async () => (await submitPrepared(body)).map(itemOut));
      }
      case 'getTick':
        return reply(m.id, () => sequencer.getTick(a[0] as number));
      case 'findTransactions':
        return reply(m.id, () => sequencer.findTransactions(a[0] as string));
      case 'findUnprovenTransactions':
        return reply(m.id, async () => (await sequencer.findUnprovenTransactions?.(a[0] as string)) ?? []);
      case 'readTicks':
        return reply(m.id, () => collect(sequencer.readTicks(a[0] as number, a[1] as number), READ_CHUNK));
      case 'recentTicks':
        return reply(m.id, async () => await sequencer.recentTicks(a[0] as number, a[1] as number));
      case 'readOrdered':
        return reply(m.id, () => collect((ordered ?? sequencer).readTicks(a[0] as number, a[1] as number), READ_CHUNK));
    }
  });

  return {
    seed: { ...statuses(), applied: applied.buffer as SharedArrayBuffer },
    backlog: () => handed.behind(Number(Atomics.load(applied, 0))),
    stop: () => {
      offOrdered?.();
      offProven();
      port.removeAllListeners('message');
    },
  };
}

// ------------------------------------------------------------------ node thread side

/** Where the node thread reads shown ticks itself (its own handle on the one LevelDB). */
export interface ProxyReads {
  disk: DiskTickStore;
  first: number; // the first stored tick (1, or T for a store seeded from a snapshot)
  windowTicks: number; // the newest ticks it keeps in memory for reads (--retain-ticks)
  windowBytes: number; // --retain-bytes
  /** The newest stored proven ticks up to the seed's, oldest first: the window's start. */
  warm: readonly Tick[];
}

/** The Sequencer as the node thread sees it: calls cross to the ordering thread, reads (with `reads`) do not. */

export class SequencerProxy implements Sequencer {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly provenListeners = new Set<TickListener>();
  private readonly orderedListeners = new Set<TickListener>();
  /** Ordered ticks whose proof has not crossed yet. */
  private readonly unproven = new Map<number, Tick>();
  private statusNow: SequencerStatus;
  private orderedNow: SequencerStatus;
  private readonly window?: MemoryTickStore;
  private readonly reads?: TickReads;

  private readonly applied: BigInt64Array;

  constructor(
    private readonly port: MessagePort,
    seed: LinkSeed,
    reads?: ProxyReads,
  ) {
    this.applied = new BigInt64Array(seed.applied);
    if (reads) {
      this.window = new MemoryTickStore(reads.windowTicks, undefined, reads.windowBytes);
      for (const tick of reads.warm) if (tick.tickNumber <= seed.status.currentTick) this.window.append({ tick });
      this.reads = new TickReads(reads.disk, this.window, () => ({
        first: reads.first,
        proven: this.statusNow.currentTick,
      }));
    }
    this.statusNow = seed.status;
    this.orderedNow = seed.ordered;
    port.on('message', (m: ToNode) => this.receive(m));
  }

  start(): Promise<void> {
    return Promise.resolve(); // the ordering thread started it
  }

  stop(): Promise<void> {
    return Promise.resolve(); // the ordering thread stops it
  }

  submit(tx: Transaction): Promise<SubmitResult> {
    return this.call('submit', [tx]) as Promise<SubmitResult>;
  }

  async submitBatch(txs: Transaction[]): Promise<Array<SubmitResult | SubmitError>> {
    return ((await this.call('submitBatch', [txs])) as ItemOut[]).map(itemIn);
  }

  async submitPrepared(batch: PreparedBatch | Promise<PreparedBatch>): Promise<Array<SubmitResult | SubmitError>> {
    const id = this.nextId;
    const answer = this.call('submitPrepared', []);
    Promise.resolve(batch).then(
      (b) => this.port.postMessage({ t: 'prepared', id, batch: b } satisfies PreparedMessage),
      (err: unknown) => this.port.postMessage({ t: 'prepared', id, error: wireError(err) } satisfies PreparedMessage),
    );
    return ((await answer) as ItemOut[]).map(itemIn);
  }

  getTick(tickNumber: number): Promise<Tick | undefined> {
    if (this.reads) return this.reads.getTick(tickNumber);
    return this.call('getTick', [tickNumber]) as Promise<Tick | undefined>;
  }

  findTransactions(txHash8: string): Promise<TransactionLocation[]> {
    if (this.reads) return this.reads.findTransactions(txHash8);
    return this.call('findTransactions', [txHash8]) as Promise<TransactionLocation[]>;
  }

  findUnprovenTransactions(txHash8: string): Promise<TransactionLocation[]> {
    return this.call('findUnprovenTransactions', [txHash8]) as Promise<TransactionLocation[]>;
  }

  /** Newest first, from the memory window (the ordering thread's, without `reads`). */
  recentTicks(limit: number, offset: number): TickSummary[] | Promise<TickSummary[]> {
    if (this.window) return this.window.recent(wholeOrZero(limit), wholeOrZero(offset));
    return this.call('recentTicks', [limit, offset]) as Promise<TickSummary[]>;
  }

  readTicks(from: number, to: number): AsyncIterable<Tick> {
    if (this.reads) return this.reads.readTicks(from, to);
    return this.read('readTicks', from, to);
  }

  status(): SequencerStatus {
    return this.statusNow;
  }

  /** Tell the ordering thread the last tick applied here (the backlog it counts is after it). */
  markApplied(tickNumber: number): void {
    Atomics.store(this.applied, 0, BigInt(tickNumber));
  }

  onTick(listener: TickListener): () => void {
    this.provenListeners.add(listener);
    return () => this.provenListeners.delete(listener);
  }

  orderedTicks(): OrderedTicks {
    return {
      onTick: (listener) => {
        this.orderedListeners.add(listener);
        return () => this.orderedListeners.delete(listener);
      },
      readTicks: (from, to) => this.read('readOrdered', from, to),
      status: () => this.orderedNow,
    };
  }

  private call(op: Op, args: unknown[]): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ t: 'call', id, op, args } satisfies CallMessage);
    });
  }

  private async *read(op: 'readTicks' | 'readOrdered', from: number, to: number): AsyncIterable<Tick> {
    let next = from;
    while (next <= to) {
      const ticks = (await this.call(op, [next, to])) as Tick[];
      if (ticks.length === 0) return;
      for (const t of ticks) yield t;
      next = ticks[ticks.length - 1]!.tickNumber + 1;
    }
  }

  private receive(m: ToNode): void {
    this.statusNow = m.status;
    this.orderedNow = m.ordered;
    if (m.t === 'reply') {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (!w) return;
      if (m.ok) w.resolve(m.value);
      else w.reject(errorIn(m.error));
      return;
    }
    if (m.t === 'ordered') {
      const tick = readPacked(m.packed, new DataView(m.packed.buffer, m.packed.byteOffset, m.packed.byteLength), 0);
      this.unproven.set(tick.tickNumber, tick);
      for (const l of this.orderedListeners) l(tick);
      return;
    }
    const early = this.unproven.get(m.tickNumber);
    this.unproven.delete(m.tickNumber);
    const tick = m.tick ?? (early ? { ...early, vdfProof: { ...early.vdfProof, proof: m.proof } } : undefined);
    if (tick && this.window && tick.tickNumber > this.window.latest()) this.window.append({ tick });
    if (tick) for (const l of this.provenListeners) l(tick);
  }
}

// ------------------------------------------------------------------ helpers

/**
 * The ticks handed to the node thread and not yet applied there, each with the last
 * sequence number before it: what is behind is every transaction after the oldest one's.
 */
class HandedTicks {
  private ticks: number[] = [];
  private before: number[] = [];
  private head = 0;
  private last = 0; // the last sequence number handed over

  add(tick: Tick): void {
    this.ticks.push(tick.tickNumber);
    this.before.push(this.last);
    const n = tick.transactions.length;
    if (n > 0) this.last = tick.transactions[n - 1]!.sequenceNumber;
  }

  /** Transactions handed over in ticks after `appliedTick` (0: the node thread is still starting, none). */
  behind(appliedTick: number): number {
    if (appliedTick === 0) return 0;
    while (this.head < this.ticks.length && this.ticks[this.head]! <= appliedTick) this.head++;
    if (this.head >= 4096) {
      this.ticks = this.ticks.slice(this.head);
      this.before = this.before.slice(this.head);
      this.head = 0;
    }
    return this.head < this.ticks.length ? this.last - this.before[this.head]! : 0;
  }
}

type ItemOut = SubmitResult | { error: WireError };

function itemOut(item: SubmitResult | SubmitError): ItemOut {
  return item instanceof SubmitError ? { error: wireError(item) } : item;
}

function itemIn(item: ItemOut): SubmitResult | SubmitError {
  return 'error' in item ? (errorIn(item.error) as SubmitError) : item;
}

function wireError(err: unknown): WireError {
  if (err instanceof SubmitError) return { code: err.code, message: err.message };
  return { message: err instanceof Error ? err.message : String(err) };
}

function errorIn(e: WireError): Error {
  return e.code !== undefined ? new SubmitError(e.code as SubmitErrorCode, e.message) : new Error(e.message);
}

function wholeOrZero(n: number): number {
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

async function collect(ticks: AsyncIterable<Tick>, max: number): Promise<Tick[]> {
  const out: Tick[] = [];
  for await (const t of ticks) {
    out.push(t);
    if (out.length >= max) break;
  }
  return out;
}
