/**
 * Tick binding v2 (docs/vdf.md "What a tick's VDF input binds"): every field a tick
 * serves is committed in the VDF input of that tick, so a verifier checks them, not
 * trusts them. For tick n:
 *
 *   ingestion_digest = SHA-256("svc-tick-v2/ingestion" || u64be(ingestion_timestamp) of
 *                                each transaction, in sequence order)
 *   header_n         = SHA-256("svc-tick-v2/header" || u64be(n) || u64be(timestamp)
 *                                || u64be(first_sequence) || u32be(transaction_count)
 *                                || transaction_batch_hash || ingestion_digest)
 *   x_n              = hashToGroup(n, y_{n-1}, header_n)      (hashing.ts, unchanged)
 *
 * `timestamp` is the microsecond time the tick started (its batch was fixed and x_n
 * derived), never before the previous tick's nor before any of its transactions'
 * ingestion_timestamp; `first_sequence` is the first transaction's sequence number (0 for
 * an empty tick) and the others follow one by one. T is bound through hash-to-prime and
 * y_{n-1} through hash-to-group, as in v1. No Node built-ins: the browser verifier uses it.
 */
import { VdfError } from './errors.js';
import { BATCH_HASH_BYTES } from './constants.js';
import type { VdfClaim, VdfTickInput } from './interface.js';
import { sha256 } from './sha256.js';

export const DOMAIN_TICK_INGESTION = 'svc-tick-v2/ingestion';
export const DOMAIN_TICK_HEADER = 'svc-tick-v2/header';
/** The version of the tick construction, stored in a node's database when it is created. */
export const TICK_FORMAT = 'svc-tick-v2';

const enc = new TextEncoder();
const TAG_INGESTION = enc.encode(DOMAIN_TICK_INGESTION);
const TAG_HEADER = enc.encode(DOMAIN_TICK_HEADER);

/** The served fields of a tick that its VDF input binds. */
export interface TickHeaderFields {
  tickNumber: number;
  timestamp: number; // microseconds, the tick's start
  firstSequence: number; // 0 for an empty tick
  txCount: number;
  batchHash: Uint8Array; // transaction_batch_hash, 32 bytes
  ingestionDigest: Uint8Array; // ingestionDigest() of the transactions' ingestion timestamps
}

function u64(view: DataView, off: number, v: number, what: string): void {
  if (!Number.isSafeInteger(v) || v < 0)
    throw new VdfError('BAD_TICK_JSON', `${what}: expected a non-negative integer, got ${String(v)}`);
  view.setBigUint64(off, BigInt(v));
}

/** SHA-256 over the domain tag and each ingestion timestamp as u64 big-endian. */
export function ingestionDigest(timestamps: ArrayLike<number>): Uint8Array {
  const buf = new Uint8Array(TAG_INGESTION.length + 8 * timestamps.length);
  buf.set(TAG_INGESTION, 0);
  const view = new DataView(buf.buffer);
  for (let i = 0; i < timestamps.length; i++)
    u64(view, TAG_INGESTION.length + 8 * i, timestamps[i]!, 'ingestion_timestamp');
  return sha256(buf);
}

/** header_n: the 32 bytes the tick's VDF input is derived from (in place of v1's batch hash). */
export function tickHeaderDigest(f: TickHeaderFields): Uint8Array {
  if (f.batchHash.length !== BATCH_HASH_BYTES)
    throw new VdfError('BAD_LENGTH', `transaction_batch_hash: expected ${BATCH_HASH_BYTES} bytes`);
  if (f.ingestionDigest.length !== 32) throw new VdfError('BAD_LENGTH', 'ingestion_digest: expected 32 bytes');
  if (!Number.isInteger(f.txCount) || f.txCount < 0 || f.txCount > 0xffffffff)
    throw new VdfError('BAD_TICK_JSON', `transaction_count: expected a u32, got ${String(f.txCount)}`);
  const t = TAG_HEADER.length;
  const buf = new Uint8Array(t + 8 + 8 + 8 + 4 + 32 + 32);
  buf.set(TAG_HEADER, 0);
  const view = new DataView(buf.buffer);
  u64(view, t, f.tickNumber, 'tick_number');
  u64(view, t + 8, f.timestamp, 'timestamp');
  u64(view, t + 16, f.firstSequence, 'first_sequence');
  view.setUint32(t + 24, f.txCount);
  buf.set(f.batchHash, t + 28);
  buf.set(f.ingestionDigest, t + 60);
  return sha256(buf);
}

/** A tick as served with its transactions: what a verifier recomputes header_n from. */
export interface BoundTick {
  tickNumber: number;
  timestamp: number;
  batchHash: Uint8Array;
  transactions: ReadonlyArray<{ sequenceNumber: number; ingestionTimestamp: number }>;
}

/**
 * The header of a tick whose transactions are at hand, after checking the invariants a
 * verifier must: sequence numbers consecutive, ingestion timestamps not after the tick's
 * timestamp (and not decreasing). Throws VdfError BAD_TICK_JSON naming what is wrong.
 */
export function headerOfTick(t: BoundTick): Uint8Array {
  const txs = t.transactions;
  const stamps = new Array<number>(txs.length);
  let previous = 0;
  for (let i = 0; i < txs.length; i++) {
    const o = txs[i]!;
    if (i > 0 && o.sequenceNumber !== txs[0]!.sequenceNumber + i) {
      throw new VdfError(
        'BAD_TICK_JSON',
        `tick ${t.tickNumber}: transaction ${i} has sequence ${o.sequenceNumber}, expected ${txs[0]!.sequenceNumber + i}`,
      );
    }
    if (o.ingestionTimestamp > t.timestamp) {
      throw new VdfError(
        'BAD_TICK_JSON',
        `tick ${t.tickNumber}: transaction ${i} was ingested at ${o.ingestionTimestamp}, after the tick's timestamp ${t.timestamp}`,
      );
    }
    if (o.ingestionTimestamp < previous) {
      throw new VdfError('BAD_TICK_JSON', `tick ${t.tickNumber}: ingestion timestamps go back at transaction ${i}`);
    }
    previous = o.ingestionTimestamp;
    stamps[i] = o.ingestionTimestamp;
  }
  return tickHeaderDigest({
    tickNumber: t.tickNumber,
    timestamp: t.timestamp,
    firstSequence: txs.length > 0 ? txs[0]!.sequenceNumber : 0,
    txCount: txs.length,
    batchHash: t.batchHash,
    ingestionDigest: ingestionDigest(stamps),
  });
}

/** A stored or streamed tick (src/core Tick's shape) as the VDF verifiers take it. */
export function vdfInputOfTick(t: BoundTick & { previousOutput: Uint8Array; vdfProof: VdfClaim }): VdfTickInput {
  return { tickNumber: t.tickNumber, previousOutput: t.previousOutput, header: headerOfTick(t), claim: t.vdfProof };
}
