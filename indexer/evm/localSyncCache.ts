// Ponder's shared sync store (schema `ponder_sync`) keeps the logs and blocks it fetched, keyed by chain id. A local
// chain (Hardhat, chain id 31337) is a new chain at every start with the same id and the same registry address, so
// rows a killed Ponder left behind describe another chain: a restarted Ponder replays them as this chain's events.
// Before Ponder starts, the local chains' rows are dropped; it fetches them again from the node, which is cheap.
import type { Pool } from "pg";

/** Deletes every `ponder_sync` row of the given chain ids; a database without the schema has nothing to forget. */
export async function forgetLocalChainSync(pool: Pool, chainIds: readonly number[]): Promise<void> {
  if (chainIds.length === 0) return;
  const { rows } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns
      WHERE table_schema = 'ponder_sync' AND column_name = 'chain_id'`,
  );
  for (const { table_name } of rows) {
    await pool.query(`DELETE FROM ponder_sync."${table_name}" WHERE chain_id = ANY($1::bigint[])`, [
      chainIds.map(String),
    ]);
  }
}
