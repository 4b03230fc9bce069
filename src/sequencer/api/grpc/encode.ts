/**
 * Hand-written protobuf encoders of svc.sequencer.v1 (proto/.../sequencer.proto): submit
 * responses, Ticks and transaction proofs, encoded once into Buffers that grpc-js sends as
 * they are (the request decoders are ./requests.ts). Field numbers must match the .proto;
 * test/sequencer/api/wire.test.ts cross-checks against protobufjs.
 */
import type { SubmitResult, Tick, Transaction } from '../../../core/index.js';
import { shortHash } from '../../../core/index.js';
import { ScratchWriter, Writer } from '../../../wire/index.js';
import type { InclusionProof } from '../../../proofs/index.js';

const EMPTY = new Uint8Array(0);

function writeResult(w: Writer, r: SubmitResult): void {
  w.uint(1, r.sequenceNumber).uint(2, r.expectedTick).string(3, r.txHash);
}

export function encodeSubmitTransactionResponse(r: SubmitResult): Buffer {
  const w = new Writer(32);
  writeResult(w, r);
  return w.finish();
}

/** Failed items (undefined) keep their place as an empty response: sequence_number 0, tx_hash "". */
export function encodeSubmitBatchResponse(results: ReadonlyArray<SubmitResult | undefined>): Buffer {
  const w = new Writer(16 + results.length * 24);
  for (const r of results) {
    if (r) w.nested(1, (inner) => writeResult(inner, r));
    else w.message(1, EMPTY);
  }
  return w.finish();
}

export function writeTransaction(w: Writer, tx: Transaction): void {
  w.string(1, tx.txId)
    .bytes(2, tx.payload)
    .bytes(3, tx.signature)
    .bytes(4, tx.publicKey)
    .uint64(5, tx.nonce)
    .uint64(6, tx.timestamp);
}

export function writeOrderedTransaction(w: Writer, o: Tick['transactions'][number]): void {
  w.nested(1, (inner) => writeTransaction(inner, o.transaction));
  w.uint(2, o.sequenceNumber).string(3, shortHash(o.txHash)).uint(4, o.ingestionTimestamp);
}

export function writeTick(w: Writer, tick: Tick): void {
  w.uint(1, tick.tickNumber);
  w.nested(2, (p) => {
    p.hex(1, tick.vdfProof.input).hex(2, tick.vdfProof.output).hex(3, tick.vdfProof.proof);
    p.uint(4, tick.vdfProof.iterations);
  });
  for (const o of tick.transactions) w.nested(3, (inner) => writeOrderedTransaction(inner, o));
  w.hex(4, tick.batchHash).uint(5, tick.timestamp).hex(6, tick.previousOutput);
}

const tickScratch = new ScratchWriter();

/**
 * One Tick message, encoded once and shared by every stream and query that sends it (built
 * in scratch space and copied out at its exact size: a busy tick's encoding cost 2-3x more
 * with a fresh buffer of an estimated size each time).
 */
export function encodeTick(tick: Tick): Buffer {
  return tickScratch.encode((w) => writeTick(w, tick));
}

/** GetTickResponse around an already encoded Tick. */
export function encodeGetTickResponse(encodedTick: Uint8Array | undefined): Buffer {
  const w = new Writer((encodedTick?.length ?? 0) + 16);
  if (encodedTick) w.message(1, encodedTick).bool(2, true);
  return w.finish();
}

export function encodeGetTransactionResponse(
  found: { tickNumber: number; transaction: Tick['transactions'][number] } | undefined,
): Buffer {
  const w = new Writer(512);
  if (found) {
    w.nested(1, (inner) => writeOrderedTransaction(inner, found.transaction));
    w.uint(2, found.tickNumber).bool(3, true);
  }
  return w.finish();
}

export interface StatusFigures {
  currentTick: number;
  totalTransactions: number;
  pendingTransactions: number;
  uptimeSeconds: number;
  transactionsPerSecond: number;
}

export function encodeGetStatusResponse(s: StatusFigures): Buffer {
  const w = new Writer(64);
  w.uint(1, s.currentTick)
    .uint(2, s.totalTransactions)
    .uint(3, s.pendingTransactions)
    .uint(4, Math.floor(s.uptimeSeconds));
  w.double(5, s.transactionsPerSecond);
  return w.finish();
}

export interface ChainStateFigures {
  chainHeight: number;
  totalTransactions: number;
  recentTicks: Uint8Array[]; // encoded Tick messages, newest first
  txToTickSample: Array<[string, number]>;
}

export function encodeGetChainStateResponse(c: ChainStateFigures): Buffer {
  const w = new Writer(256 + c.recentTicks.reduce((n, t) => n + t.length + 4, 0) + c.txToTickSample.length * 20);
  w.uint(1, c.chainHeight).uint(2, c.totalTransactions);
  for (const t of c.recentTicks) w.message(3, t);
  for (const [key, tick] of c.txToTickSample) w.nested(4, (e) => e.string(1, key).uint(2, tick));
  return w.finish();
}

/** What GetTransactionProofResponse carries (docs/proofs.md): the proof, or why there is none. */
export type TransactionProofAnswer =
  | { found: true; proof: InclusionProof; encodedTick: Uint8Array }
  | {
      found: false;
      pending: boolean;
      candidates: ReadonlyArray<{ txHash: string; tickNumber: number; sequenceNumber: number }>;
    };

/** GetTransactionProofResponse; `encodedTick` is the proof's tick as GetTick sends it (with its transactions). */
export function encodeGetTransactionProofResponse(a: TransactionProofAnswer): Buffer {
  if (!a.found) {
    const w = new Writer(64 + a.candidates.length * 90);
    w.bool(3, a.pending);
    for (const c of a.candidates)
      w.nested(4, (e) => e.string(1, c.txHash).uint(2, c.tickNumber).uint(3, c.sequenceNumber));
    return w.finish();
  }
  const p = a.proof;
  const w = new Writer(a.encodedTick.length + p.tx.length + p.audit_path.length * 70 + 256);
  w.bool(1, true);
  w.nested(2, (m) => {
    m.uint(1, p.tick_number).uint(2, p.index).uint(3, p.transaction_count).string(4, p.tx);
    for (const h of p.audit_path) m.string(5, h);
    m.string(6, p.batch_hash).message(7, a.encodedTick);
  });
  return w.finish();
}
