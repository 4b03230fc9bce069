/**
 * Shared bits of the order book subcommands (keygen, market, order, receipt): the API URL
 * (--url, else SVC_DEX_URL, else http://127.0.0.1:8081) and where keys and receipts live.
 *
 * Files the CLI keeps for you live in one directory, never in the current one:
 *   $SVC_HOME, else $XDG_CONFIG_HOME/svc, else ~/.config/svc
 *     keys/<name>.json      ed25519 key files (mode 0600), from `svc keygen <name>`
 *     receipts/<name>.json  receipts saved by `svc order place --receipt-out <name>`
 * A --key or --receipt value with a `/` or ending in `.json` is a path instead of a name.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fromBase58Key, fromHex, keyPairFromSeed, type KeyFile, type KeyPair } from '../sdk/index.js';
import { UsageError, type OptionSpec } from './options.js';

export const DEFAULT_DEX_URL = 'http://127.0.0.1:8081';

export const DEX_URL_OPTION: OptionSpec = {
  name: 'url',
  type: 'string',
  value: 'URL',
  help: "the node's order book API",
  default: DEFAULT_DEX_URL,
  env: 'SVC_DEX_URL',
};

/** The directory of keys and receipts. */
export function svcHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SVC_HOME) return env.SVC_HOME;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'svc');
}

export const HOME_HELP = '$SVC_HOME, else $XDG_CONFIG_HOME/svc, else ~/.config/svc';

/** True when `value` names a file rather than a key or receipt kept in the svc directory. */
export function isPath(value: string): boolean {
  return value.includes('/') || value.includes('\\') || value.endsWith('.json');
}

/** `alice` -> <home>/keys/alice.json; a path stays a path. */
export function resolveFile(kind: 'keys' | 'receipts', value: string): string {
  if (isPath(value)) return value;
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/.test(value))
    throw new UsageError(
      `'${value}' is not a ${kind === 'keys' ? 'key' : 'receipt'} name (letters, digits, . _ -; or give a path with a /)`,
    );
  return join(svcHome(), kind, `${value}.json`);
}

/** Make the directory of a file the CLI is about to write (keys get a private directory). */
export async function ensureDirFor(file: string, kind: 'keys' | 'receipts'): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: kind === 'keys' ? 0o700 : 0o755 });
}

export async function readKeyFile(value: string): Promise<KeyPair> {
  const path = resolveFile('keys', value);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new UsageError(
      isPath(value)
        ? `no key file ${path}`
        : `no key '${value}' (looked for ${path}; create it with: svc keygen ${value})`,
    );
  }
  let k: Partial<KeyFile>;
  try {
    k = JSON.parse(text) as Partial<KeyFile>;
  } catch {
    throw new UsageError(`${path}: not a key file written by 'svc keygen'`);
  }
  if (k.algorithm !== 'ed25519' || typeof k.secret_key !== 'string')
    throw new UsageError(`${path}: not a key file written by 'svc keygen'`);
  return keyPairFromSeed(fromHex(k.secret_key));
}

/** An owner given as a Base58 public key, or as a key NAME or file from `svc keygen`. */
export async function ownerKey(value: string): Promise<Uint8Array> {
  try {
    return fromBase58Key(value, 'owner');
  } catch {
    return (await readKeyFile(value)).publicKey;
  }
}

export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

export function u64(value: string, flag: string): bigint {
  if (!/^\d{1,20}$/.test(value) || BigInt(value) >= 1n << 64n)
    throw new UsageError(`--${flag} must be an unsigned 64-bit integer`);
  return BigInt(value);
}
