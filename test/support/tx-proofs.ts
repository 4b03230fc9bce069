/**
 * Shared by the transaction proof tests (REST, gRPC, SDK, CLI): two transactions whose
 * 8-hex hashes collide (a birthday search over tx_ids, deterministic for a prefix), and
 * every single-field tampering of a served inclusion proof with the verification step
 * docs/proofs.md says must reject it.
 */
import { shortHash, transactionHash } from '../../src/core/tx-hash.js';
import type { Transaction } from '../../src/core/types.js';
import type { InclusionStep } from '../../src/proofs/index.js';

/** Two transactions named `${prefix}-${i}` that share an 8-hex hash (found in well under a second). */
export function collidingPair(prefix: string): [Transaction, Transaction] {
  const make = (i: number): Transaction => ({
    txId: `${prefix}-${i}`,
    payload: new Uint8Array(0),
    signature: new Uint8Array(0),
    publicKey: new Uint8Array(0),
    nonce: 0n,
    timestamp: 0n,
  });
  const seen = new Map<string, number>();
  for (let i = 0; i < 3_000_000; i++) {
    const s = shortHash(transactionHash(make(i)));
    const j = seen.get(s);
    if (j !== undefined) return [make(j), make(i)];
    seen.set(s, i);
  }
  throw new Error('no 8-hex collision within 3M candidates');
}

/** Flip the lowest bit of hex digit `at` (from the end when negative). */
export function flipHex(h: string, at = -1): string {
  const i = at < 0 ? h.length + at : at;
  const d = parseInt(h[i]!, 16) ^ 1;
  return h.slice(0, i) + d.toString(16) + h.slice(i + 1);
}

export interface Tampering {
  what: string;
  proof: Record<string, unknown>;
  /** The steps that may reject it (one, but for a changed count: see docs/proofs.md "Why `tick` is a step"). */
  steps: InclusionStep[];
}

type Json = Record<string, unknown>;
const clone = (v: Json): Json => JSON.parse(JSON.stringify(v)) as Json;

/**
 * Every field of a served proof changed on its own. `proof` must be a proof with at
 * least three transactions and an audit path of at least two elements.
 */
export function tamperings(proof: Json): Tampering[] {
  const out: Tampering[] = [];
  const add = (what: string, steps: InclusionStep[], change: (p: Json, lookup: Json, tick: Json) => void): void => {
    const p = clone(proof);
    const lookup = p.tick as Json;
    change(p, lookup, lookup.tick as Json);
    out.push({ what, proof: p, steps });
  };
  const count = proof.transaction_count as number;
  const index = proof.index as number;
  const path = proof.audit_path as string[];
  add('tx: one bit of the payload', ['transaction'], (p) => (p.tx = flipHex(p.tx as string, -20)));
  add('tx: one byte cut off', ['transaction'], (p) => (p.tx = (p.tx as string).slice(0, -2)));
  add('tx: not hex', ['shape'], (p) => (p.tx = `zz${(p.tx as string).slice(2)}`));
  add('index: the next position', ['audit_path'], (p) => (p.index = (index + 1) % count));
  add('index: transaction_count', ['shape'], (p) => (p.index = count));
  add('index: -1', ['shape'], (p) => (p.index = -1));
  add('index: a string', ['shape'], (p) => (p.index = String(index)));
  add('transaction_count: one more', ['audit_path', 'tick'], (p) => (p.transaction_count = count + 1));
  add('transaction_count: one less', ['audit_path', 'tick', 'shape'], (p) => (p.transaction_count = count - 1));
  path.forEach((_, i) =>
    add(`audit_path[${i}]: one bit`, ['audit_path'], (p) => ((p.audit_path as string[])[i] = flipHex(path[i]!))),
  );
  add('audit_path: last element dropped', ['audit_path'], (p) => (p.audit_path as string[]).pop());
  add('audit_path: an element added', ['audit_path'], (p) => (p.audit_path as string[]).push(path[0]!));
  add(
    'audit_path: two elements swapped',
    ['audit_path'],
    (p) => (p.audit_path = [path[1]!, path[0]!, ...path.slice(2)]),
  );
  add('batch_hash: one bit', ['audit_path'], (p) => (p.batch_hash = flipHex(p.batch_hash as string)));
  add('tick_number: the next tick', ['tick'], (p) => (p.tick_number = (p.tick_number as number) + 1));
  add('tick.tick_number (the lookup)', ['tick'], (_p, l) => (l.tick_number = (l.tick_number as number) + 1));
  add('tick.tick.tick_number', ['tick'], (_p, _l, t) => (t.tick_number = (t.tick_number as number) + 1));
  add(
    'tick.tick.transaction_count',
    ['tick'],
    (_p, _l, t) => (t.transaction_count = (t.transaction_count as number) + 1),
  );
  add(
    'tick.tick.transaction_batch_hash',
    ['batch_hash'],
    (_p, _l, t) => (t.transaction_batch_hash = flipHex(t.transaction_batch_hash as string)),
  );
  add('tick.tick.timestamp', ['tick_vdf'], (_p, _l, t) => (t.timestamp = (t.timestamp as number) + 1));
  add('tick.tick.first_sequence', ['tick_vdf'], (_p, _l, t) => (t.first_sequence = (t.first_sequence as number) + 1));
  add(
    'tick.tick.ingestion_digest',
    ['tick_vdf'],
    (_p, _l, t) => (t.ingestion_digest = flipHex(t.ingestion_digest as string)),
  );
  add('tick.tick.vdf_iterations', ['tick_vdf'], (_p, _l, t) => (t.vdf_iterations = (t.vdf_iterations as number) + 1));
  add(
    'tick.tick.previous_output',
    ['tick_vdf'],
    (_p, _l, t) => (t.previous_output = flipHex(t.previous_output as string)),
  );
  for (const f of ['input', 'output', 'proof']) {
    add(`tick.tick.vdf_proof.${f}`, ['tick_vdf'], (_p, _l, t) => {
      const v = t.vdf_proof as Json;
      v[f] = flipHex(v[f] as string);
    });
  }
  add('tick.tick.vdf_proof.iterations', ['tick_vdf'], (_p, _l, t) => {
    const v = t.vdf_proof as Json;
    v.iterations = (v.iterations as number) + 1;
  });
  add('tick.found: false', ['tick'], (_p, l) => (l.found = false));
  add('tick: missing', ['tick'], (p) => delete p.tick);
  return out;
}
