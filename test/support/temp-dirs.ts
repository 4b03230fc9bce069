/**
 * Temporary directories for a test file: `make()` creates one under the OS temp dir with
 * the prefix, `removeAll()` (in an `after` hook) deletes every one made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempDirs(prefix: string): { make(): string; removeAll(): void } {
  const made: string[] = [];
  return {
    make() {
      const d = mkdtempSync(join(tmpdir(), prefix));
      made.push(d);
      return d;
    },
    removeAll() {
      for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}
