// Bytes written to the write-ahead log, a measure of a database's write work that the machine's pace does not
// move: read a position before some work, then the bytes since it (every writer on the server counts).
import type { Pool } from "pg";

/** The server's current WAL position. */
export async function walPosition(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn");
  return rows[0]?.lsn as string;
}

/** Bytes of WAL written since `position`. */
export async function walBytesSince(pool: Pool, position: string): Promise<number> {
  const { rows } = await pool.query<{ bytes: string }>(
    "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text AS bytes",
    [position],
  );
  return Number(rows[0]?.bytes);
}
