// Chain telemetry from the indexers' checkpoints (chain_checkpoints): how far each chain is indexed and how
// fresh that is, by the same freshness rule the decisions apply (core/status), so a chain reads `stale` here
// exactly when its decisions answer `recheck_required`.
import type { Pool } from "pg";
import { type ChainFreshness, DEFAULT_FRESHNESS_BOUND_SECONDS, freshnessOf } from "../../core/status";
import { CHECKPOINT_COLUMNS, type CheckpointRow, checkpointOf } from "./chainCatalogue";

// The posture job reads its rows through chainHealthOf too.
export { CHECKPOINT_COLUMNS, type CheckpointRow } from "./chainCatalogue";

export type ChainHealthStatus = "ok" | "stale" | "not_started";

export interface ChainHealth {
  chain: string;
  family: "evm" | "solana";
  status: ChainHealthStatus;
  headNumber: number | null;
  indexedNumber: number | null;
  /** Blocks or slots between the chain head the indexer saw and what it has indexed. */
  lag: number | null;
  indexedBlockTime: string | null;
  indexedAt: string | null;
  /** Seconds since the indexer last advanced. */
  secondsSinceIndexed: number | null;
}

const HEALTH_OF_FRESHNESS: Record<ChainFreshness["state"], ChainHealthStatus> = {
  fresh: "ok",
  behind: "stale",
  not_started: "not_started",
  unavailable: "stale",
};

export function chainHealthOf(
  row: CheckpointRow,
  nowMs: number,
  boundSeconds = DEFAULT_FRESHNESS_BOUND_SECONDS,
): ChainHealth {
  const checkpoint = checkpointOf(row);
  const { headNumber: head, indexedNumber: indexed } = checkpoint;
  const age = row.indexed_at ? Math.max(0, Math.floor((nowMs - row.indexed_at.getTime()) / 1000)) : null;
  const freshness = freshnessOf(indexed === null ? undefined : checkpoint, new Date(nowMs), boundSeconds);
  const status = HEALTH_OF_FRESHNESS[freshness.state];
  return {
    chain: row.chain,
    family: row.family,
    status,
    headNumber: head,
    indexedNumber: indexed,
    lag: head !== null && indexed !== null ? Math.max(0, head - indexed) : null,
    indexedBlockTime: row.indexed_block_time?.toISOString() ?? null,
    indexedAt: row.indexed_at?.toISOString() ?? null,
    secondsSinceIndexed: age,
  };
}

/**
 * `queryTimeoutMs` (node-postgres `query_timeout`) fails the read after that long without an answer; the pool
 * then discards the connection instead of keeping it busy with a statement a frozen server may never answer.
 */
export async function readChainHealth(
  pool: Pool,
  nowMs: number,
  queryTimeoutMs?: number,
): Promise<ChainHealth[]> {
  const { rows } = await pool.query<CheckpointRow>({
    text: `SELECT ${CHECKPOINT_COLUMNS} FROM chain_checkpoints ORDER BY chain`,
    ...(queryTimeoutMs === undefined ? {} : { query_timeout: queryTimeoutMs }),
  });
  return rows.map((row) => chainHealthOf(row, nowMs));
}
