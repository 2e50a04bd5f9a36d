// The Postgres store's schema: the versioned SQL files of migrations/sql/ (NNN_name.sql), applied in
// order at start, each in its own transaction and recorded in amtp.schema_version with its checksum.
// Processes that start together take turns (an advisory lock); a database already at a version
// newer than this AMTP knows, or a migration changed after it was applied, is refused.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { PoolClient } from 'pg';
import { sha256 } from '../core/canonical';
import { StoreCorruptError } from '../core/errors';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

/** Any number: it only has to be the same in every AMTP process. */
const MIGRATION_LOCK = 0x616d7470;

/** migrations/sql beside the code: two levels up from dist/ (the bundle), four from server/src/store/ (tests). */
function migrationsDir(from = __dirname): string {
  for (let dir = from, i = 0; i < 6; i++, dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'migrations', 'sql');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`migrations/sql not found above ${from}: the AMTP installation is incomplete`);
}

export function loadMigrations(dir = migrationsDir()): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const sql = readFileSync(path.join(dir, f), 'utf8');
      return { version: Number(f.slice(0, 3)), name: f.slice(4, -4), sql, checksum: sha256(sql) };
    });
}

/** Brings the database to the newest schema this AMTP has; returns the versions it applied. */
export async function migrate(c: PoolClient, migrations: Migration[] = loadMigrations()): Promise<number[]> {
  await c.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await c.query('CREATE SCHEMA IF NOT EXISTS amtp');
    await c.query(
      'CREATE TABLE IF NOT EXISTS amtp.schema_version (version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const applied = new Map(
      (await c.query<{ version: number; checksum: string }>('SELECT version, checksum FROM amtp.schema_version')).rows.map((r) => [
        r.version,
        r.checksum,
      ]),
    );
    checkApplied(applied, migrations);
    const done: number[] = [];
    for (const m of migrations.filter((x) => !applied.has(x.version))) {
      await c.query('BEGIN');
      try {
        await c.query(m.sql);
        await c.query('INSERT INTO amtp.schema_version (version, name, checksum) VALUES ($1, $2, $3)', [m.version, m.name, m.checksum]);
        await c.query('COMMIT');
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw new Error(`migration ${m.version} (${m.name}) failed: ${(e as Error).message}`, { cause: e });
      }
      done.push(m.version);
    }
    return done;
  } finally {
    await c.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
  }
}

function checkApplied(applied: Map<number, string>, migrations: Migration[]): void {
  const known = new Map(migrations.map((m) => [m.version, m]));
  const newest = Math.max(0, ...migrations.map((m) => m.version));
  for (const [version, checksum] of applied) {
    const m = known.get(version);
    if (!m)
      throw new StoreCorruptError(
        `the Postgres store's schema is at version ${Math.max(...applied.keys())}, newer than this AMTP knows (${newest}): upgrade AMTP`,
      );
    if (m.checksum !== checksum)
      throw new StoreCorruptError(
        `migration ${version} (${m.name}) was changed after it was applied to this database; restore migrations/sql/`,
      );
  }
}
