// Versioned SQL migrations: files named `NNNN_description.sql` in storage/migrations, applied in order,
// together in one transaction (all or none) and recorded in `schema_migrations`. Running it again applies
// nothing new.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Pool } from "pg";
import { projectPath } from "../config/projectRoot";
import { withTransaction } from "./transaction";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS_DIR = projectPath("storage", "migrations");
const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;
// Arbitrary constant: every process that migrates takes the same advisory lock, so two starting replicas
// never apply the same migration twice.
const MIGRATION_LOCK_ID = 7_215_901;

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const migrations = readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .map((file) => {
      const match = FILE_PATTERN.exec(file);
      if (!match) {
        throw new Error(
          `Migration file "${file}" must be named NNNN_description.sql (lowercase, underscores).`,
        );
      }
      return {
        version: Number(match[1]),
        name: match[2] as string,
        sql: readFileSync(join(dir, file), "utf8"),
      };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (index > 0 && migrations[index - 1]?.version === migration.version) {
      throw new Error(`Two migrations share the number ${migration.version}; renumber one of them.`);
    }
  });
  return migrations;
}

/** Applies every pending migration; returns the versions it applied. */
export async function migrate(pool: Pool, migrations = readMigrations()): Promise<number[]> {
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations");
    const applied = new Set(rows.map((row) => row.version));
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      await client.query(migration.sql);
      await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
    }
    return pending.map((migration) => migration.version);
  });
}
