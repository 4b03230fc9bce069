/**
 * Transaction inclusion proofs (docs/proofs.md "Transaction inclusion proof"): built from a
 * stored tick, checked step by step down to the tick's VDF proof.
 *
 *   transaction  tx (Borsh bytes) decodes; SHA-256(tx) is the full hash (= the asked hash)
 *   audit_path   SHA-256(0x00 || full hash) and the path, at positions from index and
 *                transaction_count under the batch hash's rule, lead to batch_hash
 *   batch_hash   batch_hash is the tick's transaction_batch_hash
 *   tick         the tick is the lookup answer of tick_number (`found` true, both tick_numbers
 *                the proof's) and its transaction_count is the proof's
 *   tick_vdf     the tick's bound header and VDF proof verify (the existing tick verifier)
 *   chain        optionally: the tick chains to a later tick the caller trusts
 *   block_ids    (explorer proofs, after the steps above) the id's groups are block_height and
 *                batch_index, continuum_sequence = (tick_number << 32) | index; with a trusted
 *                block, it lists the id and its batch summary binds the id's index group
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
import type {
  ChainTransactionProof,
  Failure,
  InclusionProof,
  InclusionStep,
  InclusionVerdict,
  VerifyInclusionOptions,
} from './interface.js';

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
  if (!Number.isSafeInteger(index) || index < 0 || index >= txs.length)
    throw new RangeError(`tick ${tick.tickNumber} has no transaction ${index}`);
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
export function buildChainTransactionProof(
  ids: { transactionId: string; blockHeight: number; batchIndex: number; continuumSequence: bigint },
  proof: InclusionProof,
): ChainTransactionProof {
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
  if (isObject(tick) && inner !== tick && tick.tick_number !== inner.tick_number)
    throw new StepFailure<InclusionStep>('tick', 'tick: lookup tick_number differs from tick.tick_number');
  return inner;
}

function matchesHash(full: Uint8Array, expected: string): boolean {
  const want = expected.toLowerCase();
  const hex = bytesToHex(full);
  return (/^[0-9a-f]{8}$/.test(want) && hex.startsWith(want)) || (/^[0-9a-f]{64}$/.test(want) && hex === want);
}

/** Check an inclusion proof; see the file comment for the steps. Never throws. */
export function verifyInclusion(
  proof: unknown,
  options: VerifyInclusionOptions,
): InclusionVerdict | Failure<InclusionStep> {
  let step: InclusionStep = 'shape';
  try {
    if (!isObject(proof)) throw new StepFailure(step, 'proof: expected a JSON object');
    const tickNumber = intField(step, 'tick_number', proof.tick_number, 1, MAX_TICK_NUMBER);
    const count = intField(step, 'transaction_count', proof.transaction_count, 1);
    const index = intField(step, 'index', proof.index, 0);
    if (index >= count) throw new StepFailure(step, `index ${index} is not below transaction_count ${count}`);
    if (typeof proof.tx === 'string' && proof.tx.length > 2 * MAX_TX_BYTES + 2)
      throw new StepFailure(step, `tx: longer than any transaction (${MAX_TX_BYTES} bytes)`);
    const txBytes = hexField(step, 'tx', proof.tx);
    if (txBytes.length > MAX_TX_BYTES)
      throw new StepFailure(step, `tx: longer than any transaction (${MAX_TX_BYTES} bytes)`);
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
    if (!bytesEqual(root.root, batchHash))
      throw new StepFailure(
        step,
        `the path leads to ${bytesToHex(root.root)}, not to batch_hash ${bytesToHex(batchHash)}`,
      );

    step = 'batch_hash';
    const t = tickObject(proof.tick);
    const tickBatch = hexField('tick', 'tick.transaction_batch_hash', t.transaction_batch_hash, 32);
    if (!bytesEqual(tickBatch, batchHash))
      throw new StepFailure(step, "batch_hash is not the tick's transaction_batch_hash");

    step = 'tick';
    const lookup = proof.tick as Record<string, unknown>;
    if (lookup === t || lookup.found !== true)
      throw new StepFailure(step, 'tick: expected the tick lookup answer with found: true');
    if (lookup.tick_number !== tickNumber)
      throw new StepFailure(step, `the lookup answer is for tick ${String(lookup.tick_number)}, not ${tickNumber}`);
    if (t.tick_number !== tickNumber)
      throw new StepFailure(step, `the tick is tick ${String(t.tick_number)}, not ${tickNumber}`);
    if (t.transaction_count !== count)
      throw new StepFailure(step, `the tick has ${String(t.transaction_count)} transactions, the proof says ${count}`);
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
  const trusted = hexField(step, 'chain.trustedOutput', chain.trustedOutput, 256);
  const last = chainOutputs(step, tick, tickNumber, chain.ticks, options.tickVerifier);
  if (!bytesEqual(last.output, trusted))
    throw new StepFailure(step, `tick ${last.tickNumber}'s output is not the trusted output`);
  return last.tickNumber;
}

/**
 * Tick `tickNumber` (already verified) and the ticks after it, given in order, verify and
 * each one's previous_output is the output of the one before (the tick verifier checks
 * the links); none is missing. The last tick's number and VDF output.
 */
export function chainOutputs<S extends string>(
  step: S,
  tick: unknown,
  tickNumber: number,
  later: unknown,
  tickVerifier: VerifyInclusionOptions['tickVerifier'],
): { tickNumber: number; output: Uint8Array } {
  if (!Array.isArray(later)) throw new StepFailure(step, 'ticks: expected a list of ticks');
  const all = [tick, ...(later as unknown[])];
  all.forEach((t, i) => {
    const n = isObject(t) ? tickObject(t).tick_number : undefined;
    if (n !== tickNumber + i)
      throw new StepFailure(
        step,
        `chain tick ${i} is tick ${String(n)}, expected ${tickNumber + i} (ticks must follow one by one)`,
      );
  });
  const verdict = tickVerifier.verifyTicks(all, { gaps: 'fail' });
  if (!verdict.ok) {
    const bad = verdict.ticks.find((x) => !x.ok);
    throw new StepFailure(
      step,
      `tick ${String(bad?.tickNumber)}: ${bad?.code ?? 'INVALID'}: ${bad?.message ?? 'does not verify'}`,
    );
  }
  const last = tickObject(all[all.length - 1]);
  const proofObj = last.vdf_proof;
  const output = hexField(step, 'last tick vdf_proof.output', isObject(proofObj) ? proofObj.output : undefined, 256);
  return { tickNumber: tickNumber + all.length - 1, output };
}

const ID_RE = /^([0-9a-f]{16,})-([0-9a-f]{4,})-([0-9a-f]{4,})$/;

/**
 * Check the explorer's proof of a chain transaction: the inclusion proof, then the ids
 * agree with each other and with it (continuum_sequence = (tick_number << 32) | index; the
 * id's height and batch are block_height and batch_index) and, with options.block, with the
 * trusted block (the id's index group is bound by its batch summary). Never throws.
 */
export function verifyChainTransactionProof(
  p: unknown,
  options: VerifyInclusionOptions,
): InclusionVerdict | Failure<InclusionStep> {
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
    if (parseInt(m[1]!, 16) !== height)
      throw new StepFailure(step, `transaction_id's height is not block_height ${height}`);
    if (parseInt(m[2]!, 16) !== batch)
      throw new StepFailure(step, `transaction_id's batch is not batch_index ${batch}`);
    const seq = u64Field(step, 'continuum_sequence', p.continuum_sequence);
    const want = (BigInt(inner.tick_number) << 32n) | BigInt(inner.index);
    if (seq !== want)
      throw new StepFailure(step, `continuum_sequence ${seq} is not (tick_number << 32) | index = ${want}`);
    if (options.block !== undefined)
      checkBlockIds(
        options.block,
        p.transaction_id.toLowerCase(),
        height,
        batch,
        parseInt(m[3]!, 16),
        seq,
        inner.tick_number,
        p.proof,
      );
    return inner;
  } catch (e) {
    return failureOf(e, step);
  }
}

