/** Real LevelDB in a unique temp directory per test, removed afterwards. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/db/index.js';

export interface TempDb {
  dir: string;
  db: Database;
  reopen(): Promise<Database>;
  cleanup(): Promise<void>;
}

export async function tempDb(prefix = 'svc-store-'): Promise<TempDb> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const handle: TempDb = {
    dir,
    db: await openDatabase(dir),
    async reopen() {
      if (handle.db.status === 'open') await handle.db.close();
      handle.db = await openDatabase(dir);
      return handle.db;
    },
    async cleanup() {
      if (handle.db.status === 'open') await handle.db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}
