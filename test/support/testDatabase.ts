// Each test suite gets its own migrated schema on whichever database the environment gives: the Postgres at
// DATABASE_URL (as in CI), or else one embedded PGlite server shared by the whole test run.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../net/ports";
import { type Database, openDatabase, quoteIdentifier } from "../../storage/database";
import { type EmbeddedServer, startEmbeddedServer } from "../../storage/embeddedServer";

export { freePort };

let shared: { server: EmbeddedServer; dataDir: string } | undefined;

async function databaseUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  if (!shared) {
    const dataDir = mkdtempSync(join(tmpdir(), "svc-test-pglite-"));
    const server = await startEmbeddedServer({
      dataDir,
      host: "127.0.0.1",
      port: await freePort(),
      maxConnections: 32,
    });
    shared = { server, dataDir };
    // A parallel run's worker keeps its server until it exits (test/support/hooks.ts); its files go with it.
    process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
  }
  return shared.server.connectionString;
}

export interface TestDatabase extends Database {
  schema: string;
}

/** Postgres's code for a transaction it ended to break a deadlock. */
const DEADLOCK_DETECTED = "40P01";

/**
 * Drops the schema. A suite's app may still be writing behind its answers (request logs, housekeeping) when the
 * suite ends; DROP SCHEMA ... CASCADE locks the tables one by one and can meet such a write the other way
 * round. Postgres then ends one of the two: when it is the drop, it is tried again.
 */
async function dropSchema(database: Database, schema: string, attempts = 3): Promise<void> {
  try {
    await database.pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`);
  } catch (error) {
    if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempts <= 1) throw error;
    await dropSchema(database, schema, attempts - 1);
  }
}

/** A fresh, migrated schema; `close()` drops it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const database = await openDatabase({ kind: "postgres", url: await databaseUrl(), schema });
  return {
    ...database,
    schema,
    async close() {
      await dropSchema(database, schema);
      await database.close();
    },
  };
}

export async function stopSharedEmbeddedServer(): Promise<void> {
  if (!shared) return;
  await shared.server.stop();
  rmSync(shared.dataDir, { recursive: true, force: true });
  shared = undefined;
}
