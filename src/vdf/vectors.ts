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

export interface VdfVectorFile {
  description: string;
  modulus: string;
  genesis_output: string;
  vectors: VdfVector[];
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
    const header = tickHeaderDigest({ tickNumber: n, timestamp, firstSequence, txCount: count, batchHash: batch, ingestionDigest: digest });
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
  };
}

const isMain = typeof process !== 'undefined' && process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const { loadVdfEngine } = await import('./node.js');
  process.stdout.write(JSON.stringify(makeVectors(loadVdfEngine()), null, 2) + '\n');
}
