/**
 * ed25519 with Node's built-in crypto (OpenSSL), which is about an order of magnitude
 * faster than pure-JS @noble/ed25519: verification one at a time or in batches, and
 * signing a batch of messages with one key (the node's receipt key), and that key's public
 * half from its seed (@noble/ed25519 builds a table of ~100 ms of CPU in each thread on first
 * use, which a node's start-up would otherwise pay in its node thread and in each gateway
 * process). Public keys are
 * wrapped as DER SPKI (fixed 12-byte prefix || 32-byte key) and cached as KeyObjects
 * (per thread), since traders sign many orders with one key.
 *
 * Verification applies svc's rules (src/crypto/ed25519-rules.ts): the byte checks first (canonical
 * S, A and R; no small-order A or R), which OpenSSL alone does not make, then OpenSSL's
 * cofactorless equation. The SDK's `verify` applies the same rules with @noble/ed25519.
 * Pool tasks run these in workers/ed25519.worker.ts; the main thread calls them directly.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { ed25519EncodingViolation } from './ed25519-rules.js';
import type { KeyPair } from './keys.js';

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const MAX_CACHED_KEYS = 10_000;
const publicKeys = new Map<string, KeyObject>();
const privateKeys = new Map<string, KeyObject>();

export interface VerifyItem {
  publicKey: Uint8Array; // 32 bytes
  message: Uint8Array;
  signature: Uint8Array; // 64 bytes
}

function publicKeyObject(raw: Uint8Array): KeyObject | undefined {
  if (raw.length !== 32) return undefined;
  const id = Buffer.from(raw.buffer, raw.byteOffset, 32).toString('latin1');
  let key = publicKeys.get(id);
  if (key === undefined) {
    try {
      key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    } catch {
      return undefined;
    }
    if (publicKeys.size >= MAX_CACHED_KEYS) publicKeys.clear();
    publicKeys.set(id, key);
  }
  return key;
}

/** Verify one ed25519 signature under svc's rules (byte checks, then OpenSSL's equation). */
export function verifyOne(item: VerifyItem): boolean {
  if (ed25519EncodingViolation(item.publicKey, item.signature) !== undefined) return false;
  const key = publicKeyObject(item.publicKey);
  if (key === undefined) return false;
  try {
    return verify(null, item.message, key, item.signature);
  } catch {
    return false;
  }
}

/** Verify a batch; 1 = valid, 0 = invalid, in order. */
export function verifyBatch(task: { items: VerifyItem[] }): Uint8Array {
  const out = new Uint8Array(task.items.length);
  for (let i = 0; i < task.items.length; i++) out[i] = verifyOne(task.items[i]!) ? 1 : 0;
  return out;
}

function privateKeyObject(seed: Uint8Array): KeyObject {
  const id = Buffer.from(seed.buffer, seed.byteOffset, seed.byteLength).toString('latin1');
  let key = privateKeys.get(id);
  if (key === undefined) {
    if (seed.length !== 32) throw new RangeError('an ed25519 seed is 32 bytes');
    key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    privateKeys.set(id, key);
  }
  return key;
}

/** Sign each message with the key of `seed` (the node's receipt key). */
export function signBatch(task: { seed: Uint8Array; messages: Uint8Array[] }): Uint8Array[] {
  const key = privateKeyObject(task.seed);
  return task.messages.map((m) => new Uint8Array(sign(null, m, key)));
}

/** The key pair of a 32-byte seed: the same bytes as keys.ts's keyPairFromSeed, derived by node:crypto. */
export function keyPairOfSeed(seed: Uint8Array): KeyPair {
  const spki = createPublicKey(privateKeyObject(seed)).export({ format: 'der', type: 'spki' });
  return { secretKey: seed.slice(), publicKey: new Uint8Array(spki.subarray(SPKI_PREFIX.length)) };
}
