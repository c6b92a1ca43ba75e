// Guards the read model against a chain whose history changed under it (a local node restarted from
// genesis, a manifest pointing at a new deployment): the chain's mirror rows and checkpoint are dropped
// so that nothing from the old history is served as current.
import type { Pool } from "pg";
import { withTransaction } from "../storage/transaction";

/** Returns true when rows of an earlier history of `chain` were removed. */
export async function resetChainIfHistoryChanged(
  pool: Pool,
  chain: string,
  historyId: string,
): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ history_id: string }>(
      "SELECT history_id FROM chain_histories WHERE chain = $1 FOR UPDATE",
      [chain],
    );
    const recorded = rows[0]?.history_id;
    if (recorded === historyId) return false;
    if (recorded !== undefined) {
      await client.query("DELETE FROM chain_reservations WHERE chain = $1", [chain]);
      await client.query("DELETE FROM chain_checkpoints WHERE chain = $1", [chain]);
      await client.query("DELETE FROM solana_cursors WHERE chain = $1", [chain]);
      await client.query("DELETE FROM solana_applied_transactions WHERE chain = $1", [chain]);
    }
    await client.query(
      `INSERT INTO chain_histories (chain, history_id) VALUES ($1, $2)
       ON CONFLICT (chain) DO UPDATE SET history_id = EXCLUDED.history_id, recorded_at = now()`,
      [chain, historyId],
    );
    return recorded !== undefined;
  });
}
