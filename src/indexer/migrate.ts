/**
 * Schema migrations: the versioned SQL files of src/indexer/migrations (NNN_name.sql),
 * applied in order at start, each in its own transaction together with its row in
 * schema_migrations, under an advisory lock so that two indexers starting on one database
 * do not both migrate it. A database migrated by a newer indexer (a version this one does
 * not know) is refused rather than written with an older idea of the schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';

/** The migration files (read from the package's source tree; works from dist/src/indexer). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../src/indexer/migrations/', import.meta.url));

/** Any fixed number: the key of the advisory lock taken while migrating. */
const LOCK_KEY = 0x73766369; // "svci"

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function migrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f, sql: readFileSync(`${dir}${f}`, 'utf8') }));
}

/** Apply what is missing; returns the versions applied now. */
export async function migrate(pool: Pool, list = migrations()): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const known = new Set(list.map((m) => m.version));
    const unknown = [...done].filter((v) => !known.has(v));
    if (unknown.length > 0) {
      throw new Error(
        `the database has schema version ${Math.max(...unknown)}, which this indexer does not know (it knows up to ${Math.max(0, ...known)}): run a newer svc`,
      );
    }
    const applied: number[] = [];
    for (const m of list) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
      }
      applied.push(m.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}
