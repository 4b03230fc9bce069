/**
 * Running `svc` in tests: in-process through main() with console output captured (fast),
 * or as the real `node bin/svc.js` child process (exit codes, stderr, environment). Child
 * runs that do not depend on each other run side by side through sideBySide(): each start-up
 * of the command costs ~1 s, mostly CPU and module loading, so a few at a time keep both
 * cores of a CI machine busy instead of one.
 */
import { spawn } from 'node:child_process';
import { main } from '../../src/cli/main.js';
import { SVC_BIN } from '../support/node-process.js';

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/** `svc ...argv` in this process; console.log/error captured. */
export async function svc(...argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (m: unknown) => void out.push(String(m));
  console.error = (m: unknown) => void err.push(String(m));
  try {
    const code = await main(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/** `node bin/svc.js ...argv` as a child process with `env` added to this one's. */
export function svcProcess(
  argv: string[],
  env: Record<string, string> = {},
  input?: string,
  cwd?: string,
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SVC_BIN, ...argv], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.end(input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** How many independent `svc` processes a test runs at once: enough to fill 2 cores while some wait. */
export const SIDE_BY_SIDE = 4;

/**
 * fn over every item, at most `limit` at a time, the results in the items' order. For child
 * runs that share nothing (no file, no node state another one changes); each keeps its own
 * result, so each is asserted as when they ran one after another.
 */
export async function sideBySide<T, R>(
  items: readonly T[],
  fn: (item: T) => Promise<R>,
  limit = SIDE_BY_SIDE,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
