/**
 * Writing the REST tick object a node serves (spec/1 tick lookup, GET /api/v1/tick/{n}, and
 * the explorer's tick list): the format rest-tick.ts parses, written here from a Tick, with
 * every field its VDF input binds. Byte fields are lowercase hex without 0x; the optional
 * transactions carry their u64s (nonce, timestamp) as decimal strings, which a browser's
 * JSON.parse cannot round. Pure functions, no Node built-ins.
 */
import { bytesToHex } from '../crypto/index.js';
import type { OrderedTransaction, Tick } from '../core/index.js';
import { ingestionDigest } from './binding.js';
import type { RestVdfProof } from './rest-tick.js';

export function restVdfProof(tick: Tick): RestVdfProof {
  return {
    input: bytesToHex(tick.vdfProof.input),
    output: bytesToHex(tick.vdfProof.output),
    proof: bytesToHex(tick.vdfProof.proof),
    iterations: tick.vdfProof.iterations,
  };
}

/**
 * GET /api/v1/tick/{n}: the tick with every field its VDF input binds (docs/vdf.md "What a
 * tick's VDF input binds": first_sequence and ingestion_digest beside spec/1's fields);
 * `withTransactions` adds each transaction with what its full hash is computed from, so
 * a browser can recompute the batch hash and the ingestion digest.
 */
export function restTick(tick: Tick, withTransactions = false) {
  const txs = tick.transactions;
  return {
    tick_number: tick.tickNumber,
    found: true as const,
    tick: {
      tick_number: tick.tickNumber,
      timestamp: tick.timestamp,
      first_sequence: txs.length > 0 ? txs[0]!.sequenceNumber : 0,
      transaction_count: txs.length,
      transaction_batch_hash: bytesToHex(tick.batchHash),
      ingestion_digest: bytesToHex(ingestionDigest(txs.map((o) => o.ingestionTimestamp))),
      vdf_iterations: tick.vdfProof.iterations,
      previous_output: bytesToHex(tick.previousOutput),
      vdf_proof: restVdfProof(tick),
      ...(withTransactions ? { transactions: txs.map(restTickTransaction) } : {}),
    },
  };
}

/** One transaction of a tick: its Borsh fields (bytes as hex), its place and its full hash (64 hex). */
function restTickTransaction(o: OrderedTransaction) {
  const t = o.transaction;
  return {
    sequence_number: o.sequenceNumber,
    ingestion_timestamp: o.ingestionTimestamp,
    tx_hash: bytesToHex(o.txHash),
    tx_id: t.txId,
    payload: bytesToHex(t.payload),
    signature: bytesToHex(t.signature),
    public_key: bytesToHex(t.publicKey),
    // u64s as decimal strings: a browser's JSON.parse would round integers above 2^53.
    nonce: t.nonce.toString(),
    timestamp: t.timestamp.toString(),
  };
}
