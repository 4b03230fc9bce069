/**
 * Pure checks of a chunk of leader ticks, apart from the VDF proofs (those run on the
 * pool, verify.ts): chaining (src/vdf checkChain: genesis for tick 1, previous_output is
 * the output of the tick before, no holes, linked to the last tick before the chunk), the
 * batch hash (Merkle root of the transactions' full hashes, src/crypto/merkle.ts), and the
 * sequence numbers (consecutive across ticks, from the last stored one). Every failure
 * names its tick; the caller keeps only the ticks before the first failure.
 */
import type { Tick } from '../core/index.js';
import { merkleRoot } from '../crypto/index.js';
import { vdfInputOfTick } from '../vdf/index.js';
import { bytesEqual, checkChain, isVdfError, type VdfTickInput } from '../vdf/index.js';
import type { TickFailure } from './interface.js';

/**
 * The tick as the VDF verifiers take it: src/vdf/binding.ts derives header_n from every
 * served field (number, timestamp, first sequence, count, batch hash, ingestion digest),
 * after checking sequence numbers follow one by one and no transaction was ingested after
 * the tick's timestamp. A tick breaking those is a TickFailure.
 */
export function vdfInputOf(t: Tick): VdfTickInput | TickFailure {
  try {
    return vdfInputOfTick(t);
  } catch (e) {
    if (!isVdfError(e)) throw e;
    return { tickNumber: t.tickNumber, code: e.code, message: e.message };
  }
}

const isFailure = (x: VdfTickInput | TickFailure): x is TickFailure => 'code' in x;

/** Where the chunk starts from: the last verified tick's VDF input and its last sequence number. */
export interface ChunkContext {
  before: VdfTickInput | undefined; // undefined: the chunk starts at tick 1 (or the tick before did not parse: it failed)
  lastSequence: number;
  /** Where a chunk without `before` starts: 1 (default), or tick T of a snapshot (snapshot-bootstrap.ts), whose link to T-1 is not checked. */
  firstTick?: number;
}

/** The chunk's VDF inputs (for the pool) and its failures, sorted by tick number. */
export function checkTicks(
  ctx: ChunkContext,
  ticks: readonly Tick[],
): { inputs: VdfTickInput[]; failures: TickFailure[] } {
  const failures: TickFailure[] = [];
  const inputs: VdfTickInput[] = [];
  for (const t of ticks) {
    const v = vdfInputOf(t);
    if (isFailure(v)) failures.push(v);
    else inputs.push(v);
  }
  const linked = ctx.before ? [ctx.before, ...inputs] : inputs;
  const shift = ctx.before ? 1 : 0;
  const first = ctx.firstTick ?? 1;
  if (!ctx.before && ticks.length > 0 && ticks[0]!.tickNumber !== first) {
    failures.push({
      tickNumber: ticks[0]!.tickNumber,
      code: 'MISSING_TICK',
      message: `the leader sent tick ${ticks[0]!.tickNumber} where tick ${first} was due`,
    });
  }
  const chain = checkChain(linked);
  for (const f of [...chain.broken, ...chain.gaps])
    if (f.index >= shift)
      failures.push({ tickNumber: f.tickNumber, code: f.code, message: `tick ${f.tickNumber}: ${f.message}` });
  let seq = ctx.lastSequence;
  for (const t of ticks) {
    for (const o of t.transactions) {
      if (!(o.sequenceNumber > seq)) {
        failures.push({
          tickNumber: t.tickNumber,
          code: 'BAD_SEQUENCE',
          message: `tick ${t.tickNumber}: transaction ${o.transaction.txId} has sequence number ${o.sequenceNumber}, not above ${seq}`,
        });
        break;
      }
      seq = o.sequenceNumber;
    }
    if (!bytesEqual(merkleRoot(t.transactions.map((o) => o.txHash)), t.batchHash)) {
      const n = t.transactions.length;
      failures.push({
        tickNumber: t.tickNumber,
        code: 'BAD_BATCH_HASH',
        message: `tick ${t.tickNumber}: transaction_batch_hash is not the Merkle root of its ${n} transaction hash${n === 1 ? '' : 'es'}`,
      });
    }
  }
  return { inputs, failures: failures.sort((a, b) => a.tickNumber - b.tickNumber) };
}

/** Last sequence number after `ticks`, from `lastSequence`. */
export function lastSequenceAfter(lastSequence: number, ticks: readonly Tick[]): number {
  for (let i = ticks.length - 1; i >= 0; i--) {
    const txs = ticks[i]!.transactions;
    if (txs.length) return txs[txs.length - 1]!.sequenceNumber;
  }
  return lastSequence;
}
