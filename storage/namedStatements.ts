// Named statements are parsed and planned once per connection, which is most of a small statement's cost
// on Postgres. The embedded PGlite server shares one session among all its connections, where a name
// prepared through one connection collides with the same name sent by another: hot paths name their
// statements only on a real Postgres server.
import type { Pool } from "pg";

/** False on the embedded PGlite server, where every connection shares one session and its statements. */
export async function isPostgresServer(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ version: string }>("SELECT version()");
  return !/PGlite/i.test(rows[0]?.version ?? "PGlite");
}

/** Whether statements may be named on `pool`: asked once, and again after a failed attempt. */
export function namedStatementsOn(pool: Pool): () => Promise<boolean> {
  let answer: Promise<boolean> | undefined;
  return () => {
    answer ??= isPostgresServer(pool).catch((error: unknown) => {
      answer = undefined;
      throw error;
    });
    return answer;
  };
}

/**
 * Batches a hot path keeps in flight: two on a Postgres server (one per core of a small database server);
 * one on the embedded server, which runs one statement at a time, so a second batch in flight would only
 * split the next one in two and double its statements.
 */
export function batchesInFlight(postgresServer: boolean): number {
  return postgresServer ? 2 : 1;
}
