/**
 * Parsing the REST tick object a node serves (spec/1 tick lookup) into a VdfTickInput:
 *   { tick_number, timestamp, first_sequence, transaction_count,
 *     transaction_batch_hash: <64 hex>, ingestion_digest: <64 hex>,
 *     vdf_iterations, previous_output: <512 hex>,
 *     vdf_proof: { input, output, proof: <512 hex each>, iterations },
 *     transactions?: [{ sequence_number, ingestion_timestamp, ... }] }
 * or the whole lookup { tick_number, found, tick: {...} }. Hex may carry `0x`.
 * The VDF input is derived from header_n over the served fields (binding.ts), so a
 * tampered timestamp, first sequence, count, batch hash or ingestion digest fails
 * verification. When the transactions are included, their sequence numbers and
 * ingestion timestamps must agree with first_sequence, transaction_count and
 * ingestion_digest, and with their bodies, their hashes must give transaction_batch_hash
 * (checked here). Malformed objects throw VdfError BAD_TICK_JSON (or the
 * field's own code). No Node built-ins: used by the browser verifier.
 */
import { hexToBytes } from './bytes.js';
import { BATCH_HASH_BYTES, ELEMENT_BYTES } from './constants.js';
import { VdfError } from './errors.js';
import { transactionBytes } from '../core/browser-safe.js';
import { merkleRootWith } from '../crypto/browser-safe.js';
import { bytesEqual } from './bytes.js';
import { sha256 } from './sha256.js';
import { ingestionDigest, tickHeaderDigest } from './binding.js';
import type { VdfTickInput } from './interface.js';

export interface RestVdfProof {
  input: string;
  output: string;
  proof: string;
  iterations: number;
}

export interface RestTick {
  tick_number: number;
  timestamp: number;
  first_sequence: number;
  transaction_count: number;
  transaction_batch_hash: string;
  ingestion_digest: string;
  vdf_iterations: number;
  previous_output: string;
  vdf_proof: RestVdfProof;
}

export interface RestTickLookup {
  tick_number: number;
  found: boolean;
  tick?: RestTick;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(o: Record<string, unknown>, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v))
    throw new VdfError('BAD_TICK_JSON', `tick.${key}: expected an integer`);
  return v;
}

function str(o: Record<string, unknown>, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new VdfError('BAD_TICK_JSON', `tick.${key}: expected a hex string`);
  return v;
}

/** The tick object itself, whether given directly or as a lookup answer. */
export function unwrapRestTick(json: unknown): Record<string, unknown> {
  if (!isObject(json)) throw new VdfError('BAD_TICK_JSON', 'tick: expected a JSON object');
  if ('found' in json || ('tick' in json && !('vdf_proof' in json))) {
    if (json.found === false)
      throw new VdfError('BAD_TICK_JSON', `tick ${String(json.tick_number)} not found on the node`);
    if (!isObject(json.tick)) throw new VdfError('BAD_TICK_JSON', 'lookup: expected a `tick` object');
    if (typeof json.tick_number === 'number' && json.tick.tick_number !== json.tick_number) {
      throw new VdfError('BAD_TICK_JSON', 'lookup: tick_number differs from tick.tick_number');
    }
    return json.tick;
  }
  return json;
}

export function parseRestTick(json: unknown): VdfTickInput {
  const t = unwrapRestTick(json);
  const tickNumber = num(t, 'tick_number');
  const iterations = num(t, 'vdf_iterations');
  if (!isObject(t.vdf_proof)) throw new VdfError('BAD_TICK_JSON', 'tick.vdf_proof: expected an object');
  const p = t.vdf_proof;
  const proofIterations = num(p, 'iterations');
  if (proofIterations !== iterations) {
    throw new VdfError(
      'BAD_TICK_JSON',
      `tick.vdf_iterations (${iterations}) differs from vdf_proof.iterations (${proofIterations})`,
    );
  }
  const timestamp = num(t, 'timestamp');
  const firstSequence = num(t, 'first_sequence');
  const txCount = num(t, 'transaction_count');
  const digest = hexToBytes(str(t, 'ingestion_digest'), 32, 'ingestion_digest');
  const batchHash = hexToBytes(str(t, 'transaction_batch_hash'), BATCH_HASH_BYTES, 'transaction_batch_hash');
  if (t.transactions !== undefined)
    checkServedTransactions(tickNumber, timestamp, t.transactions, firstSequence, txCount, digest, batchHash);
  const header = tickHeaderDigest({
    tickNumber,
    timestamp,
    firstSequence,
    txCount,
    batchHash,
    ingestionDigest: digest,
  });
  return {
    tickNumber,
    previousOutput: hexToBytes(str(t, 'previous_output'), ELEMENT_BYTES, 'previous_output'),
    header,
    claim: {
      input: hexToBytes(str(p, 'input'), ELEMENT_BYTES, 'vdf_proof.input'),
      output: hexToBytes(str(p, 'output'), ELEMENT_BYTES, 'vdf_proof.output'),
      proof: hexToBytes(str(p, 'proof'), ELEMENT_BYTES, 'vdf_proof.proof'),
      iterations,
    },
  };
}

