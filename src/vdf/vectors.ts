/**
 * Test vectors of the construction (docs/vdf-vectors.json): a chain of ticks starting at
 * genesis, one per T in VECTOR_ITERATIONS, each with everything needed to re-derive and
 * check it (tick number, previous output, batch hash, input, output, proof, iterations,
 * and for non-trivial proofs the challenge prime l). `node dist/src/vdf/vectors.js`
 * prints the file; tests recompute it with both engines.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from './bytes.js';
import { N, TRIVIAL_PROOF_MAX_T } from './constants.js';
import { GENESIS_OUTPUT, hashToPrime } from './hashing.js';
import type { VdfEngine } from './interface.js';

export const VECTOR_ITERATIONS = [1, 2, 10, 100, 127, 128, 129, 1000, 100000];

export interface VdfVector {
  tick_number: number;
  previous_output: string;
  batch_hash: string;
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

/** Batch hash used by vector tick n: SHA-256 of the ASCII text "svc-vdf test vector batch <n>". */
export function vectorBatchHash(tickNumber: number): Uint8Array {
  return sha256(new TextEncoder().encode(`svc-vdf test vector batch ${tickNumber}`));
}

export function makeVectors(engine: VdfEngine): VdfVectorFile {
  const vectors: VdfVector[] = [];
  let prev = GENESIS_OUTPUT;
  VECTOR_ITERATIONS.forEach((t, i) => {
    const n = i + 1;
    const batch = vectorBatchHash(n);
    const x = engine.hashToGroup(n, prev, batch);
    const y = engine.evaluate(x, t);
    const pi = engine.prove(x, y, t);
    vectors.push({
      tick_number: n,
      previous_output: bytesToHex(prev),
      batch_hash: bytesToHex(batch),
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
      'svc VDF test vectors (docs/vdf.md): a chain of ticks from genesis; tick n uses batch hash SHA-256("svc-vdf test vector batch <n>"). All hex is lowercase big-endian.',
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
