/**
 * Transaction inclusion proofs (docs/proofs.md "Transaction inclusion proof"): built from a
 * stored tick, checked step by step down to the tick's VDF proof.
 *
 *   transaction  tx (Borsh bytes) decodes; SHA-256(tx) is the full hash (= the asked hash)
 *   audit_path   SHA-256(0x00 || full hash) and the path, at positions from index and
 *                transaction_count under the batch hash's rule, lead to batch_hash
 *   batch_hash   batch_hash is the tick's transaction_batch_hash
 *   tick         the tick's tick_number and transaction_count are the proof's
 *   tick_vdf     the tick's bound header and VDF proof verify (the existing tick verifier)
 *   chain        optionally: the tick chains to a later tick the caller trusts
 *   block_ids    (explorer proofs) continuum_sequence = (tick_number << 32) | index
 *
 * The verifier never throws: every malformed or tampered field fails the step it belongs
 * to. Browser-safe: the SHA-256 is the VDF verifier's own, and the tick check is passed in
 * (the browser verifier's verifyTick/verifyTicks, WASM).
 */
import { bytesToHex } from '../crypto/browser-safe.js';
import { decodeTransactionBytes, transactionBytes } from '../core/browser-safe.js';
import type { Tick } from '../core/index.js';
import { auditPath, leafHashWith, rootFromPath } from '../crypto/browser-safe.js';
import { sha256 as sha256Parts } from '../vdf/browser-safe.js';
import { StepFailure, bytesEqual, failureOf, hexField, intField, isObject, pathField, u64Field } from './fields.js';
import type { ChainTransactionProof, Failure, InclusionProof, InclusionStep, InclusionVerdict, VerifyInclusionOptions } from './interface.js';

const sha256 = (data: Uint8Array): Uint8Array => sha256Parts(data);

/** The largest Borsh transaction the sequencer accepts (tx_id 128 bytes, payload 64 KiB, signature and public key 256 bytes each). */
const MAX_TX_BYTES = 4 + 128 + 4 + 65_536 + 4 + 256 + 4 + 256 + 16; // 66,208
const MAX_TICK_NUMBER = Number.MAX_SAFE_INTEGER;

/**
 * The inclusion proof of the transaction at `index` (0-based, in sequence order) of a
 * stored, proven tick. `servedTick` is exactly what GET /api/v1/tick/{n} serves for it
 * (the REST face's tick lookup answer, without transactions). O(n) hashes for n
 * transactions in the tick.
 */
export function buildInclusionProof(tick: Tick, index: number, servedTick: unknown): InclusionProof {
  const txs = tick.transactions;
  if (!Number.isSafeInteger(index) || index < 0 || index >= txs.length) throw new RangeError(`tick ${tick.tickNumber} has no transaction ${index}`);
  const leaves = txs.map((o) => leafHashWith(sha256, o.txHash));
  return {
    tick_number: tick.tickNumber,
    index,
    transaction_count: txs.length,
    tx: bytesToHex(transactionBytes(txs[index]!.transaction)),
    audit_path: auditPath(sha256, leaves, index).map(bytesToHex),
    batch_hash: bytesToHex(tick.batchHash),
    tick: servedTick,
  };
}

/** The explorer's proof of a chain transaction: the inclusion proof and the ids that tie it to its block. */
export function buildChainTransactionProof(ids: { transactionId: string; blockHeight: number; batchIndex: number; continuumSequence: bigint }, proof: InclusionProof): ChainTransactionProof {
  return {
    transaction_id: ids.transactionId,
    block_height: ids.blockHeight,
    batch_index: ids.batchIndex,
    continuum_sequence: ids.continuumSequence.toString(),
    proof,
  };
}

