import type { Pool, PoolClient } from "pg";

/**
 * Runs `work` inside one transaction on one client, committing on success and rolling back on any error.
 * All of a transaction's queries must go through the client it is given: on the embedded database a query
 * on another connection waits for this transaction to end, so mixing connections deadlocks there.
 */
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
