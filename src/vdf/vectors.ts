/**
 * Test vectors of the construction (docs/vdf-vectors.json): a chain of ticks starting at
 * genesis, one per T in VECTOR_ITERATIONS, each with everything needed to re-derive and
 * check it: the served fields the input binds (tick number, timestamp, first sequence,
 * transaction count, batch hash, the ingestion timestamps and their digest), header_n
 * (binding.ts), previous output, input, output, proof, iterations, and for non-trivial
 * proofs the challenge prime l. `node dist/src/vdf/vectors.js`
 * prints the file; tests recompute it with both engines.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { transactionBytes } from '../core/index.js';
import type { Transaction } from '../core/index.js';
import { merkleRootWith } from '../crypto/index.js';
import { concatBytes } from '../crypto/index.js';
import { bytesToHex } from './bytes.js';
import { N, TRIVIAL_PROOF_MAX_T } from './constants.js';
import { GENESIS_OUTPUT, hashToPrime } from './hashing.js';
import { ingestionDigest, tickHeaderDigest } from './binding.js';
import type { VdfEngine } from './interface.js';

export const VECTOR_ITERATIONS = [1, 2, 10, 100, 127, 128, 129, 1000, 100000];

export interface VdfVector {
  tick_number: number;
  timestamp: number; // microseconds, the tick's start
  first_sequence: number;
  transaction_count: number;
  ingestion_timestamps: number[];
  ingestion_digest: string;
  batch_hash: string;
  header: string; // header_n, what the input is derived from
  previous_output: string;
  input: string;
  output: string;
  proof: string;
  iterations: number;
  challenge_prime: string | null; // l in hex, null for trivial proofs (T < 128)
}

/** A batch hash vector: transactions -> Borsh bytes -> full hashes -> leaves -> root. */
export interface BatchVector {
  transactions: {
    tx_id: string;
    payload: string;
    signature: string;
    public_key: string;
    nonce: string;
    timestamp: string;
  }[];
  borsh: string[];
  full_hashes: string[];
  leaves: string[];
  batch_hash: string;
}

export interface VdfVectorFile {
  description: string;
  modulus: string;
  genesis_output: string;
  vectors: VdfVector[];
  batch_description: string;
  batch_vectors: BatchVector[];
}

/** Transaction j of the batch vectors: small, deterministic, with one u64 above 2^53. */
function vectorTransaction(j: number): Transaction {
  const bytes = (len: number, seed: number) => Uint8Array.from({ length: len }, (_, i) => (seed * 31 + i * 7) & 0xff);
  return {
    txId: `vector-tx-${j}`,
    payload: bytes(3 + j, j + 1),
    signature: bytes(j === 0 ? 0 : 64, j + 2),
    publicKey: bytes(j === 0 ? 0 : 32, j + 3),
    nonce: BigInt(j) + (j === 2 ? 2n ** 60n : 0n),
    timestamp: 1_767_225_600_000_000n + BigInt(j),
  };
}

/** Batch vectors for 0, 1, 2, 3 and 5 transactions (design.md "Transactions and hashes"). */
export function makeBatchVectors(): BatchVector[] {
  const sha = (b: Uint8Array): Uint8Array => sha256(b);
  return [0, 1, 2, 3, 5].map((count) => {
    const txs = Array.from({ length: count }, (_, j) => vectorTransaction(j));
    const borsh = txs.map(transactionBytes);
    const full = borsh.map(sha);
    const leaves = full.map((h) => sha(concatBytes(new Uint8Array([0]), h)));
    return {
      transactions: txs.map((t) => ({
        tx_id: t.txId,
        payload: bytesToHex(t.payload),
        signature: bytesToHex(t.signature),
        public_key: bytesToHex(t.publicKey),
        nonce: t.nonce.toString(),
        timestamp: t.timestamp.toString(),
      })),
      borsh: borsh.map(bytesToHex),
      full_hashes: full.map(bytesToHex),
      leaves: leaves.map(bytesToHex),
      batch_hash: bytesToHex(merkleRootWith(sha, full)),
    };
  });
}

/** Vector tick n starts at 2026-01-01T00:00:00Z + n ms and carries n - 1 transactions. */
const VECTOR_EPOCH_US = 1_767_225_600_000_000;

/** Batch hash used by vector tick n: SHA-256 of the ASCII text "svc-vdf test vector batch <n>". */
export function vectorBatchHash(tickNumber: number): Uint8Array {
  return sha256(new TextEncoder().encode(`svc-vdf test vector batch ${tickNumber}`));
}

export function makeVectors(engine: VdfEngine): VdfVectorFile {
  const vectors: VdfVector[] = [];
  let prev = GENESIS_OUTPUT;
  let nextSequence = 1;
  VECTOR_ITERATIONS.forEach((t, i) => {
    const n = i + 1;
    const batch = vectorBatchHash(n);
    const timestamp = VECTOR_EPOCH_US + n * 1000;
    const count = n - 1;
    const stamps = Array.from({ length: count }, (_, j) => timestamp - 10 * (count - j));
    const digest = ingestionDigest(stamps);
    const firstSequence = count > 0 ? nextSequence : 0;
    nextSequence += count;
    const header = tickHeaderDigest({
      tickNumber: n,
      timestamp,
      firstSequence,
      txCount: count,
      batchHash: batch,
      ingestionDigest: digest,
    });
    const x = engine.hashToGroup(n, prev, header);
    const y = engine.evaluate(x, t);
    const pi = engine.prove(x, y, t);
    vectors.push({
      tick_number: n,
      timestamp,
      first_sequence: firstSequence,
      transaction_count: count,
      ingestion_timestamps: stamps,
      ingestion_digest: bytesToHex(digest),
      batch_hash: bytesToHex(batch),
      header: bytesToHex(header),
      previous_output: bytesToHex(prev),
      input: bytesToHex(x),
      output: bytesToHex(y),
      proof: bytesToHex(pi),
      iterations: t,
      challenge_prime: t > TRIVIAL_PROOF_MAX_T ? hashToPrime(x, y, t).toString(16) : null,
    });
    prev = y;
  });
  return {
    description:
      'svc VDF test vectors (docs/vdf.md), tick construction svc-tick-v2: a chain of ticks from genesis; tick n starts at 1767225600000000 + 1000 n us, carries n - 1 transactions ingested 10 us apart up to 10 us before it, and uses batch hash SHA-256("svc-vdf test vector batch <n>"); its input derives from header (docs/vdf.md "What a tick\'s VDF input binds"). All hex is lowercase big-endian.',
    modulus: N.toString(16),
    genesis_output: bytesToHex(GENESIS_OUTPUT),
    vectors,
    batch_description:
      'Batch hash vectors: each transaction\'s Borsh bytes (tx_id string, payload, signature, public_key as u32le length + bytes; nonce, timestamp u64le), full hash = SHA-256(borsh), leaf = SHA-256(0x00 || full hash), node = SHA-256(0x01 || left || right) with a lone last node moved up unchanged, empty batch = SHA-256(""). nonce and timestamp are decimal strings.',
    batch_vectors: makeBatchVectors(),
  };
}

const isMain =
  typeof process !== 'undefined' &&
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const { loadVdfEngine } = await import('./node.js');
  process.stdout.write(`${JSON.stringify(makeVectors(loadVdfEngine()), null, 2)}\n`);
}