function tickObject(tick: unknown): Record<string, unknown> {
  if (!isObject(tick)) throw new StepFailure<InclusionStep>('tick', 'tick: expected the tick lookup object');
  const inner = 'found' in tick || ('tick' in tick && !('vdf_proof' in tick)) ? tick.tick : tick;
  if (!isObject(inner)) throw new StepFailure<InclusionStep>('tick', 'tick: expected a `tick` object');
  if (isObject(tick) && inner !== tick && tick.tick_number !== inner.tick_number) throw new StepFailure<InclusionStep>('tick', 'tick: lookup tick_number differs from tick.tick_number');
  return inner;
}

function matchesHash(full: Uint8Array, expected: string): boolean {
  const want = expected.toLowerCase();
  const hex = bytesToHex(full);
  return (/^[0-9a-f]{8}$/.test(want) && hex.startsWith(want)) || (/^[0-9a-f]{64}$/.test(want) && hex === want);
}

/** Check an inclusion proof; see the file comment for the steps. Never throws. */
export function verifyInclusion(proof: unknown, options: VerifyInclusionOptions): InclusionVerdict | Failure<InclusionStep> {
  let step: InclusionStep = 'shape';
  try {
    if (!isObject(proof)) throw new StepFailure(step, 'proof: expected a JSON object');
    const tickNumber = intField(step, 'tick_number', proof.tick_number, 1, MAX_TICK_NUMBER);
    const count = intField(step, 'transaction_count', proof.transaction_count, 1);
    const index = intField(step, 'index', proof.index, 0);
    if (index >= count) throw new StepFailure(step, `index ${index} is not below transaction_count ${count}`);
    if (typeof proof.tx === 'string' && proof.tx.length > 2 * MAX_TX_BYTES + 2) throw new StepFailure(step, `tx: longer than any transaction (${MAX_TX_BYTES} bytes)`);
    const txBytes = hexField(step, 'tx', proof.tx);
    if (txBytes.length > MAX_TX_BYTES) throw new StepFailure(step, `tx: longer than any transaction (${MAX_TX_BYTES} bytes)`);
    const path = pathField(step, 'audit_path', proof.audit_path);
    const batchHash = hexField(step, 'batch_hash', proof.batch_hash, 32);

    step = 'transaction';
    const tx = decodeTransactionBytes(txBytes);
    if (!tx) throw new StepFailure(step, 'tx is not the Borsh bytes of one transaction');
    const full = sha256(txBytes);
    if (options.expectedHash !== undefined && !matchesHash(full, options.expectedHash)) {
      throw new StepFailure(step, `the transaction's hash ${bytesToHex(full)} is not ${options.expectedHash}`);
    }

    step = 'audit_path';
    const root = rootFromPath(sha256, leafHashWith(sha256, full), index, count, path);
    if (!root.ok) throw new StepFailure(step, root.message);
    if (!bytesEqual(root.root, batchHash)) throw new StepFailure(step, `the path leads to ${bytesToHex(root.root)}, not to batch_hash ${bytesToHex(batchHash)}`);

    step = 'batch_hash';
    const t = tickObject(proof.tick);
    const tickBatch = hexField('tick', 'tick.transaction_batch_hash', t.transaction_batch_hash, 32);
    if (!bytesEqual(tickBatch, batchHash)) throw new StepFailure(step, "batch_hash is not the tick's transaction_batch_hash");

    step = 'tick';
    if (t.tick_number !== tickNumber) throw new StepFailure(step, `the tick is tick ${String(t.tick_number)}, not ${tickNumber}`);
    if (t.transaction_count !== count) throw new StepFailure(step, `the tick has ${String(t.transaction_count)} transactions, the proof says ${count}`);
    const firstSequence = intField(step, 'tick.first_sequence', t.first_sequence, 0);

    step = 'tick_vdf';
    const v = options.tickVerifier.verifyTick(proof.tick);
    if (!v.ok) throw new StepFailure(step, `${v.code ?? 'INVALID'}: ${v.message ?? 'the tick does not verify'}`);

    let chainedTo: number | undefined;
    if (options.chain) {
      step = 'chain';
      chainedTo = checkChainTo(proof.tick, tickNumber, options);
    }
    return {
      ok: true,
      tick_number: tickNumber,
      index,
      sequence_number: firstSequence + index,
      tx_hash: bytesToHex(full),
      tx_id: tx.txId,
      public_key: bytesToHex(tx.publicKey),
      payload: bytesToHex(tx.payload),
      ...(chainedTo !== undefined ? { chained_to: chainedTo } : {}),
    };
  } catch (e) {
    return failureOf(e, step);
  }
}

