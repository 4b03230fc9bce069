/**
 * Parsing the REST tick object a node serves (spec/1 tick lookup) into a VdfTickInput:
 *   { tick_number, timestamp, transaction_count, transaction_batch_hash: <64 hex>,
 *     vdf_iterations, previous_output: <512 hex>,
 *     vdf_proof: { input, output, proof: <512 hex each>, iterations } }
 * or the whole lookup { tick_number, found, tick: {...} }. Hex may carry `0x`.
 * Malformed objects throw VdfError BAD_TICK_JSON (or the field's own code). No Node
 * built-ins: used by the browser verifier.
 */
import { hexToBytes } from './bytes.js';
import { BATCH_HASH_BYTES, ELEMENT_BYTES } from './constants.js';
import { VdfError } from './errors.js';
import type { VdfTickInput } from './interface.js';

export interface RestVdfProof {
  input: string;
  output: string;
  proof: string;
  iterations: number;
}

export interface RestTick {
  tick_number: number;
  timestamp?: number;
  transaction_count?: number;
  transaction_batch_hash: string;
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
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new VdfError('BAD_TICK_JSON', `tick.${key}: expected an integer`);
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
    if (json.found === false) throw new VdfError('BAD_TICK_JSON', `tick ${String(json.tick_number)} not found on the node`);
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
    throw new VdfError('BAD_TICK_JSON', `tick.vdf_iterations (${iterations}) differs from vdf_proof.iterations (${proofIterations})`);
  }
  return {
    tickNumber,
    previousOutput: hexToBytes(str(t, 'previous_output'), ELEMENT_BYTES, 'previous_output'),
    batchHash: hexToBytes(str(t, 'transaction_batch_hash'), BATCH_HASH_BYTES, 'transaction_batch_hash'),
    claim: {
      input: hexToBytes(str(p, 'input'), ELEMENT_BYTES, 'vdf_proof.input'),
      output: hexToBytes(str(p, 'output'), ELEMENT_BYTES, 'vdf_proof.output'),
      proof: hexToBytes(str(p, 'proof'), ELEMENT_BYTES, 'vdf_proof.proof'),
      iterations,
    },
  };
}
