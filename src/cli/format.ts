/**
 * How the sequencer CLI shows what the node answers: microsecond timestamps as ISO 8601
 * UTC with six decimals, byte fields as lowercase hex (shortened for people), payloads as
 * text when they are printable UTF-8, and ticks as the REST tick object of docs/api.md plus
 * their transactions for --json (u64 values as exact JSON integers).
 */
import { bytesToHex } from '../crypto/index.js';
import { encodeJson } from '../wire/index.js';
import { ingestionDigest } from '../vdf/index.js';
import type { WireOrdered, WireTick } from './grpc.js';

/** 1700000000123456 -> "2023-11-14T22:13:20.123456Z". */
export function isoMicros(us: string | number | bigint): string {
  const v = BigInt(us);
  const seconds = v / 1_000_000n;
  const iso = new Date(Number(seconds) * 1000).toISOString(); // ...:20.000Z
  return `${iso.slice(0, 19)}.${(v % 1_000_000n).toString().padStart(6, '0')}Z`;
}

/** "9f3c1a2b…c7d8" for long hex, the whole of short hex. */
export function shortHex(hex: string, keep = 8): string {
  return hex.length <= 2 * keep + 1 ? hex : `${hex.slice(0, keep)}…${hex.slice(-keep)}`;
}

/** A payload for people: `5 bytes "hello"`, or its hex (shortened) when not printable text. */
export function describeBytes(b: Uint8Array): string {
  if (b.length === 0) return '(empty)';
  const text = Buffer.from(b).toString('utf8');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
  const printable = !text.includes('\uFFFD') && !/[\u0000-\u0008\u000e-\u001f\u007f]/.test(text);
  const size = `${b.length} byte${b.length === 1 ? '' : 's'}`;
  if (printable) return `${size} ${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)}`;
  return `${size} ${shortHex(Buffer.from(b).toString('hex'), 16)}`;
}

function transactionJson(o: WireOrdered) {
  const tx = o.transaction;
  return {
    tx_hash: o.tx_hash,
    sequence_number: Number(o.sequence_number),
    ingestion_timestamp: Number(o.ingestion_timestamp),
    tx_id: tx.tx_id,
    payload: Buffer.from(tx.payload).toString('hex'),
    signature: Buffer.from(tx.signature).toString('hex'),
    public_key: Buffer.from(tx.public_key).toString('hex'),
    nonce: BigInt(tx.nonce),
    timestamp: BigInt(tx.timestamp),
  };
}

/** The REST tick object (what the verifiers parse) from a gRPC tick. */
export function restTickOf(t: WireTick) {
  const iterations = Number(t.vdf_proof.iterations);
  const txs = t.transactions;
  return {
    tick_number: Number(t.tick_number),
    timestamp: Number(t.timestamp),
    // The fields the VDF input binds that gRPC carries inside the transactions
    // (docs/vdf.md "What a tick's VDF input binds").
    first_sequence: txs.length > 0 ? Number(txs[0]!.sequence_number) : 0,
    transaction_count: txs.length,
    transaction_batch_hash: t.transaction_batch_hash,
    ingestion_digest: bytesToHex(ingestionDigest(txs.map((o) => Number(o.ingestion_timestamp)))),
    vdf_iterations: iterations,
    previous_output: t.previous_output,
    vdf_proof: { input: t.vdf_proof.input, output: t.vdf_proof.output, proof: t.vdf_proof.proof, iterations },
  };
}

/** One line of JSON: the REST tick object plus the tick's transactions. */
export function tickJson(t: WireTick): string {
  return encodeJson({ ...restTickOf(t), transactions: t.transactions.map(transactionJson) });
}

export function transactionLookupJson(found: { tick_number: string; transaction: WireOrdered }): string {
  return encodeJson({ found: true, tick_number: Number(found.tick_number), ...transactionJson(found.transaction) });
}

/** "tick 42  2026-11-23T08:00:00.123456Z  3 txs  20 iterations  batch 1a2b3c4d…". */
export function tickLine(t: WireTick): string {
  const n = t.transactions.length;
  return [
    `tick ${t.tick_number}`,
    isoMicros(t.timestamp),
    `${n} tx${n === 1 ? '' : 's'}`,
    `${t.vdf_proof.iterations} iterations`,
    `batch ${shortHex(t.transaction_batch_hash)}`,
    `output ${shortHex(t.vdf_proof.output)}`,
  ].join('  ');
}
