// How many batches of one statement a hot path keeps running at once depends on the server: Postgres runs
// them side by side, the embedded server one statement at a time. Statements are named on both (planned once
// per connection: on the embedded server the session queue keeps each connection's names its own,
// storage/statementNames).
import type { Pool } from "pg";

/** False on the embedded PGlite server. */
export async function isPostgresServer(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ version: string }>("SELECT version()");
  return !/PGlite/i.test(rows[0]?.version ?? "PGlite");
}

/**
 * Batches a hot path keeps in flight: two on a Postgres server (one per core of a small database server);
 * one on the embedded server, which runs one statement at a time, so a second batch in flight would only
 * split the next one in two and double its statements.
 */
export function batchesInFlight(postgresServer: boolean): number {
  return postgresServer ? 2 : 1;
}
