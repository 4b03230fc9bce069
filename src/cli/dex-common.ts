/**
 * Shared bits of the order book subcommands (keygen, market, order, receipt): option
 * parsing with node:util, the API URL (--url, else SVC_DEX_URL, else http://127.0.0.1:8081),
 * key files, and printing results as JSON.
 */
import { readFile } from 'node:fs/promises';
import { DexApiError, fromHex, keyPairFromSeed, type KeyFile, type KeyPair } from '../sdk/index.js';

export const DEFAULT_DEX_URL = 'http://127.0.0.1:8081';

export function dexUrl(flag: string | undefined): string {
  return flag ?? process.env.SVC_DEX_URL ?? DEFAULT_DEX_URL;
}

export async function readKeyFile(path: string): Promise<KeyPair> {
  const k = JSON.parse(await readFile(path, 'utf8')) as Partial<KeyFile>;
  if (k.algorithm !== 'ed25519' || typeof k.secret_key !== 'string') throw new Error(`${path}: not a key file written by 'svc keygen'`);
  return keyPairFromSeed(fromHex(k.secret_key));
}

export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

/** Run a command body; map errors to a message on stderr and an exit code. */
export async function guard(body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof DexApiError) {
      console.error(`error ${err.status} ${err.code}: ${err.message}`);
      return 1;
    }
    console.error(`error: ${(err as Error).message}`);
    return 2;
  }
}

export function need(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new Error(`missing --${flag}`);
  return value;
}

export function u64(value: string, flag: string): bigint {
  if (!/^\d{1,20}$/.test(value) || BigInt(value) >= 1n << 64n) throw new Error(`--${flag} must be an unsigned 64-bit integer`);
  return BigInt(value);
}
