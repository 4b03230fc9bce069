/**
 * A child process that reports what a client saw as lines on stdout (the kill -9 tests'
 * children): spawn it, hand each complete line, split on spaces, to `onLine`, and know
 * whether it exited before the parent killed it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ReportingChild {
  child: ChildProcess;
  /** Resolves with the signal the child ended by. */
  exited: Promise<NodeJS.Signals | null>;
  /** Throws if the child has already exited (call inside a waitFor). */
  checkAlive(): void;
}

export function spawnReporting(script: string, dir: string, onLine: (fields: string[]) => void): ReportingChild {
  const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffered = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) onLine(line.split(' '));
  });
  let early: string | undefined;
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => {
      early = `child exited early (code ${code}, signal ${signal})`;
      resolve(signal);
    }),
  );
  return {
    child,
    exited,
    checkAlive: () => {
      if (early) throw new Error(early);
    },
  };
}
