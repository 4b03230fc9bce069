/**
 * What `svc verify` checks in one tick fetched over gRPC, apart from its VDF proof and its
 * chaining (those are src/vdf's: parseRestTick, checkChain, verifyBatchOnPool):
 *   - every transaction's 8-hex tx_hash is the start of SHA-256 of its Borsh bytes
 *     (src/core/tx-hash.ts checkServedTxHash, as a full node checks it), and
 *   - transaction_batch_hash is the Merkle root (src/crypto/merkle.ts) over those full hashes;
 *   - sequence numbers follow one by one, and no transaction was ingested after the tick's
 *     timestamp (the VDF input binds first_sequence, the count and the ingestion digest:
 *     src/vdf/binding.ts, through restTickOf + parseRestTick).
 * Pure; failures carry a code and a message naming the tick.
 */
import { merkleRoot } from '../crypto/index.js';
import { checkServedTxHash } from '../core/index.js';
import { bytesEqual, hexToBytes, isVdfError, parseRestTick, type VdfTickInput } from '../vdf/index.js';
import { restTickOf } from './format.js';
import type { WireTick } from './grpc.js';

export interface TickFailure {
  tickNumber: number;
  code: string;
  message: string;
}

/** The tick as the VDF verifiers take it, or the reason it cannot be read. */
export function tickInputOf(t: WireTick): VdfTickInput | TickFailure {
  try {
    return parseRestTick(restTickOf(t));
  } catch (e) {
    if (!isVdfError(e)) throw e;
    return { tickNumber: Number(t.tick_number), code: e.code, message: e.message };
  }
}

/** Recompute the tick's transaction hashes and batch hash; undefined when they match. */
export function checkBatchHash(t: WireTick): TickFailure | undefined {
  const tickNumber = Number(t.tick_number);
  const hashes: Uint8Array[] = [];
  const first = Number(t.transactions[0]?.sequence_number ?? 0);
  for (const [i, o] of t.transactions.entries()) {
    const tx = o.transaction;
    if (Number(o.sequence_number) !== first + i) {
      return {
        tickNumber,
        code: 'BAD_SEQUENCE',
        message: `transaction ${i} (${tx.tx_id}) has sequence ${o.sequence_number}, expected ${first + i}`,
      };
    }
    if (Number(o.ingestion_timestamp) > Number(t.timestamp)) {
      return {
        tickNumber,
        code: 'BAD_TIMESTAMP',
        message: `transaction ${i} (${tx.tx_id}) was ingested at ${o.ingestion_timestamp}, after the tick's timestamp ${t.timestamp}`,
      };
    }
    const checked = checkServedTxHash(
      {
        txId: tx.tx_id,
        payload: tx.payload,
        signature: tx.signature,
        publicKey: tx.public_key,
        nonce: BigInt(tx.nonce),
        timestamp: BigInt(tx.timestamp),
      },
      o.tx_hash,
      i,
    );
    if ('mismatch' in checked) return { tickNumber, code: 'BAD_TX_HASH', message: checked.mismatch };
    hashes.push(checked.hash);
  }
  let claimed: Uint8Array;
  try {
    claimed = hexToBytes(t.transaction_batch_hash, 32, 'transaction_batch_hash');
  } catch (e) {
    if (!isVdfError(e)) throw e;
    return { tickNumber, code: e.code, message: e.message };
  }
  if (!bytesEqual(merkleRoot(hashes), claimed)) {
    return {
      tickNumber,
      code: 'BAD_BATCH_HASH',
      message: `transaction_batch_hash is not the Merkle root of the tick's ${hashes.length} transaction hash${hashes.length === 1 ? '' : 'es'}`,
    };
  }
  return undefined;
}
