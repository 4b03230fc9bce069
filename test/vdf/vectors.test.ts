/**
 * docs/vdf-vectors.json: every vector checks with both engines (input re-derived from tick
 * number, previous output and batch hash; output, proof and challenge prime recomputed),
 * the file is exactly what makeVectors produces, and the chain links up from genesis.
 */
import { expect } from 'chai';
import { transactionBytes, transactionHash } from '../../src/core/tx-hash.js';
import { leafHash, merkleRoot } from '../../src/crypto/merkle.js';
import { ingestionDigest, tickHeaderDigest } from '../../src/vdf/binding.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bytesToHex, hexToBytes } from '../../src/vdf/bytes.js';
import { N } from '../../src/vdf/constants.js';
import { GENESIS_OUTPUT, hashToPrime } from '../../src/vdf/hashing.js';
import { loadVdfEngine } from '../../src/vdf/node.js';
import { referenceVdfEngine } from '../../src/vdf/reference.js';
import { VECTOR_ITERATIONS, makeVectors, vectorBatchHash, type VdfVectorFile } from '../../src/vdf/vectors.js';
import type { VdfTickInput } from '../../src/vdf/interface.js';

const file = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../docs/vdf-vectors.json', import.meta.url)), 'utf8'),
) as VdfVectorFile;

function toTick(v: VdfVectorFile['vectors'][number]): VdfTickInput {
  return {
    tickNumber: v.tick_number,
    previousOutput: hexToBytes(v.previous_output, 256),
    header: hexToBytes(v.header, 32),
    claim: {
      input: hexToBytes(v.input, 256),
      output: hexToBytes(v.output, 256),
      proof: hexToBytes(v.proof, 256),
      iterations: v.iterations,
    },
  };
}

describe('vdf: test vectors (docs/vdf-vectors.json)', () => {
  const wasm = loadVdfEngine();
  const ref = referenceVdfEngine();

  it('covers T in {1, 2, 10, 100, 127, 128, 129, 1000, 100000}, chained from genesis', () => {
    expect(file.vectors.map((v) => v.iterations)).to.deep.equal(VECTOR_ITERATIONS);
    expect(file.modulus).to.equal(N.toString(16));
    expect(file.genesis_output).to.equal(bytesToHex(GENESIS_OUTPUT));
    let prev = file.genesis_output;
    for (const v of file.vectors) {
      expect(v.previous_output).to.equal(prev);
      expect(v.batch_hash).to.equal(bytesToHex(vectorBatchHash(v.tick_number)));
      // The binding (src/vdf/binding.ts): digest and header recomputed from the served fields.
      expect(v.ingestion_timestamps).to.have.length(v.transaction_count);
      expect(bytesToHex(ingestionDigest(v.ingestion_timestamps))).to.equal(v.ingestion_digest);
      const fields = {
        tickNumber: v.tick_number,
        timestamp: v.timestamp,
        firstSequence: v.first_sequence,
        txCount: v.transaction_count,
        batchHash: hexToBytes(v.batch_hash, 32),
        ingestionDigest: hexToBytes(v.ingestion_digest, 32),
      };
      expect(bytesToHex(tickHeaderDigest(fields))).to.equal(v.header);
      for (const tampered of [
        { timestamp: v.timestamp + 1 },
        { firstSequence: v.first_sequence + 1 },
        { txCount: v.transaction_count + 1 },
      ]) {
        expect(bytesToHex(tickHeaderDigest({ ...fields, ...tampered }))).to.not.equal(v.header);
      }
      prev = v.output;
    }
  });

  it('every vector verifies with both engines, individually and as a batch', () => {
    const ticks = file.vectors.map(toTick);
    for (const t of ticks) {
      expect(wasm.verify(t), `wasm T=${t.claim.iterations}`).to.equal(true);
      expect(ref.verify(t), `reference T=${t.claim.iterations}`).to.equal(true);
    }
    expect(wasm.verifyBatch(ticks).ok).to.equal(true);
    expect(ref.verifyBatch(ticks).ok).to.equal(true);
  });

  it('both engines recompute input, output, proof and challenge prime', () => {
    for (const v of file.vectors) {
      const t = toTick(v);
      expect(bytesToHex(ref.hashToGroup(t.tickNumber, t.previousOutput, t.header))).to.equal(v.input);
      if (v.iterations <= 1000) {
        expect(bytesToHex(ref.evaluate(t.claim.input, v.iterations))).to.equal(v.output);
        expect(bytesToHex(ref.prove(t.claim.input, t.claim.output, v.iterations))).to.equal(v.proof);
      }
      expect(bytesToHex(wasm.evaluate(t.claim.input, v.iterations))).to.equal(v.output);
      expect(bytesToHex(wasm.prove(t.claim.input, t.claim.output, v.iterations))).to.equal(v.proof);
      if (v.challenge_prime !== null)
        expect(hashToPrime(t.claim.input, t.claim.output, v.iterations).toString(16)).to.equal(v.challenge_prime);
    }
    expect(makeVectors(wasm)).to.deep.equal(file);
  });
  it("batch vectors: the node's own transaction hashing and Merkle root give every vector (0, 1, 2, 3, 5 transactions)", () => {
    expect(file.batch_vectors.map((b) => b.transactions.length)).to.deep.equal([0, 1, 2, 3, 5]);
    for (const b of file.batch_vectors) {
      const txs = b.transactions.map((t) => ({
        txId: t.tx_id,
        payload: hexToBytes(t.payload),
        signature: hexToBytes(t.signature),
        publicKey: hexToBytes(t.public_key),
        nonce: BigInt(t.nonce),
        timestamp: BigInt(t.timestamp),
      }));
      expect(txs.map((t) => bytesToHex(transactionBytes(t)))).to.deep.equal(b.borsh);
      const full = txs.map(transactionHash);
      expect(full.map(bytesToHex)).to.deep.equal(b.full_hashes);
      expect(full.map((h) => bytesToHex(leafHash(h)))).to.deep.equal(b.leaves);
      expect(bytesToHex(merkleRoot(full))).to.equal(b.batch_hash);
    }
  });
});
