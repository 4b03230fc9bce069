/**
 * ed25519 keys and signatures with @noble/ed25519 (pure JS: runs in a browser and in Node):
 * the SDK's keys and signing, the node's own key (node-key.json, the same key file as `svc
 * keygen` writes) and its sequencer_id. The node verifies order signatures with Node's
 * built-in crypto instead (./ed25519.ts), which is much faster; both apply the same rules
 * (./ed25519-rules.ts) and agree on the RFC 8032 vectors and on docs/ed25519-vectors.json
 * (test/sdk).
 */
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { toBase58 } from './base58.js';
import { bytesEqual } from './bytes.js';
import { ed25519EncodingViolation } from './ed25519-rules.js';
import { bytesToHex } from './hex.js';

ed.hashes.sha512 = sha512;

export interface KeyPair {
  secretKey: Uint8Array; // 32-byte RFC 8032 seed
  publicKey: Uint8Array; // 32 bytes
}

export function generateKeyPair(): KeyPair {
  const secretKey = ed.utils.randomSecretKey();
  return { secretKey, publicKey: ed.getPublicKey(secretKey) };
}

export function keyPairFromSeed(seed: Uint8Array): KeyPair {
  if (seed.length !== 32) throw new RangeError('an ed25519 seed is 32 bytes');
  return { secretKey: seed.slice(), publicKey: ed.getPublicKey(seed) };
}

export function sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return ed.sign(message, secretKey);
}

const L = 2n ** 252n + 27742317777372353535851937790883648493n;

function numberLE(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

/**
 * svc's ed25519 verification (./ed25519-rules.ts): the byte rules (canonical S, A and R; no
 * small-order A or R), then the cofactorless equation [S]B - [k]A == R compared as encodings,
 * the check OpenSSL makes on the node. (@noble/ed25519's own verify checks the cofactored
 * equation, which accepts more signatures for keys with a small-order component.)
 */
export function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (ed25519EncodingViolation(publicKey, signature) !== undefined) return false;
  try {
    const r = signature.subarray(0, 32);
    const A = ed.Point.fromBytes(publicKey);
    ed.Point.fromBytes(r); // R must decode to a point
    const buf = new Uint8Array(64 + message.length);
    buf.set(r, 0);
    buf.set(publicKey, 32);
    buf.set(message, 64);
    const k = numberLE(sha512(buf)) % L;
    const s = numberLE(signature.subarray(32, 64)); // < L (rule 2)
    const check = ed.Point.BASE.multiply(s, false).subtract(A.multiply(k, false));
    return bytesEqual(check.toBytes(), r);
  } catch {
    return false;
  }
}

const SEQUENCER_ID_PREFIX = new TextEncoder().encode('SVC_DEX_SEQUENCER_ID:');

/** sequencer_id: the first 16 hex characters of SHA-256("SVC_DEX_SEQUENCER_ID:" || public key). */
export function sequencerIdOf(publicKey: Uint8Array): string {
  const buf = new Uint8Array(SEQUENCER_ID_PREFIX.length + publicKey.length);
  buf.set(SEQUENCER_ID_PREFIX);
  buf.set(publicKey, SEQUENCER_ID_PREFIX.length);
  return bytesToHex(sha256(buf)).slice(0, 16);
}

/** The key file written by `svc keygen` (and the node's `node-key.json`). */
export interface KeyFile {
  algorithm: 'ed25519';
  public_key: string; // Base58
  public_key_hex: string;
  secret_key: string; // hex of the 32-byte seed
}

export function keyFileOf(kp: KeyPair): KeyFile {
  return {
    algorithm: 'ed25519',
    public_key: toBase58(kp.publicKey),
    public_key_hex: bytesToHex(kp.publicKey),
    secret_key: bytesToHex(kp.secretKey),
  };
}
