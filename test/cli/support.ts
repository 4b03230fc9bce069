/**
 * Running `svc` in tests: in-process through main() with console output captured (fast),
 * or as the real `node bin/svc.js` child process (exit codes, stderr, environment). Child
 * runs that do not depend on each other run side by side (../support/side-by-side.ts).
 */
import { spawn } from 'node:child_process';
import { main } from '../../src/cli/main.js';
import { SVC_BIN } from '../support/node-process.js';
import { childOutput } from '../support/child-output.js';

export { sideBySide } from '../support/side-by-side.js';

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
    const output = childOutput(child);
    child.stdin.end(input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    void output.then((r) => {
      clearTimeout(timer);
      resolve(r);
    });
  });
}
