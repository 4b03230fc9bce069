/**
 * The node's one embedded database: LevelDB (classic-level) under `--db-path`.
 * Each engine keeps its data in its own sublevel (`ticks`, `txindex`, `dex`, ...) so
 * a single atomic batch can span them when needed, and a newcomer can list the
 * keyspaces in one place: docs/storage.md.
 */
import { ClassicLevel } from 'classic-level';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

export type Database = ClassicLevel<string, Uint8Array>;

/** Directory of the LevelDB files inside `--db-path` (other files, e.g. the node key, sit beside it). */
export function levelDir(dbPath: string): string {
  return join(dbPath, 'leveldb');
}

/**
 * `shared`: open it so that other threads of this process may open it too (classic-level's
 * `multithreading`; every thread's open must say so): the ordering thread and the node thread.
 */
export async function openDatabase(dbPath: string, options: { shared?: boolean } = {}): Promise<Database> {
  await mkdir(dbPath, { recursive: true });
  const db = new ClassicLevel<string, Uint8Array>(levelDir(dbPath), {
    keyEncoding: 'utf8',
    valueEncoding: 'view',
    ...(options.shared ? { multithreading: true } : {}),
  });
  await db.open();
  return db;
}
