/**
 * The ordering thread's side of the sequencer link (the contract: sequencer-link.ts): it
 * answers the node thread's calls with the real Sequencer, hands over each tick as soon as
 * it is ordered (packed, transferred) and then its proof, and counts the transactions the
 * node thread has not applied yet (the sequencer's backlog toward --queue-capacity).
 */
import type { MessagePort } from 'node:worker_threads';
import type { Tick, Transaction } from '../core/index.js';
import type { PreparedBatch, Sequencer } from '../sequencer/index.js';
import { packedSize, writePacked } from '../store/index.js';
import {
  errorIn,
  itemOut,
  READ_CHUNK,
  wireError,
  type LinkSeed,
  type Statuses,
  type ToNode,
  type ToOrdering,
} from './sequencer-link.js';

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

async function collect(ticks: AsyncIterable<Tick>, max: number): Promise<Tick[]> {
  const out: Tick[] = [];
  for await (const t of ticks) {
    out.push(t);
    if (out.length >= max) break;
  }
  return out;
}
