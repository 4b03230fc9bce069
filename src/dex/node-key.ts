/**
 * The node's receipt-signing key: ed25519, created on first start and kept in
 * `<db-path>/node-key.json` (mode 0600, written to a temporary file and renamed so a crash
 * never leaves half a key). Same JSON shape as `svc keygen` writes. The sequencer_id is
 * derived from the public key (src/crypto keys.ts: sequencerIdOf). Its public key is derived
 * with node:crypto (src/crypto ed25519.ts), which costs no start-up table.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fromHex } from '../crypto/index.js';
import { keyFileOf, keyPairOfSeed, sequencerIdOf, type KeyFile, type KeyPair } from '../crypto/index.js';

export const NODE_KEY_FILE = 'node-key.json';

export interface NodeKey extends KeyPair {
  sequencerId: string;
}

export async function loadOrCreateNodeKey(dbPath: string): Promise<NodeKey> {
  const file = join(dbPath, NODE_KEY_FILE);
  let kp: KeyPair;
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<KeyFile>;
    if (parsed.algorithm !== 'ed25519' || typeof parsed.secret_key !== 'string')
      throw new Error(`${file}: not an ed25519 key file`);
    kp = keyPairOfSeed(fromHex(parsed.secret_key));
    if (parsed.public_key_hex !== undefined && parsed.public_key_hex !== keyFileOf(kp).public_key_hex) {
      throw new Error(`${file}: public key does not match the secret key`);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(dbPath, { recursive: true });
    kp = keyPairOfSeed(new Uint8Array(randomBytes(32)));
    const tmp = `${file}.tmp-${process.pid}`;
    await writeFile(tmp, `${JSON.stringify(keyFileOf(kp), null, 2)}\n`, { mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, file);
  }
  return { ...kp, sequencerId: sequencerIdOf(kp.publicKey) };
}
