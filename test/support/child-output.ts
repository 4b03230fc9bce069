/**
 * A child process's exit code with everything it wrote. Node emits 'exit' as soon as the
 * process ends, possibly before its last stdout/stderr bytes were read from the pipes, so a
 * test that resolves on 'exit' can see an empty stderr from a process that did print its
 * error (it happened under load). This waits for both streams to end too, but at most
 * `drainMs` after the exit: a grandchild that inherited the pipes may hold them open.
 */
import type { ChildProcess } from 'node:child_process';

export interface ChildOutput {
  code: number | null;
  out: string;
  err: string;
}

export function childOutput(child: ChildProcess, drainMs = 2_000): Promise<ChildOutput> {
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const ended = (s: NodeJS.ReadableStream | null): Promise<void> =>
    s === null ? Promise.resolve() : new Promise((r) => s.once('end', r).once('close', r));
  const streams = Promise.all([ended(child.stdout), ended(child.stderr)]);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      const drained = new Promise<void>((r) => setTimeout(r, drainMs).unref());
      void Promise.race([streams, drained]).then(() => resolve({ code, out, err }));
    });
  });
}
