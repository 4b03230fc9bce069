/**
 * ed25519 keys and signatures for clients, with @noble/ed25519 (pure JS: runs in a
 * browser and in Node). The server verifies with Node's built-in crypto instead, which is
 * much faster; both agree on the RFC 8032 vectors (test/sdk).
 */
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { toBase58, toHex } from './bytes.js';

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

/** RFC 8032 verification (zip215 off: the stricter rules Node's OpenSSL also applies). */
export function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
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
  return toHex(sha256(buf)).slice(0, 16);
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
    public_key_hex: toHex(kp.publicKey),
    secret_key: toHex(kp.secretKey),
  };
}