/** The trusted block holds the transaction: listed in transaction_ids, and its batch summary has it at the id's index. */
function checkBlockIds(
  block: unknown,
  id: string,
  height: number,
  batch: number,
  entry: number,
  seq: bigint,
  tickNumber: number,
  proof: unknown,
): void {
  const step: InclusionStep = 'block_ids';
  if (!isObject(block)) throw new StepFailure(step, "block: expected GET /blocks/{height}'s `block`");
  if (block.height !== height)
    throw new StepFailure(step, `the trusted block is block ${String(block.height)}, not block_height ${height}`);
  if (!Array.isArray(block.transaction_ids) || !block.transaction_ids.includes(id))
    throw new StepFailure(step, `the trusted block's transaction_ids do not list ${id}`);
  const summaries = block.batch_summaries;
  const summary: unknown = Array.isArray(summaries) ? summaries[batch] : undefined;
  if (!isObject(summary) || summary.index !== batch)
    throw new StepFailure(step, `the trusted block has no batch ${batch}`);
  if (summary.tick_number !== tickNumber)
    throw new StepFailure(
      step,
      `batch ${batch} of the trusted block is of tick ${String(summary.tick_number)}, not ${tickNumber}`,
    );
  const batchHash = isObject(proof) ? proof.batch_hash : undefined;
  if (
    typeof summary.batch_hash !== 'string' ||
    typeof batchHash !== 'string' ||
    summary.batch_hash.toLowerCase() !== batchHash.toLowerCase()
  )
    throw new StepFailure(step, `batch ${batch}'s batch_hash is not the proof's`);
  const sequences = summary.continuum_sequences;
  const at: unknown = Array.isArray(sequences) ? sequences[entry] : undefined;
  if (exactInteger(at) !== seq)
    throw new StepFailure(
      step,
      `entry ${entry} of batch ${batch} is not continuum_sequence ${seq}: the id's index group is not this transaction's`,
    );
}

function exactInteger(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^(0|[1-9][0-9]{0,19})$/.test(v)) return BigInt(v);
  return undefined;
}