/** The proof's tick, then the given later ticks one by one, verify and link; the last has the trusted output. */
function checkChainTo(tick: unknown, tickNumber: number, options: VerifyInclusionOptions): number {
  const chain = options.chain!;
  const step: InclusionStep = 'chain';
  if (!Array.isArray(chain.ticks)) throw new StepFailure(step, 'chain.ticks: expected a list of ticks');
  const trusted = hexField(step, 'chain.trustedOutput', chain.trustedOutput, 256);
  const all = [tick, ...chain.ticks];
  all.forEach((t, i) => {
    const n = isObject(t) ? tickObject(t).tick_number : undefined;
    if (n !== tickNumber + i) throw new StepFailure(step, `chain tick ${i} is tick ${String(n)}, expected ${tickNumber + i} (ticks must follow one by one)`);
  });
  const verdict = options.tickVerifier.verifyTicks(all, { gaps: 'fail' });
  if (!verdict.ok) {
    const bad = verdict.ticks.find((x) => !x.ok);
    throw new StepFailure(step, `tick ${String(bad?.tickNumber)}: ${bad?.code ?? 'INVALID'}: ${bad?.message ?? 'does not verify'}`);
  }
  const last = tickObject(all[all.length - 1]);
  const proofObj = last.vdf_proof;
  const output = hexField(step, 'last tick vdf_proof.output', isObject(proofObj) ? proofObj.output : undefined, 256);
  if (!bytesEqual(output, trusted)) throw new StepFailure(step, `tick ${tickNumber + all.length - 1}'s output is not the trusted output`);
  return tickNumber + all.length - 1;
}

const ID_RE = /^([0-9a-f]{16,})-([0-9a-f]{4,})-([0-9a-f]{4,})$/;

/**
 * Check the explorer's proof of a chain transaction: the ids agree with each other and with
 * the inclusion proof (continuum_sequence = (tick_number << 32) | index; the id's height and
 * batch are block_height and batch_index), then the inclusion proof. Never throws.
 */
export function verifyChainTransactionProof(p: unknown, options: VerifyInclusionOptions): InclusionVerdict | Failure<InclusionStep> {
  const step: InclusionStep = 'block_ids';
  try {
    if (!isObject(p)) throw new StepFailure<InclusionStep>('shape', 'proof: expected a JSON object');
    const inner = verifyInclusion(p.proof, options);
    if (!inner.ok) return inner;
    if (typeof p.transaction_id !== 'string') throw new StepFailure(step, 'transaction_id: expected a string');
    const m = ID_RE.exec(p.transaction_id.toLowerCase());
    if (!m) throw new StepFailure(step, 'transaction_id: not {height:016x}-{batch:04x}-{index:04x}');
    const height = intField(step, 'block_height', p.block_height, 1);
    const batch = intField(step, 'batch_index', p.batch_index, 0);
    if (parseInt(m[1]!, 16) !== height) throw new StepFailure(step, `transaction_id's height is not block_height ${height}`);
    if (parseInt(m[2]!, 16) !== batch) throw new StepFailure(step, `transaction_id's batch is not batch_index ${batch}`);
    const seq = u64Field(step, 'continuum_sequence', p.continuum_sequence);
    const want = (BigInt(inner.tick_number) << 32n) | BigInt(inner.index);
    if (seq !== want) throw new StepFailure(step, `continuum_sequence ${seq} is not (tick_number << 32) | index = ${want}`);
    return inner;
  } catch (e) {
    return failureOf(e, step);
  }
}