/**
 * The included transactions agree with the tick: their sequence numbers start at
 * first_sequence and follow one by one, there are transaction_count of them, none was
 * ingested after the tick's timestamp, their ingestion timestamps give ingestion_digest,
 * and when their bodies are included (GET /api/v1/tick/{n}?transactions=true) each one's
 * Borsh bytes hash to its tx_hash and the hashes' Merkle root is transaction_batch_hash.
 */
function checkServedTransactions(
  tickNumber: number,
  timestamp: number,
  txs: unknown,
  firstSequence: number,
  count: number,
  digest: Uint8Array,
  batchHash: Uint8Array,
): void {
  const bad = (message: string): VdfError => new VdfError('BAD_TICK_JSON', `tick ${tickNumber}: ${message}`);
  if (!Array.isArray(txs)) throw bad('transactions: expected a list');
  if (txs.length !== count) throw bad(`transaction_count is ${count} but ${txs.length} transactions are included`);
  if (count === 0 && firstSequence !== 0) throw bad(`an empty tick has first_sequence 0, not ${firstSequence}`);
  const stamps: number[] = [];
  const hashes: Uint8Array[] = [];
  txs.forEach((o: unknown, i) => {
    if (!isObject(o)) throw bad(`transaction ${i}: expected an object`);
    const seq = num(o, 'sequence_number');
    if (seq !== firstSequence + i)
      throw bad(
        `transaction ${i} has sequence ${seq}, expected ${firstSequence + i} (first_sequence ${firstSequence})`,
      );
    const ingested = num(o, 'ingestion_timestamp');
    if (ingested > timestamp)
      throw bad(`transaction ${i} was ingested at ${ingested}, after the tick's timestamp ${timestamp}`);
    stamps.push(ingested);
    if (o.payload !== undefined) hashes.push(checkTransactionHash(o, i, bad));
  });
  if (!bytesEqual(ingestionDigest(stamps), digest))
    throw bad("ingestion_digest does not match the transactions' ingestion timestamps");
  if (hashes.length === count && count > 0 && !bytesEqual(merkleRootWith(sha256One, hashes), batchHash)) {
    throw bad(`transaction_batch_hash is not the Merkle root of the ${count} included transactions' hashes`);
  }
}

const sha256One = (data: Uint8Array): Uint8Array => sha256(data);

/** SHA-256 of the transaction's Borsh bytes, checked against its tx_hash (64 hex). */
function checkTransactionHash(o: Record<string, unknown>, i: number, bad: (m: string) => VdfError): Uint8Array {
  const u64 = (key: string): bigint => {
    const v = o[key];
    if (typeof v !== 'string' || !/^[0-9]{1,20}$/.test(v) || BigInt(v) > 0xffff_ffff_ffff_ffffn)
      throw bad(`transaction ${i}: ${key}: expected a u64 as a decimal string`);
    return BigInt(v);
  };
  if (typeof o.tx_id !== 'string') throw bad(`transaction ${i}: tx_id: expected a string`);
  const full = sha256(
    transactionBytes({
      txId: o.tx_id,
      payload: hexToBytes(str(o, 'payload'), undefined, `transaction ${i} payload`),
      signature: hexToBytes(str(o, 'signature'), undefined, `transaction ${i} signature`),
      publicKey: hexToBytes(str(o, 'public_key'), undefined, `transaction ${i} public_key`),
      nonce: u64('nonce'),
      timestamp: u64('timestamp'),
    }),
  );
  if (!bytesEqual(full, hexToBytes(str(o, 'tx_hash'), 32, `transaction ${i} tx_hash`)))
    throw bad(`transaction ${i} (${o.tx_id}): its bytes do not hash to its tx_hash`);
  return full;
}
