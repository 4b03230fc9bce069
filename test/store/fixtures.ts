/**
 * Test fixtures for the store: deterministic transactions and ticks with realistic
 * shapes (256-byte elements, 32-byte hashes, u64 values beyond 2^53).
 */
import { createHash } from 'node:crypto';
import type { OrderedTransaction, Tick, Transaction } from '../../src/core/types.js';
import { transactionHash } from '../../src/core/tx-hash.js';
import { prepareOne } from '../../src/sequencer/prepare.js';
import type { WalEntry } from '../../src/store/wal.js';

export function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

export function element(seed: number): Uint8Array {
  const e = bytes(256, seed);
  e[0] = 0x11; // below N/2 like a canonical element
  return e;
}

export function makeTx(i: number, extra: Partial<Transaction> = {}): Transaction {
  return {
    txId: `tx-${i}-ü`,
    payload: bytes(20 + (i % 50), i),
    signature: bytes(64, i + 1000),
    publicKey: bytes(32, i + 2000),
    nonce: 0xffff_ffff_ffff_fff0n + BigInt(i % 10),
    timestamp: 1_700_000_000_000_000n + BigInt(i),
    ...extra,
  };
}

export function ordered(i: number, sequence: number): OrderedTransaction {
  const tx = makeTx(i);
  return {
    transaction: tx,
    sequenceNumber: sequence,
    txHash: transactionHash(tx),
    ingestionTimestamp: 1_700_000_000_123_456 + i,
  };
}

/** Tick n with `count` transactions starting at sequence `firstSeq`. */
export function makeTick(
  n: number,
  count: number,
  firstSeq: number,
  opts: { trivial?: boolean; prev?: Uint8Array } = {},
): Tick {
  const one = new Uint8Array(256);
  one[255] = 1;
  return {
    tickNumber: n,
    vdfProof: {
      input: element(n * 3),
      output: element(n * 3 + 1),
      proof: opts.trivial === false ? element(n * 3 + 2) : one,
      iterations: opts.trivial === false ? 50_000 + n : 20,
    },
    transactions: Array.from({ length: count }, (_, k) => ordered(firstSeq + k, firstSeq + k)),
    batchHash: new Uint8Array(createHash('sha256').update(String(n)).digest()),
    timestamp: 1_700_000_000_500_000 + n,
    previousOutput: opts.prev ?? element(n * 3 - 2),
  };
}

/** A chain of ticks 1..count where each previousOutput is the prior output. */
export function makeChain(count: number, txsPerTick: (n: number) => number, start = 1, firstSeq = 1): Tick[] {
  const out: Tick[] = [];
  let seq = firstSeq;
  let prev = element(999_999);
  for (let n = start; n < start + count; n++) {
    const k = txsPerTick(n);
    const t = makeTick(n, k, seq, { prev, trivial: n % 5 !== 0 });
    seq += k;
    prev = t.vdfProof.output;
    out.push(t);
  }
  return out;
}

/** A queued (write-ahead) entry for `tx`, its stored forms written by intake as the sequencer does. */
export function makeEntry(tx: Transaction, sequence: number, ingestionTimestamp: number): WalEntry {
  const p = prepareOne(tx);
  return { sequence, ingestionTimestamp, tx: p.tx, fullHash: p.fullHash, body: p.body };
}
