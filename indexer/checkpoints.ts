// Writes `chain_checkpoints`, the row per chain from which the API tells how current the mirror is: the
// head the indexer last saw, the block or slot it has indexed up to (and that block's time), and when.
import type { Pool, PoolClient } from "pg";

export type ChainFamily = "evm" | "solana";

type Queryable = Pool | PoolClient;

/** Records the chain head just seen (block number or slot). */
export async function recordHead(
  db: Queryable,
  chain: string,
  family: ChainFamily,
  head: bigint,
): Promise<void> {
  await db.query(
    `INSERT INTO chain_checkpoints (chain, family, head_number, head_seen_at)
     VALUES ($1, $2, $3, now())
     ON CONFLICT (chain) DO UPDATE SET family = EXCLUDED.family, head_number = EXCLUDED.head_number,
       head_seen_at = EXCLUDED.head_seen_at`,
    [chain, family, head.toString()],
  );
}

/**
 * Records that everything up to `indexedNumber` (whose block time is `blockTime`, null when the chain
 * does not know it) is in the mirror. Never moves backwards except through `setIndexed`.
 */
export async function recordIndexed(
  db: Queryable,
  chain: string,
  family: ChainFamily,
  indexedNumber: bigint,
  blockTime: Date | null,
): Promise<void> {
  await db.query(
    `INSERT INTO chain_checkpoints (chain, family, indexed_number, indexed_block_time, indexed_at)
     VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (chain) DO UPDATE SET family = EXCLUDED.family,
       indexed_number = GREATEST(chain_checkpoints.indexed_number, EXCLUDED.indexed_number),
       indexed_block_time = COALESCE(EXCLUDED.indexed_block_time, chain_checkpoints.indexed_block_time),
       indexed_at = EXCLUDED.indexed_at`,
    [chain, family, indexedNumber.toString(), blockTime],
  );
}

/** Sets the indexed position exactly, also backwards: a reorg on an EVM chain rewinds what is indexed. */
export async function setIndexed(
  db: Queryable,
  chain: string,
  family: ChainFamily,
  indexedNumber: bigint,
  blockTime: Date | null,
): Promise<void> {
  await db.query(
    `INSERT INTO chain_checkpoints (chain, family, indexed_number, indexed_block_time, indexed_at)
     VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (chain) DO UPDATE SET family = EXCLUDED.family, indexed_number = EXCLUDED.indexed_number,
       indexed_block_time = EXCLUDED.indexed_block_time, indexed_at = EXCLUDED.indexed_at`,
    [chain, family, indexedNumber.toString(), blockTime],
  );
}
