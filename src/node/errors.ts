/**
 * Start-up failures a user can act on. Library errors ("Database failed to open", "No
 * address added out of total 1 resolved") become one sentence that says what failed,
 * where, why, and which flag changes it. `svc node` prints the message and exits 1; the
 * original error stays in the JSON log and as `cause`.
 */
import { envName } from '../config/index.js';
import { levelDir } from '../db/index.js';

export class StartupError extends Error {
  override readonly name = 'StartupError';
}

function codeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof e?.cause?.code === 'string' && e.cause.code.startsWith('LEVEL_')) return e.cause.code;
  if (typeof e?.code === 'string') return e.code;
  // grpc-js reports bind failures only in its message: "... errors: [listen EADDRINUSE: ...]".
  return /\b(EADDRINUSE|EACCES|EADDRNOTAVAIL|ENOTFOUND|EAI_AGAIN)\b/.exec(String((err as Error)?.message ?? ''))?.[1];
}

/** Why the database under `dbPath` did not open. */
export function databaseError(dbPath: string, err: unknown): StartupError {
  const code = codeOf(err);
  const dir = levelDir(dbPath);
  const detail = (err as { cause?: Error })?.cause?.message ?? (err as Error)?.message ?? String(err);
  const message =
    code === 'LEVEL_LOCKED'
      ? `cannot open the database in --db-path ${dbPath}: another svc node is using it (the lock ${dir}/LOCK is held). Stop that node, or give this one its own --db-path.`
      : code === 'EACCES'
        ? `cannot open the database in --db-path ${dbPath}: permission denied. Choose a directory you can write, or run as its owner.`
        : `cannot open the database in --db-path ${dbPath}: ${detail}`;
  return new StartupError(message, { cause: err });
}

/** Why face `face` did not start; a failure to listen on `address` names `--<face>-addr`. */
export function faceError(face: string, address: string, err: unknown): StartupError {
  const flag = `--${face}-addr`;
  const change = `choose another with ${flag} (or ${envName(`${face}-addr`)}); port 0 picks a free one`;
  const host = address.replace(/:\d+$/, '');
  const reasons: Record<string, string> = {
    EADDRINUSE: `the address is already in use (another svc node or program holds the port). Stop it, or ${change}.`,
    EACCES: `permission denied (ports below 1024 need root). ${change[0]!.toUpperCase()}${change.slice(1)}.`,
    EADDRNOTAVAIL: `${host} is not an address of this machine. Use 0.0.0.0 (all interfaces) or 127.0.0.1 in ${flag}.`,
    ENOTFOUND: `the host ${host} does not resolve. Use an IP address or a resolvable name in ${flag}.`,
    EAI_AGAIN: `the host ${host} does not resolve. Use an IP address or a resolvable name in ${flag}.`,
  };
  const code = codeOf(err);
  const why = code === undefined ? undefined : reasons[code];
  if (why === undefined)
    return new StartupError(`the ${face} face failed to start: ${(err as Error)?.message ?? String(err)}`, {
      cause: err,
    });
  return new StartupError(`the ${face} face cannot listen on ${address}: ${why}`, { cause: err });
}

/** Why the order book runtime or the chain it feeds did not start (e.g. a chain built with another --block-ms). */
export function orderBookError(err: unknown): StartupError {
  if (err instanceof StartupError) return err;
  return new StartupError(`the order book failed to start: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}
