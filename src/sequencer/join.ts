/**
 * Commit's pure half: the clock's closed ticks (headers: first sequence, count, hashes,
 * VDF values) joined with the transaction bodies waiting in the sequencer's queue, into
 * the `Tick`s the tick log stores. Checks what the clock claims against the queue: tick
 * numbers follow the head, a tick carries only transactions already handed to the clock,
 * and its sequence numbers are the queue's, in order. No I/O.
 */
import type { ClockTick } from '../clock/index.js';
import type { OrderedTransaction, Tick } from '../core/index.js';
import type { Head } from '../store/index.js';
import type { WalEntry } from '../store/index.js';

export interface JoinContext {
  previousOutput: Uint8Array; // output of the last durable tick
  head: Head; // last durable tick and sequence number
  sent: number; // queue items (from the front) handed to the clock
  queued: (i: number) => WalEntry; // the i-th queued transaction from the front
}

export interface Joined {
  ticks: Tick[];
  entries: WalEntry[][]; // the queue entries of each tick (the store reuses their stored forms)
  taken: number; // queue items the ticks carry
  lastSequence: number;
  lastOutput: Uint8Array;
}

export function joinTicks(raw: readonly ClockTick[], ctx: JoinContext): Joined {
  const ticks: Tick[] = new Array(raw.length);
  const entries: WalEntry[][] = new Array(raw.length);
  let offset = 0;
  let prev = ctx.previousOutput;
  let lastSequence = ctx.head.lastSequence;
  let expected = ctx.head.tick + 1;
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i]!;
    if (t.tickNumber !== expected) throw new Error(`clock produced tick ${t.tickNumber}, expected ${expected}`);
    expected++;
    if (offset + t.txCount > ctx.sent) throw new Error(`tick ${t.tickNumber} carries transactions never sent`);
    const txs: OrderedTransaction[] = new Array(t.txCount);
    const mine: WalEntry[] = new Array(t.txCount);
    for (let j = 0; j < t.txCount; j++) {
      const e = ctx.queued(offset + j);
      if (e.sequence !== t.firstSequence + j) {
        throw new Error(`tick ${t.tickNumber}: sequence ${e.sequence} where ${t.firstSequence + j} was expected`);
      }
      txs[j] = {
        transaction: e.tx,
        sequenceNumber: e.sequence,
        txHash: e.fullHash,
        ingestionTimestamp: e.ingestionTimestamp,
      };
      mine[j] = e;
      lastSequence = e.sequence;
    }
    offset += t.txCount;
    ticks[i] = {
      tickNumber: t.tickNumber,
      vdfProof: { input: t.input, output: t.output, proof: t.proof, iterations: t.iterations },
      transactions: txs,
      batchHash: t.batchHash,
      timestamp: t.timestamp,
      previousOutput: prev,
    };
    entries[i] = mine;
    prev = t.output;
  }
  return { ticks, entries, taken: offset, lastSequence, lastOutput: prev };
}
