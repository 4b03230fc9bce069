/**
 * Pre-encoded SubmitBatch / SubmitTransaction request bodies with unique transactions
 * (~200 bytes each), so the load generator spends its CPU sending, not encoding.
 */
import { writeTransaction } from '../../src/sequencer/api/grpc/encode.js';
import { Writer } from '../../src/wire/index.js';
import type { Transaction } from '../../src/core/types.js';

let counter = 0;
const signature = new Uint8Array(64).fill(5);
const publicKey = new Uint8Array(32).fill(6);

/** One transaction of about `bytes` bytes in Borsh form (payload sized to fit). */
export function benchTransaction(tag: string, bytes = 200): Transaction {
  counter++;
  const txId = `${tag}-${process.pid}-${counter}`;
  const payloadLen = Math.max(0, bytes - (txId.length + signature.length + publicKey.length + 16 + 16));
  const payload = new Uint8Array(payloadLen);
  payload[0] = counter & 0xff;
  payload[1] = (counter >> 8) & 0xff;
  // (public_key, nonce) must be unique across load-generator processes: the pid goes in the high bits
  const nonce = (BigInt(process.pid) << 32n) | BigInt(counter);
  return { txId, payload, signature, publicKey, nonce, timestamp: BigInt(Date.now() * 1000) };
}

export function encodeBatchRequest(txs: Transaction[]): Buffer {
  const w = new Writer(txs.length * 260);
  for (const tx of txs) w.nested(1, (inner) => writeTransaction(inner, tx));
  return Buffer.from(w.finish());
}

export function encodeSubmitRequest(tx: Transaction): Buffer {
  const w = new Writer(300);
  w.nested(1, (inner) => writeTransaction(inner, tx));
  return Buffer.from(w.finish());
}

export function batchRequests(count: number, size: number, tag: string): Buffer[] {
  return Array.from({ length: count }, () =>
    encodeBatchRequest(Array.from({ length: size }, () => benchTransaction(tag))),
  );
}
